// gobby's own ground: checks that hold in every phase of every workflow, and for sessions
// that run no workflow at all. They are the first thing evaluateEvent asks, so their
// denies are counted and audited like any other block. What they protect (the control
// token's path, later the daemon's port and gobby's folders) comes in through the engine
// context; this module never looks at the machine itself.
import type { EngineEvent } from './events.js';

/** What gobby protects from the agent's tools, as the daemon knows it. */
export interface ProtectedGround {
  /** Files the agent may neither read nor change: reading the control token would let it forge overrides. */
  readonly secretFiles: readonly string[];
}

export interface GuardDenial {
  /** What the model is told. */
  readonly reason: string;
  /** What the audit row says decided it. */
  readonly because: string;
}

export const NO_PROTECTED_GROUND: ProtectedGround = { secretFiles: [] };

/** The first of gobby's own rules that the event breaks, or null. Only tool calls about to run are checked. */
export function checkProtectedGround(event: EngineEvent, ground: ProtectedGround): GuardDenial | null {
  if (event.name !== 'PreToolUse') return null;
  const input = event.toolInput;
  const command = typeof input.command === 'string' ? input.command : undefined;
  if (command !== undefined) {
    const override = findOverrideCommand(command);
    if (override) return { reason: override, because: 'guard: human-only override' };
  }
  const touched = [command, input.file_path, input.notebook_path, input.path].filter((value): value is string => typeof value === 'string');
  const secret = ground.secretFiles.find((path) => touched.some((text) => mentionsPath(text, path)));
  if (secret) {
    return {
      reason: `gobby: ${secret} holds gobby's control token; the agent may not read or change it.`,
      because: 'guard: control token',
    };
  }
  return null;
}

// The escape hatches (`gobby workflow phase --force`, reset, disable, …) are for the human
// at the keyboard (design §3.8). This matches text, one shell segment at a time; the
// shell-effect classifier (issue #6) replaces it with a judgement of what the command runs.
const GOBBY_PROGRAM = /\bgobby\b|\bcli\/main\.js\b/;
const OVERRIDE_WORDS = /\b(?:workflow\s+(?:phase|reset|disable|enable|clear|set)|uninstall|install|daemon\s+(?:stop|start))\b/;
const SHELL_SEGMENT_SEPARATOR = /[\n;|&]/;
const QUOTED_COMMAND_LIMIT = 200;

/**
 * A deny reason when the shell command would run a human-only gobby command. Linear in
 * the command's length: each segment is searched once for the program and once, after
 * it, for the override's words (a single regex with a lazy gap between them was quadratic
 * on long commands and stalled the daemon).
 */
export function findOverrideCommand(command: string): string | null {
  for (const segment of command.split(SHELL_SEGMENT_SEPARATOR)) {
    const program = GOBBY_PROGRAM.exec(segment);
    if (!program) continue;
    const rest = segment.slice(program.index + program[0].length);
    const words = OVERRIDE_WORDS.exec(rest);
    if (!words) continue;
    const matched = segment.slice(program.index, program.index + program[0].length + words.index + words[0].length).trim();
    return (
      `gobby: \`${matched.length > QUOTED_COMMAND_LIMIT ? `…${matched.slice(-QUOTED_COMMAND_LIMIT)}` : matched}\` changes gobby's own enforcement and only the user may run it. ` +
      'If you believe the workflow is in the wrong phase, say so and ask the user to run the command.'
    );
  }
  return null;
}

/** The full path, or its last two segments (`~/.gobby/token`, `$GOBBY_HOME/../.gobby/token`). */
function mentionsPath(text: string, path: string): boolean {
  const tail = path.split(/[\\/]/).slice(-2).join('/');
  return text.includes(path) || text.includes(tail);
}
