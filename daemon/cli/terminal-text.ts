// Text the CLI prints for people goes to a terminal, and much of it comes from the agent: a
// session id from the hook payload, a refusal that quotes the command, a process name. Raw,
// an escape sequence there could erase or rewrite the lines the user reads to spot tampering
// (`\x1b[1A\x1b[2K`), a newline could forge a row, and a bidi override could reverse what
// follows. Each such character is shown as a visible escape instead; --json output is left
// whole (JSON escapes them itself).

/** C0 and C1 controls and DEL, the line and paragraph separators, and the bidi embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex -- matching control characters is what this is for
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above
const UNSAFE_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visibleEscape(character: string): string {
  const code = character.charCodeAt(0);
  return NAMED[character] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/** One value on one line: every control character, newlines included, as a visible escape. */
function visibleText(text: string): string {
  return text.replace(UNSAFE, visibleEscape);
}

/** A whole printout: its own line breaks kept, every other control character escaped. */
export function visibleLines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, visibleEscape);
}

/** A copy of a daemon's answer with every string in it made visibleText, for the human formatters. */
export function visibleStrings<T>(value: T): T {
  if (typeof value === 'string') return visibleText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => visibleStrings(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visibleStrings(item)])) as T;
  }
  return value;
}
