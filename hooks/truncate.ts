// Shortens text quoted in messages and audit rows. Imported by the hook client, so it
// stays free of imports.

/** `text`, cut to `max` characters with an ellipsis when it was longer. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
