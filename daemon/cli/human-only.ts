// The CLI's first line against the agent: commands that are the human's (the overrides, and
// what switches gobby off or rewires it: `daemon stop`, `install`, `uninstall`, `setup`) refuse
// to run inside a Claude Code session. The boundary is elsewhere: the daemon refuses the agent's
// Bash calls that would run them and judges who sent each override (docs/security.md), since an
// agent can unset a variable. `install`, `uninstall` and `setup` never ask the daemon, so for
// them this is the only check in the CLI.
//
// `gobby hook <Event>` is not refused: Claude Code runs it itself as the SessionStart hook's
// fallback, with CLAUDECODE=1 in the hook's environment too, and refusing it there would leave
// sessions without a daemon. The daemon checks who sends each hook event instead.
import { gobbyError } from '../../hooks/errors.js';

type Env = Record<string, string | undefined>;

/** Throws GOBBY_ERR_CLI_HUMAN_ONLY inside Claude Code (CLAUDECODE=1); `command` as the user types it, `gobby daemon stop`. */
export function refuseInsideClaudeCode(env: Env, command: string): void {
  if (env.CLAUDECODE === '1') {
    throw gobbyError(
      'GOBBY_ERR_CLI_HUMAN_ONLY',
      `\`${command}\` is for humans and refuses to run inside a Claude Code session (CLAUDECODE=1). Run it from your own terminal.`,
    );
  }
}
