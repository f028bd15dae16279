// The daemon's error catalog. Expected outcomes (a deny, a missing session) reach the
// client as these codes with a message that says what to do; docs/errors.md lists them.
import { GobbyError } from '../hooks/errors.js';

export { GobbyError };

export const ERROR_CATALOG = {
  GOBBY_ERR_HTTP_BAD_REQUEST: { status: 400, summary: 'The request body or parameters are malformed.' },
  GOBBY_ERR_HTTP_FORBIDDEN: { status: 403, summary: 'Wrong Host header, a browser Origin, or a missing/wrong control token.' },
  GOBBY_ERR_HTTP_NOT_FOUND: { status: 404, summary: 'No such route.' },
  GOBBY_ERR_HTTP_TOO_LARGE: { status: 413, summary: 'The request body is larger than the daemon accepts.' },
  GOBBY_ERR_HOOK_INVALID_PAYLOAD: { status: 400, summary: 'A hook payload is not the JSON Claude Code sends for that event.' },
  GOBBY_ERR_HOOK_FORGED: { status: 403, summary: "A hook event was not sent by the session's Claude Code process; it was refused and audited." },
  GOBBY_ERR_SESSION_NOT_FOUND: { status: 404, summary: 'No session with that id has reported to the daemon.' },
  GOBBY_ERR_SESSION_NONE_IN_PROJECT: { status: 404, summary: 'No Claude Code session has reported from this project yet.' },
  GOBBY_ERR_SESSION_NO_WORKFLOW: { status: 409, summary: 'The session runs no workflow.' },
  GOBBY_ERR_WORKFLOW_NOT_FOUND: { status: 404, summary: 'No definition with that name in the project, user or built-in tier.' },
  GOBBY_ERR_WORKFLOW_PINNED_INVALID: { status: 500, summary: 'The definition a session is pinned to no longer compiles.' },
  GOBBY_ERR_PHASE_NOT_FOUND: { status: 400, summary: 'The workflow has no phase with that name.' },
  GOBBY_ERR_PHASE_NOT_ALLOWED: { status: 409, summary: 'The definition does not allow that move now; --force overrides.' },
  GOBBY_ERR_OVERRIDE_REASON_REQUIRED: { status: 400, summary: '--force, reset and disable need --reason.' },
  GOBBY_ERR_INTERNAL: { status: 500, summary: 'A bug in gobby; the daemon log has the details.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function gobbyError(code: ErrorCode, message: string): GobbyError {
  return new GobbyError(code, message);
}

export function httpStatusFor(code: string): number {
  return (ERROR_CATALOG as Record<string, { status: number } | undefined>)[code]?.status ?? 500;
}
