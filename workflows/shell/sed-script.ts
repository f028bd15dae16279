// What a sed script does besides editing the text that flows through it: `w file` and `s///w
// file` write, `r file` reads, `e` and `s///e` run commands. The script is read command by command
// as GNU sed reads it (addresses with their own delimiters, `first~step`, `addr,+N`, escaped
// delimiters inside `s`, `y`, text of `a`/`i`/`c`), not matched as text: a `;` or `w` inside a
// regular expression or a replacement must not hide a command or invent one.

export interface SedScriptEffects {
  /** Files the script writes (`w out`, `s/a/b/w out`, `W out`). */
  readonly writes: readonly string[];
  /** Files the script reads (`r in`, `R in`). */
  readonly reads: readonly string[];
  /** Why the script runs commands or cannot be read; undefined when it does neither. */
  readonly opaque: string | undefined;
}

/** Commands that take no argument besides their address. */
const BARE_COMMANDS = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', '}']);

export function inspectSedScript(script: string): SedScriptEffects {
  const writes: string[] = [];
  const reads: string[] = [];
  const reader = new ScriptReader(script);
  while (reader.skipSeparators()) {
    if (!reader.address() || !reader.address(true)) return { writes, reads, opaque: 'the sed script has an address gobby cannot read' };
    reader.skipSpaces();
    if (reader.peek() === '!') {
      reader.next();
      reader.skipSpaces();
    }
    const command = reader.next();
    if (command === '#') reader.restOfLine();
    else if (command === ':') reader.argument(); // GNU sed ends a label at `;` too (`:a;N;$!ba`)
    else if (command === '{' || BARE_COMMANDS.has(command)) continue;
    else if (command === 'w' || command === 'W') writes.push(reader.restOfLine().trim());
    else if (command === 'r' || command === 'R') reads.push(reader.restOfLine().trim());
    else if (command === 'e') return { writes, reads, opaque: 'the sed script runs a command (e)' };
    else if (command === 'a' || command === 'i' || command === 'c') reader.text();
    else if (command === 'b' || command === 't' || command === 'T' || command === 'q' || command === 'Q' || command === 'l' || command === 'L') reader.argument();
    else if (command === 'y') {
      if (!reader.delimited(2)) return { writes, reads, opaque: 'the sed script has a y command gobby cannot read' };
    } else if (command === 's') {
      if (!reader.delimited(2)) return { writes, reads, opaque: 'the sed script has an s command gobby cannot read' };
      // Flags: g, p, i, I, m, M, e, a number, and last `w file`.
      for (;;) {
        const flag = reader.peek();
        if (flag === 'w') {
          reader.next();
          writes.push(reader.restOfLine().trim());
          break;
        }
        if (flag === 'e') return { writes, reads, opaque: 'the sed substitution runs its result as a command (s///e)' };
        if (flag === '' || !/[gpiImM0-9]/.test(flag)) break;
        reader.next();
      }
    } else if (command === 'v') reader.argument();
    else return { writes, reads, opaque: `the sed script has a command gobby does not know (${command === '' ? 'none' : command})` };
  }
  return { writes, reads, opaque: undefined };
}

class ScriptReader {
  private at = 0;
  constructor(private readonly text_: string) {}

  peek(): string {
    return this.text_[this.at] ?? '';
  }

  next(): string {
    return this.text_[this.at++] ?? '';
  }

  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at++;
  }

  /** Past spaces, `;` and newlines; false at the end of the script. */
  skipSeparators(): boolean {
    while (/[\s;]/.test(this.peek()) && this.peek() !== '') this.at++;
    return this.at < this.text_.length;
  }

  /** To the end of the line (a file name takes the rest of it, `;` included, as GNU sed reads it). */
  restOfLine(): string {
    const end = this.text_.indexOf('\n', this.at);
    const line = this.text_.slice(this.at, end === -1 ? undefined : end);
    this.at = end === -1 ? this.text_.length : end;
    return line;
  }

  /** A label or number argument, up to `;` or the end of the line. */
  argument(): void {
    while (this.peek() !== '' && this.peek() !== ';' && this.peek() !== '\n') this.at++;
  }

  /** The text of `a`, `i`, `c`: to the end of the line, and on past lines that end with a backslash. */
  text(): void {
    for (;;) {
      const line = this.restOfLine();
      if (!line.endsWith('\\') || this.peek() === '') return;
      this.at++;
    }
  }

  /**
   * One address: a line number or `first~step`, `$`, `/re/` or `\cREc`, each with optional `I`/`M`;
   * `second`: after a comma, also `+N` and `~N`. True when there is none, false when it cannot be read.
   */
  address(second = false): boolean {
    if (second) {
      this.skipSpaces();
      if (this.peek() !== ',') return true;
      this.at++;
      this.skipSpaces();
      if (this.peek() === '+' || this.peek() === '~') this.at++;
    }
    const c = this.peek();
    if (/[0-9]/.test(c)) {
      while (/[0-9~]/.test(this.peek())) this.at++;
      return true;
    }
    if (c === '$') {
      this.at++;
      return true;
    }
    if (c === '/' || c === '\\') {
      if (c === '\\') this.at++;
      const delimiter = this.next();
      if (delimiter === '' || delimiter === '\n' || !this.until(delimiter)) return false;
      while (this.peek() === 'I' || this.peek() === 'M') this.at++;
      return true;
    }
    return !second;
  }

  /** `count` parts each closed by the delimiter that follows the command (`s/re/new/`, `y/abc/xyz/`); false when one is not closed. */
  delimited(count: number): boolean {
    const delimiter = this.next();
    if (delimiter === '' || delimiter === '\n' || delimiter === '\\') return false;
    for (let i = 0; i < count; i++) if (!this.until(delimiter)) return false;
    return true;
  }

  /** Past the next unescaped `delimiter`; false when there is none. */
  private until(delimiter: string): boolean {
    while (this.at < this.text_.length) {
      const c = this.text_[this.at++]!;
      if (c === '\\') this.at++;
      else if (c === delimiter) return true;
    }
    return false;
  }
}
