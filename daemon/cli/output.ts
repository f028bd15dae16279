// Every command takes --json: scripts get the object, people get text. Errors too: one
// `gobby: <message> [CODE]` on stderr for people, `{"error":{"code","message"}}` on stdout
// for scripts, and the code's exit status for both.
import { gobbyMessage, withoutGobbyPrefix } from '../../hooks/describe-error.js';
import { ERROR_CATALOG, GobbyError } from '../../hooks/errors.js';
import { toJsonText } from './json-text.js';
import { visibleLines, visibleStrings } from './terminal-text.js';

export interface OutputOptions {
  readonly json: boolean;
}

/**
 * Prints `data` as JSON for scripts, or as `human(shown)` for people: `shown` is `data` with
 * every string on one line and free of control characters (see terminal-text.ts), and what
 * the formatter adds is checked the same way, its own line breaks kept.
 */
export function printResult<T>(output: OutputOptions, data: T, human: (shown: T) => string): void {
  process.stdout.write(output.json ? `${toJsonText(data)}\n` : `${visibleLines(human(visibleStrings(data)))}\n`);
}

/** Prints the error the command ended in and returns the exit status it calls for. */
export function printFailure(output: OutputOptions, error: unknown): number {
  const failure = asGobbyError(error);
  // A message that quotes another (the daemon's answer, a child's stderr) may carry its own
  // `gobby: `; the user sees it once, and a script sees none.
  const answer = { error: { code: failure.code, message: withoutGobbyPrefix(failure.message) } };
  if (output.json) process.stdout.write(`${toJsonText(answer)}\n`);
  else process.stderr.write(`${visibleLines(gobbyMessage(failure.message))} [${failure.code}]\n`);
  return ERROR_CATALOG[failure.code].exitCode;
}

/** Anything thrown that is not a catalog error still leaves with a catalog code. */
function asGobbyError(error: unknown): GobbyError {
  if (error instanceof GobbyError) return error;
  const { code, syscall, message } = error as { code?: unknown; syscall?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  // Node's system errors (EACCES, ENOSPC, EISDIR…) name the file and the reason.
  if (typeof code === 'string' && typeof syscall === 'string') return new GobbyError('GOBBY_ERR_CLI_SYSTEM', text);
  return new GobbyError('GOBBY_ERR_INTERNAL', `internal error: ${text}`);
}
