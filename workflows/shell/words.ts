// Words as the program will receive them. Quotes and escapes are removed ("r""m" and \rm are
// rm), `~`, `$HOME`, `${HOME}`, `$PWD` and variables the command set to fixed text earlier
// (`f=x; cat $f`) are expanded, and anything else only known at run
// time ($VAR, $(…), globs, brace expansion) marks the word dynamic and stays as written.
import { forEachChild, type ParsedScript, type SyntaxNode, type Word, type WordPart } from 'unbash';

export interface Arg {
  /** The word after quote removal, with run-time parts left as written. */
  readonly value: string;
  /** Some part is only known at run time. */
  readonly dynamic: boolean;
  /**
   * Offset in `value` of the first part whose text is unknown ($VAR, $(…), ~user), or -1.
   * At 0 the word may turn out absolute or relative, so it cannot be placed under a directory.
   * Globs do not count: `*.ts` still names files under the working directory.
   */
  readonly unknownAt: number;
}

/** What the classifier knows about the variables that words may expand. */
export interface WordEnv {
  /** `null` when the command itself assigns HOME, so its value is no longer known. */
  readonly home: string | null;
  /** The tracked working directory, for `$PWD` and `~+`; `null` when unknown. */
  readonly pwd: string | null;
  /** gobby's home, for `$GOBBY_HOME`; `null` when unknown or assigned by the command itself. */
  readonly gobbyHome: string | null;
  /** Variables the command itself set to fixed text earlier on (see Scope). */
  readonly variables?: ReadonlyMap<string, string> | undefined;
}

/** A substitution found inside a word: its commands run too. `script` is undefined when unbash could not parse it. */
export interface NestedScript {
  readonly script: ParsedScript | undefined;
  readonly text: string;
}

const MAY_SUBSTITUTE = /[$`<>]/;

/** Characters that mean nothing to the shell inside a word: `[\w@%+=:,./-]`. */
const PLAIN_CHAR = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-') PLAIN_CHAR[c.charCodeAt(0)] = 1;
const SINGLE_QUOTE = 39;
const DOUBLE_QUOTE = 34;

/**
 * The word after quote removal when it is plain text and quoted strings with nothing to expand
 * (`src/a.ts`, `--include="*.ts"`, `'rm -rf'`), else undefined. One scan without a regex or a
 * replace callback: most words of a long script are like this (hot path).
 */
function removeSimpleQuotes(text: string): string | undefined {
  let value = '';
  let plainFrom = 0;
  let quoted = false;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c < 128 && PLAIN_CHAR[c] === 1) {
      i++;
      continue;
    }
    let close: number;
    if (c === SINGLE_QUOTE) {
      close = text.indexOf("'", i + 1);
      if (close === -1) return undefined;
    } else if (c === DOUBLE_QUOTE) {
      // Inside double quotes `$`, backticks, `\` and `!` may expand: those words take the slow path.
      for (close = i + 1; close < text.length; close++) {
        const d = text.charCodeAt(close);
        if (d === DOUBLE_QUOTE) break;
        if (d === 36 || d === 96 || d === 92 || d === 33) return undefined;
      }
      if (close === text.length) return undefined;
    } else return undefined;
    value += text.slice(plainFrom, i) + text.slice(i + 1, close);
    i = close + 1;
    plainFrom = i;
    quoted = true;
  }
  return quoted ? value + text.slice(plainFrom) : text;
}

export function literalArg(value: string): Arg {
  return { value, dynamic: false, unknownAt: -1 };
}

/** Renders a word; command and process substitutions in it are appended to `nested`. */
export function renderWord(word: Word, env: WordEnv, nested: NestedScript[]): Arg {
  const text = word.text;
  // Most words are plain literals or simply quoted: skip unbash's lazy part parsing for them (hot path).
  const simple = removeSimpleQuotes(text);
  if (simple !== undefined) return literalArg(simple);
  const parts = word.parts;
  if (parts === undefined) {
    // A single literal with escapes only; a tilde is live only when not escaped.
    return text.startsWith('~') ? expandTilde(word.value, env) : literalArg(word.value);
  }
  // One pass renders the word and finds the substitutions in it (walking it twice showed in the profile).
  const builder = new WordBuilder(MAY_SUBSTITUTE.test(text) ? nested : undefined);
  for (let index = 0; index < parts.length; index++) appendPart(builder, parts[index]!, env, index === 0);
  return builder.finish();
}

class WordBuilder {
  value = '';
  dynamic = false;
  unknownAt = -1;
  /** Where substitutions go; undefined when the word's text cannot contain one. */
  constructor(readonly nested: NestedScript[] | undefined) {}
  known(text: string): void {
    this.value += text;
  }
  unknown(text: string, anchors: boolean): void {
    if (!anchors && this.unknownAt === -1) this.unknownAt = this.value.length;
    this.dynamic = true;
    this.value += text;
  }
  finish(): Arg {
    return { value: this.value, dynamic: this.dynamic, unknownAt: this.unknownAt };
  }
}

function appendPart(builder: WordBuilder, part: WordPart, env: WordEnv, first: boolean): void {
  switch (part.type) {
    case 'Literal':
      if (first && part.text.startsWith('~')) {
        const expanded = expandTilde(part.value, env);
        if (expanded.dynamic) builder.unknown(expanded.value, false);
        else builder.known(expanded.value);
      } else builder.known(part.value);
      return;
    case 'SingleQuoted':
    case 'AnsiCQuoted':
      builder.known(part.value);
      return;
    case 'DoubleQuoted':
    case 'LocaleString':
      for (const child of part.parts) appendPart(builder, child, env, false);
      return;
    case 'SimpleExpansion':
      appendVariable(builder, part.text.slice(1), part.text, env);
      return;
    case 'ParameterExpansion':
      if (part.prefix === undefined && part.index === undefined && part.operation === undefined) {
        appendVariable(builder, part.parameter, part.text, env);
      } else {
        if (builder.nested && MAY_SUBSTITUTE.test(part.text.slice(1))) collectNestedScripts(part, builder.nested);
        builder.unknown(part.text, false);
      }
      return;
    case 'Glob':
    case 'ExtendedGlob':
      if (builder.nested && MAY_SUBSTITUTE.test(part.text)) collectNestedScripts(part, builder.nested);
      builder.unknown(part.text, true);
      return;
    case 'CommandExpansion':
    case 'ProcessSubstitution':
      builder.nested?.push({ script: part.script, text: part.text });
      builder.unknown(part.text, false);
      return;
    case 'ArithmeticExpansion':
    case 'BraceExpansion':
      if (builder.nested && MAY_SUBSTITUTE.test(part.text)) collectNestedScripts(part, builder.nested);
      builder.unknown(part.text, false);
      return;
    default:
      if (builder.nested) collectNestedScripts(part as WordPart, builder.nested);
      builder.unknown((part as { text?: string }).text ?? '?', false);
  }
}

function appendVariable(builder: WordBuilder, name: string, text: string, env: WordEnv): void {
  const value = name === 'HOME' ? env.home : name === 'PWD' ? env.pwd : name === 'GOBBY_HOME' ? env.gobbyHome : (env.variables?.get(name) ?? null);
  if (value === null) builder.unknown(text, false);
  else builder.known(value);
}

function expandTilde(value: string, env: WordEnv): Arg {
  const slash = value.indexOf('/');
  const head = slash === -1 ? value : value.slice(0, slash);
  const tail = slash === -1 ? '' : value.slice(slash);
  const base = head === '~' ? env.home : head === '~+' ? env.pwd : null;
  if (base === null) return { value, dynamic: true, unknownAt: 0 };
  return literalArg(base + tail);
}

/** Every command or process substitution under `node`, at any depth of word structure. */
export function collectNestedScripts(node: SyntaxNode, nested: NestedScript[]): void {
  const visit = (child: SyntaxNode): void => {
    if (child.type === 'CommandExpansion' || child.type === 'ProcessSubstitution' || child.type === 'ArithmeticCommandExpansion') {
      nested.push({ script: child.script, text: child.text });
      return;
    }
    forEachChild(child, visit);
  };
  forEachChild(node, visit);
}
