// Small text helpers shared by the daemon's modules.

/** `text` cut to `max` characters, with an ellipsis when something was cut. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
