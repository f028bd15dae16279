// The SessionStart hook command: inline POSIX sh that Claude Code runs at the start of every
// session. Starting Node costs more than a whole hookless session start is allowed to grow
// (#6: at most 1.05x), so the usual case is one `curl` to the running daemon; only when that
// fails (no curl, daemon down, an answer that is not gobby's) does it hand the same payload to
// `gobby hook SessionStart`, which starts the daemon and explains any failure.
//
// Provenance: the daemon registers the session's Claude Code as the first ancestor of the
// connecting process that is not a shell. `sh -c 'exec curl …'` gives curl the pid that `$$`
// named, so the pid header lets the daemon check the connection without searching every process.
import { quoteForShell } from './shell-quote.js';

/** curl's whole budget: the daemon answers in milliseconds; a hung one must leave time for the fallback. */
const CURL_MAX_SECONDS = 2;

export interface SessionStartCommandOptions {
  readonly port: number;
  /**
   * The command that runs gobby's CLI, already quoted for the shell: `gobby`, or
   * `'/usr/bin/node' '/clone/dist/daemon/cli/main.js'`, maybe after `GOBBY_HOME=… `.
   */
  readonly launcher: string;
  /** Sent as `x-gobby-home` so that the daemon can tell it is the right one (personal installs). */
  readonly home?: string | undefined;
  /** The hook client fails open (`--lenient`). */
  readonly lenient: boolean;
  /**
   * When set, the launcher is `gobby` found on PATH: a shell without it prints this message as
   * a `systemMessage` and stops (exit 0), instead of "gobby: command not found".
   */
  readonly missingGobbyMessage?: string | undefined;
}

/** The SessionStart command, without gobby's ` # gobby-hook` marker. */
export function buildSessionStartCommand(options: SessionStartCommandOptions): string {
  const url = `http://127.0.0.1:${options.port}/hooks/SessionStart`;
  const headers = [
    'content-type: application/json',
    'x-gobby-hook: 1',
    // With no good version of the workflow, the daemon refuses a strict session's tools and only warns a lenient one.
    `x-gobby-failure-mode: ${options.lenient ? 'lenient' : 'strict'}`,
    ...(options.home === undefined ? [] : [`x-gobby-home: ${options.home}`]),
  ];
  // Inside the inner sh, `$$` is its own pid, which `exec` hands to curl.
  const inner = `exec curl -sf -m ${CURL_MAX_SECONDS} -X POST -H "x-gobby-client-pid: $$" "$@" 2>/dev/null`;
  const curlArgs = [...headers.flatMap((header) => ['-H', header]), '--data-raw', '"$p"', url].map((word) => (word === '"$p"' ? word : quoteForShell(word)));
  const fallback = [options.launcher, 'hook', 'SessionStart', '--port', String(options.port), ...(options.lenient ? ['--lenient'] : [])].join(' ');
  const missing =
    options.missingGobbyMessage === undefined
      ? []
      : [`command -v gobby >/dev/null 2>&1 || { printf '%s\\n' ${quoteForShell(JSON.stringify({ systemMessage: options.missingGobbyMessage }))}; exit 0; }`];
  return [
    'p=$(cat)',
    // Only a JSON object (or nothing) is gobby's answer; anything else goes to the fallback,
    // which says what answered, rather than reaching the model as context.
    `r=$(sh -c ${quoteForShell(inner)} sh ${curlArgs.join(' ')}) && case $r in '{'*|'') printf '%s\\n' "$r"; exit 0;; esac`,
    ...missing,
    `printf '%s' "$p" | ${fallback}`,
  ].join('; ');
}
