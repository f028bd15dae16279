// gobby's one error catalog: every code the daemon answers, the CLI prints or the installer
// throws, with its HTTP status, its CLI exit code and a one-line summary. docs/errors.md
// documents each code, and tests/unit/error-catalog.test.ts holds the two together.
//
// It lives in hooks/ because that is the lowest floor all three users can import: daemon/
// (routes, services, CLI) may import hooks/, and hooks/ (the installer, the SessionStart
// client) may not import daemon/. workflows/ sits lower still, but the engine is pure and
// knows nothing of HTTP statuses or exit codes, and expected outcomes there are values.
//
// To add a code: add an entry here (GOBBY_ERR_<AREA>_<WHAT>), a row in docs/errors.md, and
// raise EXPECTED_CODE_COUNT in tests/unit/error-catalog.test.ts.

/**
 * What the CLI's exit status tells a script, whatever the message says. 1 and 2 keep the
 * meaning they had before the catalog (scripts and tests rely on them).
 */
export const EXIT_CODES = {
  /** The command was refused or failed; the message says what to change. */
  failed: 1,
  /** No gobby daemon to talk to: nothing answers, something else does, or it speaks another version. */
  noDaemon: 2,
  /** A bug in gobby: EX_SOFTWARE from sysexits.h. */
  internal: 70,
} as const;

type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

interface ErrorSpec {
  /** The HTTP status the daemon answers with; null for codes only the CLI or installer raise. */
  readonly status: 400 | 403 | 404 | 408 | 409 | 413 | 414 | 415 | 431 | 500 | 503 | null;
  readonly exitCode: ExitCode;
  readonly summary: string;
}

const { failed, noDaemon, internal } = EXIT_CODES;

export const ERROR_CATALOG = {
  // The HTTP layer: the request never reached a route, or its shape is wrong.
  GOBBY_ERR_HTTP_BAD_REQUEST: { status: 400, exitCode: failed, summary: 'The request body or parameters are malformed.' },
  GOBBY_ERR_HTTP_FORBIDDEN: { status: 403, exitCode: failed, summary: 'Wrong Host header, a browser Origin, or a missing/wrong control token.' },
  GOBBY_ERR_HTTP_NOT_FOUND: { status: 404, exitCode: failed, summary: 'No such route.' },
  GOBBY_ERR_HTTP_TOO_LARGE: { status: 413, exitCode: failed, summary: 'The request body is larger than the daemon accepts.' },
  GOBBY_ERR_HTTP_URI_TOO_LONG: { status: 414, exitCode: failed, summary: 'A path parameter is longer than the daemon accepts.' },
  GOBBY_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE: { status: 415, exitCode: failed, summary: 'The request body is not JSON (or plain text).' },
  GOBBY_ERR_HTTP_HEADERS_TOO_LARGE: { status: 431, exitCode: failed, summary: "The request's URL and headers are larger than the daemon reads." },
  GOBBY_ERR_HTTP_REQUEST_TIMEOUT: { status: 408, exitCode: failed, summary: 'The request did not arrive whole in time.' },
  GOBBY_ERR_HTTP_WRONG_DAEMON: { status: 409, exitCode: noDaemon, summary: 'The gobby daemon on the port serves another GOBBY_HOME than the client that asked.' },
  // The hook API.
  GOBBY_ERR_HOOK_INVALID_PAYLOAD: { status: 400, exitCode: failed, summary: 'A hook payload is not the JSON Claude Code sends for that event.' },
  GOBBY_ERR_HOOK_FORGED: { status: 403, exitCode: failed, summary: "A hook event was not sent by the session's Claude Code process; it was refused and audited." },
  // The control API.
  GOBBY_ERR_SESSION_NOT_FOUND: { status: 404, exitCode: failed, summary: 'No session with that id has reported to the daemon.' },
  GOBBY_ERR_SESSION_NONE_IN_PROJECT: { status: 404, exitCode: failed, summary: 'No Claude Code session has reported from this project yet.' },
  GOBBY_ERR_SESSION_NO_WORKFLOW: { status: 409, exitCode: failed, summary: 'The session runs no workflow.' },
  GOBBY_ERR_WORKFLOW_NOT_FOUND: { status: 404, exitCode: failed, summary: 'No definition with that name in the project, user or built-in tier.' },
  GOBBY_ERR_WORKFLOW_INVALID: { status: 409, exitCode: failed, summary: "The workflow's file does not load; the message has file:line:column and the error." },
  GOBBY_ERR_WORKFLOW_PINNED_INVALID: { status: 500, exitCode: failed, summary: 'The definition a session is pinned to no longer compiles.' },
  GOBBY_ERR_PHASE_NOT_FOUND: { status: 400, exitCode: failed, summary: 'The workflow has no phase with that name.' },
  GOBBY_ERR_PHASE_NOT_ALLOWED: { status: 409, exitCode: failed, summary: 'The definition does not allow that move now; --force overrides.' },
  GOBBY_ERR_OVERRIDE_REASON_REQUIRED: { status: 400, exitCode: failed, summary: '--force, reset, disable and clear need --reason.' },
  GOBBY_ERR_OVERRIDE_FROM_AGENT: { status: 403, exitCode: failed, summary: "An override came from a process a Claude Code session's tools started; it was refused and audited." },
  GOBBY_ERR_DURATION_INVALID: { status: 400, exitCode: failed, summary: 'A duration is not a whole number followed by s, m or h (90s, 30m, 2h).' },
  GOBBY_ERR_DB_CORRUPT: { status: 503, exitCode: failed, summary: "The daemon's database file is damaged; the message says how to recover." },
  GOBBY_ERR_INTERNAL: { status: 500, exitCode: internal, summary: 'A bug in gobby; the daemon log (or the message) has the details.' },
  // Raised by the gobby CLI itself; never sent over HTTP.
  GOBBY_ERR_CLI_USAGE: { status: null, exitCode: failed, summary: 'The command line is wrong: an unknown option, a missing argument, or options that exclude each other.' },
  GOBBY_ERR_CLI_HUMAN_ONLY: { status: null, exitCode: failed, summary: 'An override was run inside a Claude Code session.' },
  GOBBY_ERR_CLI_SYSTEM: { status: null, exitCode: failed, summary: 'A file or system operation failed (permission denied, disk full); the message names it.' },
  GOBBY_ERR_CLI_DAEMON_UNREACHABLE: { status: null, exitCode: noDaemon, summary: 'Nothing answers on the daemon port: start the daemon.' },
  GOBBY_ERR_CLI_NOT_GOBBY: { status: null, exitCode: noDaemon, summary: 'Something other than a gobby daemon answers on the daemon port.' },
  GOBBY_ERR_CLI_BAD_ANSWER: { status: null, exitCode: noDaemon, summary: 'The daemon answered with a body this CLI cannot read (a different gobby version?).' },
  GOBBY_ERR_CLI_START_FAILED: { status: null, exitCode: failed, summary: 'The daemon did not start; the message has the end of its startup log.' },
  GOBBY_ERR_CLI_ALREADY_RUNNING: { status: null, exitCode: failed, summary: 'A daemon started by someone else at the same moment holds GOBBY_HOME.' },
  GOBBY_ERR_CLI_CONFIG_INVALID: { status: null, exitCode: failed, summary: 'A setting gobby reads (GOBBY_PORT, $GOBBY_HOME/config.json) holds a value it cannot use; the message names it.' },
  GOBBY_ERR_CLI_STOP_FAILED: { status: null, exitCode: failed, summary: 'The daemon did not stop in time.' },
  // Raised by the settings installer (gobby install / uninstall).
  GOBBY_ERR_INSTALL_INVALID_JSON: { status: null, exitCode: failed, summary: 'The settings file is not valid JSON; it was left untouched.' },
  GOBBY_ERR_INSTALL_INVALID_SETTINGS: { status: null, exitCode: failed, summary: 'Claude Code would reject the settings file, or the result.' },
  // Raised by gobby setup.
  GOBBY_ERR_SETUP_NOT_OURS: { status: null, exitCode: failed, summary: 'A `gobby` that setup did not write is in the launcher folder; it was left untouched.' },
} as const satisfies Record<`GOBBY_ERR_${string}`, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** The codes the daemon may answer with over HTTP: those with a status. */
export type HttpErrorCode = {
  [Code in ErrorCode]: (typeof ERROR_CATALOG)[Code]['status'] extends number ? Code : never;
}[ErrorCode];

export class GobbyError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'GobbyError';
  }

  get exitCode(): number {
    return ERROR_CATALOG[this.code].exitCode;
  }
}

export function gobbyError(code: ErrorCode, message: string): GobbyError {
  return new GobbyError(code, message);
}

/** For codes read off the wire (a daemon's answer), which may be anything. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOG, value);
}

export function isHttpErrorCode(code: ErrorCode): code is HttpErrorCode {
  return ERROR_CATALOG[code].status !== null;
}

export function httpStatusOf(code: HttpErrorCode): number {
  return ERROR_CATALOG[code].status;
}
