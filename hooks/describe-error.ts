// One line that says what went wrong, for messages a user reads. Imported by the hook
// client, so node built-ins only (here: none).

/**
 * The most specific message an error carries. fetch (undici) hides the useful part
 * ("connect ECONNREFUSED 127.0.0.1:7377") in `cause`, so that comes first.
 */
export function describeError(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && cause.message) return cause.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
