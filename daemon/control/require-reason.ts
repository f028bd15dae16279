import { gobbyError } from '../errors.js';

/** Escape hatches need a reason: it goes into the audit log with who ran them. */
export function requireReason(reason: string | undefined, what: string): string {
  const trimmed = reason?.trim();
  if (!trimmed) throw gobbyError('GOBBY_ERR_OVERRIDE_REASON_REQUIRED', `${what} needs --reason "why", which goes into the audit log`);
  return trimmed;
}
