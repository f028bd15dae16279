// The SessionStart hook command: inline shell that Claude Code runs (with /bin/sh) at the start of
// every session. Starting Node costs more than a whole hookless session start is allowed to grow
// (#6: at most 1.05x), so the usual case starts no program besides the shell: bash itself posts
// the payload through /dev/tcp and prints the answer. Where there is no bash, sh runs one `curl`
// instead. Only when that fails too (daemon down, no curl, an answer that is not gobby's)
// does it hand the same payload to `gobby hook SessionStart`, which starts the daemon and explains
// any failure. Measured here, the daemon's answer included: about 19 ms through bash, 45 ms with
// curl, 300 ms and more with Node.
//
// Provenance: the daemon registers the session's Claude Code as the first ancestor of the
// connecting process that is not a shell. The pid header names that process: bash itself ($$)
// on the /dev/tcp path; on the curl path `sh -c 'exec curl …'` gives curl the pid that the inner
// `$$` named. Either way the daemon checks the connection without searching every process.
import { quoteForShell } from './shell-quote.js';

/** The whole budget of curl, or of bash's read: the daemon answers in milliseconds; a hung one must leave time for the fallback. */
const ANSWER_WAIT_SECONDS = 2;

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
  const devTcp = options.home !== undefined && /[\r\n]/.test(options.home) ? [] : bashPost(options.port, headers);
  // Inside the inner sh, `$$` is its own pid, which `exec` hands to curl.
  const inner = `exec curl -sf -m ${ANSWER_WAIT_SECONDS} -X POST -H "x-gobby-client-pid: $$" "$@" 2>/dev/null`;
  const curlArgs = [...headers.flatMap((header) => ['-H', header]), '--data-raw', '"$p"', url].map((word) => (word === '"$p"' ? word : quoteForShell(word)));
  const fallback = [options.launcher, 'hook', 'SessionStart', '--port', String(options.port), ...(options.lenient ? ['--lenient'] : [])].join(' ');
  const missing =
    options.missingGobbyMessage === undefined
      ? []
      : [`command -v gobby >/dev/null 2>&1 || { printf '%s\\n' ${quoteForShell(JSON.stringify({ systemMessage: options.missingGobbyMessage }))}; exit 0; }`];
  // Only a JSON object (or nothing) is gobby's answer; anything else goes to the fallback,
  // which says what answered, rather than reaching the model as context.
  const curl = `r=$(sh -c ${quoteForShell(inner)} sh ${curlArgs.join(' ')}) && case $r in '{'*|'') printf '%s\\n' "$r"; exit 0;; esac`;
  const script = [
    // bash reads stdin with a builtin; `$(cat)` would start a process (about 5 ms here).
    `if [ -n "$BASH_VERSION" ]; then IFS= read -r -d '' p; else p=$(cat); fi`,
    devTcp.length === 0 ? curl : `if ${devTcp.join('; ')}; else ${curl}; fi`,
    ...missing,
    `printf '%s' "$p" | ${fallback}`,
  ].join('; ');
  // Claude Code runs command hooks with /bin/sh (2.1.330, even with "shell": "bash"), which on
  // Debian is dash, without /dev/tcp. The script goes to bash when there is one (exec: the same
  // process, about 4 ms here); otherwise sh runs it and takes the curl path.
  return `s=${quoteForShell(script)}; [ -n "$BASH_VERSION" ] || ! command -v bash >/dev/null 2>&1 || exec bash -c "$s"; eval "$s"`;
}

/**
 * bash's own HTTP POST: the condition of an `if` (bash, and a connection to the port) and then
 * its body, as statements. A connection that answers decides: gobby's answer is printed, anything
 * else falls through to the fallback without trying curl. HTTP/1.0 keeps the answer unchunked, and
 * the closed connection lets one `read` take all of it. The body's length is counted in bytes
 * (LC_ALL=C), then the locale restored. Header values go in as printf arguments, never into the
 * format, and a home with a line break in it takes the curl path instead.
 */
function bashPost(port: number, headers: readonly string[]): string[] {
  const lines = [`POST /hooks/SessionStart HTTP/1.0`, `host: 127.0.0.1:${port}`, ...headers.map(() => '%s'), 'x-gobby-client-pid: %s', 'content-length: %s', 'connection: close'];
  const format = `${lines.join('\\r\\n')}\\r\\n\\r\\n%s`;
  return [
    `[ -n "$BASH_VERSION" ] && { exec 3<>/dev/tcp/127.0.0.1/${port}; } 2>/dev/null; then o=\${LC_ALL-}; LC_ALL=C; n=\${#p}; LC_ALL=$o`,
    `printf ${quoteForShell(format)} ${headers.map((header) => quoteForShell(header)).join(' ')} "$$" "$n" "$p" >&3`,
    // bash reads a socket a byte at a time, and with -t it adds a select() and two sigprocmask()
    // per byte: 5 ms of a 1 KB answer here. So only the status line waits with a timeout (a hung
    // daemon); the rest follows at once (the daemon writes its answer whole) and ends at the close.
    `IFS= read -r -t ${ANSWER_WAIT_SECONDS} h <&3 && IFS= read -r -d '' r <&3; exec 3<&-`,
    `case $h in 'HTTP/1.1 200 '*) r=\${r#*$'\\r\\n\\r\\n'}; case $r in '{'*|'') printf '%s\\n' "$r"; exit 0;; esac;; esac`,
  ];
}
