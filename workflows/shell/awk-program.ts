// What an awk program does besides reading its input: awk has its own redirections (`print >
// "f"`, `getline < "f"`), pipes to and from commands (`print | "sh"`, `"cmd" | getline`) and
// system(). The program is read as awk tokens, not matched as text: a string literal holding
// `;`, `{` or `|` must not hide a redirection after it, and a regular expression such as
// `/a|b/` is no pipe.

export interface AwkProgramEffects {
  /** Files the program writes by name (`print > "out.txt"`, `printf … >> "log"`). */
  readonly writes: readonly string[];
  /** Files the program reads by name besides its operands (`getline line < "other"`). */
  readonly reads: readonly string[];
  /** Why the program is code gobby cannot follow (runs commands, or files named at run time); undefined when it is not. */
  readonly opaque: string | undefined;
}

type Token = { readonly kind: 'string'; readonly value: string } | { readonly kind: 'word'; readonly value: string } | { readonly kind: 'punct'; readonly value: string };

/** Where a `/` starts a regular expression rather than a division: after these, or at the start. */
const BEFORE_REGEX = new Set(['(', ',', '{', '}', ';', '!', '~', '&&', '||', '\n', '&', '|', '?', ':', '=', '==', '!=', '<', '>', '+', '-', '*', '%', '^']);
const STATEMENT_END = new Set([';', '}', '{', '\n']);

export function inspectAwkProgram(program: string): AwkProgramEffects {
  const tokens = awkTokens(program);
  const writes: string[] = [];
  const reads: string[] = [];
  let opaque: string | undefined;
  for (let i = 0; i < tokens.length && opaque === undefined; i++) {
    const token = tokens[i]!;
    if (token.kind === 'punct' && (token.value === '|' || token.value === '|&')) opaque = 'the awk program pipes to or from a command (|)';
    else if (token.kind === 'punct' && token.value === '@') opaque = 'the awk program loads other code (@include, @load)';
    else if (token.kind === 'word' && token.value === 'system' && tokens[i + 1]?.value === '(') opaque = 'the awk program runs commands (system())';
    else if (token.kind === 'word' && (token.value === 'print' || token.value === 'printf')) {
      const target = outputRedirection(tokens, i + 1);
      if (target === null) opaque = 'the awk program writes to a file named at run time (print >)';
      else if (target !== undefined) writes.push(target);
    } else if (token.kind === 'word' && token.value === 'getline') {
      // `getline < "f"` or `getline line < "f"`.
      const at = tokens[i + 1]?.kind === 'word' ? i + 2 : i + 1;
      if (tokens[at]?.value !== '<') continue;
      const source = tokens[at + 1];
      if (source?.kind === 'string') reads.push(source.value);
      else opaque = 'the awk program reads a file named at run time (getline <)';
    }
  }
  return { writes, reads, opaque };
}

/**
 * The file a print statement starting at `from` writes to: its string, undefined when the
 * statement prints to standard output, null when the target is only known at run time. A `>`
 * inside parentheses is a comparison (`print (a > b)`).
 */
function outputRedirection(tokens: readonly Token[], from: number): string | null | undefined {
  let depth = 0;
  for (let i = from; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind !== 'punct') continue;
    if (token.value === '(') depth++;
    else if (token.value === ')') depth--;
    else if (depth === 0 && STATEMENT_END.has(token.value)) return undefined;
    else if (depth === 0 && (token.value === '>' || token.value === '>>')) {
      const target = tokens[i + 1];
      // Only a lone string names the file: `print > "a" b` concatenates, so the name is built.
      const after = tokens[i + 2];
      return target?.kind === 'string' && (after === undefined || (after.kind === 'punct' && STATEMENT_END.has(after.value))) ? target.value : null;
    }
  }
  return undefined;
}

function awkTokens(program: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < program.length) {
    const c = program[i]!;
    if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '\\' && program[i + 1] === '\n') i += 2; // a continued line
    else if (c === '#') {
      while (i < program.length && program[i] !== '\n') i++;
    } else if (c === '"') {
      let value = '';
      for (i++; i < program.length && program[i] !== '"'; i++) {
        if (program[i] === '\\' && i + 1 < program.length) value += unescape(program[++i]!);
        else value += program[i];
      }
      i++;
      tokens.push({ kind: 'string', value });
    } else if (c === '/' && regexMayStart(tokens)) {
      // A regular expression literal: skipped whole, `[/]` and `\/` included.
      let inBracket = false;
      for (i++; i < program.length; i++) {
        const d = program[i];
        if (d === '\\') i++;
        else if (d === '[') inBracket = true;
        else if (d === ']') inBracket = false;
        else if ((d === '/' && !inBracket) || d === '\n') break;
      }
      i++;
      tokens.push({ kind: 'string', value: '' });
    } else if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < program.length && /\w/.test(program[i]!)) i++;
      tokens.push({ kind: 'word', value: program.slice(start, i) });
    } else {
      const two = program.slice(i, i + 2);
      const operator = ['>>', '||', '&&', '|&', '==', '!=', '<=', '>='].includes(two) ? two : c;
      tokens.push({ kind: 'punct', value: operator });
      i += operator.length;
    }
  }
  return tokens;
}

function regexMayStart(tokens: readonly Token[]): boolean {
  const previous = tokens[tokens.length - 1];
  if (previous === undefined) return true;
  if (previous.kind === 'punct') return BEFORE_REGEX.has(previous.value);
  // After a keyword that takes an expression (`print /x/`, `return /x/`), not after a name or number.
  return previous.kind === 'word' && ['print', 'printf', 'return', 'in'].includes(previous.value);
}

function unescape(c: string): string {
  return c === 'n' ? '\n' : c === 't' ? '\t' : c;
}
