// One line that says what went wrong, for messages a user reads. Imported by the hook
// client, so node built-ins only (here: none).

/**
 * `gobby: ` where one message quotes another: at its start, or after the `: `, `; `, `(` or
 * line break that joins them. Messages are built in layers (the daemon's answer inside the
 * CLI's sentence, a child's stderr inside "the daemon did not start: …"), and each layer may
 * have been written to stand alone, prefix included.
 */
const NESTED_PREFIX = /(^|: |; |\(|\n)(?:gobby: )+/g;

/** `message` with every `gobby: ` that a quoted message brought along taken out. */
export function withoutGobbyPrefix(message: string): string {
  return message.replace(NESTED_PREFIX, '$1');
}

/**
 * The one way a message is shown to a user: `gobby: ` once, at the start, however many
 * layers the message went through. The CLI, the hook client and the daemon's own stderr
 * lines all print through this.
 */
export function gobbyMessage(message: string): string {
  return `gobby: ${withoutGobbyPrefix(message.trim())}`;
}

/**
 * The most specific message an error carries, ready to be quoted inside another message.
 * fetch (undici) hides the useful part ("connect ECONNREFUSED 127.0.0.1:7377") in `cause`,
 * so that comes first.
 */
export function describeError(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && cause.message) return withoutGobbyPrefix(cause.message);
  if (error instanceof Error) return withoutGobbyPrefix(error.message);
  return withoutGobbyPrefix(String(error));
}
