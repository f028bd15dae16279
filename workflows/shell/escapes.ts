// Backslash escapes as bash's builtins read them: `echo -e`, `printf`'s format and `%b`, and the
// `${x@E}` transformation. Kept apart so that the word renderer and the printed-text reader share one reading.

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'" };

/** The backslash escapes of `echo -e` and `printf` (`\n`, `\t`, `\x2e`, `\056`, `\0056`); undefined at `\c`, where output stops (left to run time). */
export function interpretEscapes(text: string): string | undefined {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\' || i + 1 === text.length) {
      out += c;
      continue;
    }
    const next = text[i + 1]!;
    if (next === 'c') return undefined;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const hex = next === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2)) : null;
    const octal = /^[0-7]{1,4}/.exec(text.slice(i + 1));
    // `\u002f`, `\U0000002f`: a character by its code point.
    const unicode = next === 'u' ? /^[0-9a-fA-F]{1,4}/.exec(text.slice(i + 2)) : next === 'U' ? /^[0-9a-fA-F]{1,8}/.exec(text.slice(i + 2)) : null;
    if (unicode) {
      const code = Number.parseInt(unicode[0], 16);
      if (code > 0x10ffff) return undefined;
      out += String.fromCodePoint(code);
      i += 1 + unicode[0].length;
    } else if (hex) {
      out += String.fromCharCode(Number.parseInt(hex[0], 16));
      i += 1 + hex[0].length;
    } else if (octal) {
      // `\0NNN` (echo) and `\NNN` (printf): up to three octal digits after an optional 0.
      const digits = octal[0].startsWith('0') && octal[0].length > 1 ? octal[0].slice(1, 4) : octal[0].slice(0, 3);
      out += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
      i += (octal[0].startsWith('0') && octal[0].length > 1 ? 1 : 0) + digits.length;
    } else out += c;
  }
  return out;
}
