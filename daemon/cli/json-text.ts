// The CLI's --json text. JSON.stringify(value, null, 2) indents each level two spaces more,
// so a value nested n levels deep (a workflow variable the agent filled) costs about n² bytes:
// 1.2 MB for one status. Past a few levels nobody reads the indentation, so deeper values are
// written on one line. The text parses to the same value either way.

/** Levels indented before the rest of a value is written compactly. */
const INDENTED_LEVELS = 8;

export function toJsonText(value: unknown): string {
  // Through JSON first: toJSON, undefined members and the like are settled the standard way.
  const text = JSON.stringify(value);
  if (text === undefined) return 'null';
  return indented(JSON.parse(text) as unknown, 0);
}

function indented(value: unknown, level: number): string {
  if (value === null || typeof value !== 'object' || level >= INDENTED_LEVELS) return JSON.stringify(value);
  const inner = '  '.repeat(level + 1);
  const outer = '  '.repeat(level);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + indented(item, level + 1)).join(',\n')}\n${outer}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${indented(item, level + 1)}`).join(',\n')}\n${outer}}`;
}
