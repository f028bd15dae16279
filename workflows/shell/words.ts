// Words as the program will receive them. Quotes and escapes are removed ("r""m" and \rm are
// rm), `~`, `$HOME`, `${HOME}`, `$PWD` and variables the command set to fixed text earlier
// (`f=x; cat $f`) are expanded, `${VAR:-default}` reads as its default when VAR is not known,
// brace expansion makes one word per alternative (`a{,.bak}` is `a a.bak`), and anything else
// only known at run time ($VAR, $(…), globs) marks the word dynamic and stays as written.
import { forEachChild, parse, type ParameterOperation, type ParsedScript, type SyntaxNode, type Word, type WordPart } from 'unbash';
import { constantArithmetic } from './arithmetic.js';
import { interpretEscapes } from './escapes.js';
import type { VariableValue } from './scope.js';
import { matchesWithStars, starForGlobStar } from './glob-text.js';

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
  /** Where `cd -` goes, for `$OLDPWD` and `~-`; `null` when unknown. */
  readonly oldpwd?: string | null | undefined;
  /** The project's root, where `git rev-parse --show-toplevel` most likely points from inside it. */
  readonly projectRoot?: string | undefined;
  /** pushd's stack below the working directory, the newest last, for `~1`, `~+2`, `~-0`. */
  readonly dirStack?: readonly string[] | undefined;
  /** gobby's home, for `$GOBBY_HOME`; `null` when unknown or assigned by the command itself. */
  readonly gobbyHome: string | null;
  /** Variables the command itself set to fixed text earlier on (see Scope). */
  readonly variables?: ReadonlyMap<string, VariableValue> | undefined;
  /**
   * Something in the command may set variables unseen (`read`, `declare`, `local`, …): a value
   * above is then only the likeliest one. It is rendered, so a guard sees what the word most
   * likely names, but the word stays dynamic, so a phase that restricts an effect still refuses it.
   */
  readonly variablesUncertain?: boolean;
  /** IFS's characters beyond space, tab and newline, once the command sets IFS to fixed text (`IFS=,`): unquoted expansions split there too. */
  readonly extraSeparators?: string | undefined;
  /** How the command has set bash's globbing so far (see GlobOptions). */
  readonly globOptions?: GlobOptions | undefined;
  /** The whole command, for what only a rare construct needs to know (whether it sets TMPDIR). */
  readonly command?: string | undefined;
  /** Functions the command has defined so far, and names an alias or `hash` may have taken over: not the programs they name. */
  readonly functions?: ReadonlyMap<string, unknown> | undefined;
  readonly redefined?: ReadonlySet<string> | 'all' | undefined;
  /** What a command substitution prints, when that is fixed text (`$(echo rm)`; workflows/shell/printed.ts). */
  readonly outputOf?: ((script: ParsedScript | undefined, env: WordEnv) => Arg | undefined) | undefined;
}

/**
 * bash options a command may set that widen what a glob matches: `shopt -s dotglob` (or a
 * GLOBIGNORE, which sets it) lets `*` match names that start with a dot, and `shopt -s
 * nocaseglob` ignores case. A glob word then also stands for those names (`rm -rf *` reaches
 * `.claude`, `.CLAUDE` reaches `.claude`).
 */
export interface GlobOptions {
  dotGlob: boolean;
  noCase: boolean;
  /** `shopt -s globstar`: a `**` segment is any depth (of names without a dot, unless dotglob), not `*`. */
  globStar: boolean;
}

/** More glob segments than this in one word are widened all at once, not in every combination. */
const MAX_VARIANT_SEGMENTS = 3;
const GLOB_SEGMENT = /[*?[]/;

/** Pushes `arg`, and when it is a glob under widened options, the names those options add (hot path: most words are not dynamic). */
function pushField(into: Arg[], arg: Arg, env: WordEnv): void {
  if (arg.dynamic && arg.unknownAt === -1 && arg.value.includes('**') && env.globOptions?.globStar !== true) arg = { ...arg, value: starForGlobStar(arg.value) };
  into.push(arg);
  if (arg.dynamic) widenGlob(into, arg, env);
}

function widenGlob(into: Arg[], arg: Arg, env: WordEnv): void {
  const options = env.globOptions;
  if (options === undefined || (!options.dotGlob && !options.noCase) || arg.unknownAt !== -1 || !GLOB_SEGMENT.test(arg.value)) return;
  const segments = arg.value.split('/');
  const globbed = segments.flatMap((segment, index) => (GLOB_SEGMENT.test(segment) ? [index] : []));
  const variants = new Set<string>();
  const combinations = globbed.length <= MAX_VARIANT_SEGMENTS ? 1 << globbed.length : 2;
  for (let mask = 0; mask < combinations; mask++) {
    const variant = segments.map((segment, index) => {
      const at = globbed.indexOf(index);
      if (at === -1) return segment;
      const dotted = options.dotGlob && (globbed.length <= MAX_VARIANT_SEGMENTS ? (mask >> at) & 1 : mask) && !segment.startsWith('.') ? `.${segment}` : segment;
      return options.noCase ? dotted.replace(/[a-zA-Z]/g, (letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`) : dotted;
    });
    variants.add(variant.join('/'));
  }
  variants.delete(arg.value);
  for (const variant of variants) into.push({ value: variant, dynamic: true, unknownAt: -1 });
}

/** Text that stays one word where the shell splits and globs an unquoted expansion. */
const ONE_WORD = /^[^\s*?[\]]*$/;

/** Whether an unquoted expansion's text stays one word: no blank, no glob, none of IFS's other characters. */
function staysOneWord(text: string, env: WordEnv): boolean {
  if (!ONE_WORD.test(text)) return false;
  const extra = env.extraSeparators;
  if (extra === undefined) return true;
  for (const c of extra) if (text.includes(c)) return false;
  return true;
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
const BACKSLASH = 92;
const STAR = 42;
const QUESTION_MARK = 63;
const NEWLINE = 10;
const DOLLAR = 36;

/**
 * The word rendered when it is plain text, quoted strings with nothing to expand, escaped
 * characters and `*`/`?` globs (`src/a.ts`, `--include="*.ts"`, `'rm -rf'`, `\;`, `'it'\''s'`,
 * `test/*.spec.ts`), else undefined. One scan without a regex or a replace callback: most words
 * of a long script are like this (hot path), and so is the one long word of `bash -c '…'` with its
 * quotes escaped. Everything else (`$`, `~`, brackets, braces) takes unbash's parts.
 */
function simpleWord(text: string): Arg | undefined {
  let value = '';
  let plainFrom = 0;
  let quoted = false;
  let globbed = false;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c < 128 && PLAIN_CHAR[c] === 1) {
      i++;
      continue;
    }
    if (c === STAR || c === QUESTION_MARK) {
      // A glob names files under the working directory: dynamic, but still placed (see Arg.unknownAt).
      globbed = true;
      i++;
      continue;
    }
    if (c === BACKSLASH) {
      // Outside quotes a backslash makes the next character itself (`\*` is no glob, `\~` no
      // home); before a newline it is a line continuation, and both go.
      if (i + 1 === text.length) return undefined;
      value += text.slice(plainFrom, i);
      if (text.charCodeAt(i + 1) !== NEWLINE) value += text[i + 1];
      i += 2;
      plainFrom = i;
      quoted = true;
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
  const rendered = quoted ? value + text.slice(plainFrom) : text;
  return globbed ? { value: rendered, dynamic: true, unknownAt: -1 } : literalArg(rendered);
}

/** A whole unquoted word `$x` or `${x}`. */
const WHOLE_VARIABLE = /^\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})$/;
const FIELD_SEPARATORS = /[ \t\n]+/;
const GLOB_CHARACTER = /[*?[\]]/;
const QUOTE = /['"]/;

/**
 * The words an unquoted `$x` becomes when x holds fixed text with spaces: the shell splits it
 * (`x='rm -rf src'; $x` runs rm), and an empty value is no word at all. Undefined when the value
 * is one word, unknown, or holds a glob. (IFS is never tracked: a command that sets it follows no variable.)
 */
function splitVariable(text: string, env: WordEnv, variables: ReadonlyMap<string, VariableValue>): string[] | undefined {
  if (variables.size === 0) return undefined;
  const match = WHOLE_VARIABLE.exec(text);
  if (match === null) return undefined;
  const value = variables.get(match[1] ?? match[2]!);
  if (typeof value !== 'string') return undefined;
  if (value === '') return [];
  if (staysOneWord(value, env) || GLOB_CHARACTER.test(value)) return undefined;
  // With IFS set (`IFS=x; c=rmx-rfx.claude; $c`), its characters split too; blanks are kept as separators, to be safe.
  const separators = env.extraSeparators === undefined ? FIELD_SEPARATORS : new RegExp(`[ \\t\\n${env.extraSeparators.replace(/[\\\]^-]/g, '\\$&')}]+`);
  return value.split(separators).filter((field) => field !== '');
}

/** The subscript under which all of an array's elements are kept, NUL-separated, while each is known (classify.ts's rememberArray). */
export const ARRAY_ALL_ELEMENTS = '@';
/** The subscript under which a value set at a subscript only known at run time is kept (`a[$i]=v`): any element's likeliest value. */
export const ARRAY_ANY_ELEMENT = '?';

/** `…]}` or `…]}"`: cheap before WHOLE_ARRAY (hot path: every word). */
function endsLikeWholeArray(text: string): boolean {
  const end = text.charCodeAt(text.length - 1) === DOUBLE_QUOTE ? text.length - 1 : text.length;
  return text.charCodeAt(end - 1) === CLOSE_BRACE && text.charCodeAt(end - 2) === CLOSE_BRACKET;
}

const CLOSE_BRACE = 125;

const WHOLE_ARRAY = /^(")?\$\{([A-Za-z_]\w*)\[([@*])\]\}(")?$/;

/**
 * The words of `"${a[@]}"` (each element), `"${a[*]}"` (all joined by a space) or `${a[@]}` (each
 * split at blanks) when the command set every element.
 */
function arrayFields(text: string, variables: ReadonlyMap<string, VariableValue>): string[] | undefined {
  const match = WHOLE_ARRAY.exec(text);
  if (match === null || match[1] !== match[4]) return undefined;
  const all = variables.get(`${match[2]}[${ARRAY_ALL_ELEMENTS}]`);
  if (typeof all !== 'string') return undefined;
  const elements = all.split('\u0000');
  if (match[1] === '"') return match[3] === '@' ? elements : [elements.join(' ')];
  return elements.flatMap((element) => element.split(FIELD_SEPARATORS).filter((field) => field !== ''));
}

export function literalArg(value: string): Arg {
  return { value, dynamic: false, unknownAt: -1 };
}

/** More words than this from one brace expansion (`{1..1000}`) leave the word as written, dynamic. */
const MAX_BRACE_FIELDS = 64;
/** A longer brace part is left as written: nested braces cost the square of their length to expand. */
const MAX_BRACE_TEXT = 1024;

/**
 * Appends to `into` the words one shell word becomes after brace expansion, each rendered (`cp
 * a{,.bak}` gives `a` and `a.bak`; `{cat,~/.gobby/token}` in command position runs `cat`). Most
 * words have no brace expansion and are appended as themselves.
 */
export function renderWordFields(word: Word, env: WordEnv, nested: NestedScript[], into: Arg[]): void {
  if (word.text.charCodeAt(0) === DOLLAR && env.variables !== undefined) {
    const fields = splitVariable(word.text, env, env.variables);
    if (fields !== undefined) {
      for (const field of fields) into.push(env.variablesUncertain ? { value: field, dynamic: true, unknownAt: -1 } : literalArg(field));
      return;
    }
  }
  // `"${a[@]}"`, `${a[*]}`: each element of an array the command set is a word of its own.
  if (env.variables !== undefined && env.variables.size > 0 && endsLikeWholeArray(word.text)) {
    const elements = arrayFields(word.text, env.variables);
    if (elements !== undefined) {
      for (const element of elements) into.push(env.variablesUncertain ? { value: element, dynamic: true, unknownAt: -1 } : literalArg(element));
      return;
    }
  }
  // A brace only expands outside quotes: a word without one, or plain or simply quoted
  // (`'{"a": 1}'`, `"%{http_code}"`), is one word, without asking unbash for its parts and
  // without a list of its own (hot path: most words of a long script).
  if (!word.text.includes('{')) {
    pushField(into, renderWord(word, env, nested), env);
    return;
  }
  const simple = simpleWord(word.text);
  if (simple !== undefined) {
    pushField(into, simple, env);
    return;
  }
  const parts = word.parts;
  if (parts === undefined || !parts.some((part) => part.type === 'BraceExpansion')) {
    pushField(into, renderFromParts(word, env, nested), env);
    return;
  }
  // Each brace part becomes one list of alternatives; the words are every combination, in order.
  let combinations: WordPart[][] = [[]];
  for (const part of parts) {
    const alternatives = part.type === 'BraceExpansion' && part.parts === undefined ? expandBraces(part.text) : undefined;
    const choices: WordPart[] = alternatives === undefined ? [part] : alternatives.map((text) => ({ type: 'Literal', value: text, text, pos: part.pos, end: part.end }));
    if (combinations.length * choices.length > MAX_BRACE_FIELDS) {
      into.push(renderWord(word, env, nested));
      return;
    }
    combinations = combinations.flatMap((combination) => choices.map((choice) => [...combination, choice]));
  }
  combinations.forEach((combination, index) => {
    const builder = new WordBuilder(index === 0 && MAY_SUBSTITUTE.test(word.text) ? nested : undefined);
    for (let i = 0; i < combination.length; i++) appendPart(builder, combination[i]!, env, i === 0);
    const field = builder.finish();
    // An empty unquoted word is no word at all: `gobby {workflow,} reset` runs `gobby workflow reset`.
    if (field.value !== '' || field.dynamic || QUOTE.test(word.text)) pushField(into, field, env);
  });
}

/**
 * Bash's brace expansion of literal text: `{a,b}` alternatives (nested ones too) and `{1..5}`,
 * `{a..e}`, `{01..10..2}` sequences. Undefined when the text holds quotes, escapes or expansions
 * (unbash gives those parts of their own), is longer than MAX_BRACE_TEXT, or would make more
 * than MAX_BRACE_FIELDS words.
 */
function expandBraces(text: string): string[] | undefined {
  if (text.length > MAX_BRACE_TEXT || /[\\'"$`]/.test(text)) return undefined;
  return expandFrom(text);
}

function expandFrom(text: string): string[] | undefined {
  for (let open = text.indexOf('{'); open !== -1; open = text.indexOf('{', open + 1)) {
    const close = matchingBrace(text, open);
    if (close === -1) return [text];
    const inner = text.slice(open + 1, close);
    const alternatives = commaAlternatives(inner) ?? braceSequence(inner);
    if (alternatives === undefined) continue; // `{a}` and `{}` stay as written
    if (alternatives === null) return undefined;
    const prefix = text.slice(0, open);
    const suffixes = expandFrom(text.slice(close + 1));
    if (suffixes === undefined) return undefined;
    const words: string[] = [];
    for (const alternative of alternatives) {
      const expanded = expandFrom(alternative);
      if (expanded === undefined) return undefined;
      for (const middle of expanded) {
        for (const suffix of suffixes) {
          if (words.push(prefix + middle + suffix) > MAX_BRACE_FIELDS) return undefined;
        }
      }
    }
    return words;
  }
  return [text];
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** The top-level comma-separated alternatives of a brace's inside, or undefined when it has no comma. */
function commaAlternatives(inner: string): string[] | undefined {
  const alternatives: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      alternatives.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (alternatives.length === 0) return undefined;
  alternatives.push(inner.slice(start));
  return alternatives;
}

/** `1..5`, `a..e`, `01..10..2`; undefined when it is not a sequence, null when it is too long. */
function braceSequence(inner: string): string[] | null | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  const letters = numbers ? null : /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/.exec(inner);
  const match = numbers ?? letters;
  if (!match) return undefined;
  const from = numbers ? Number(match[1]) : match[1]!.charCodeAt(0);
  const to = numbers ? Number(match[2]) : match[2]!.charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  if (Math.floor(Math.abs(to - from) / step) + 1 > MAX_BRACE_FIELDS) return null;
  // `{01..10}` pads every number to the wider end's width.
  const padded = numbers !== null && (/^-?0\d/.test(match[1]!) || /^-?0\d/.test(match[2]!));
  const width = padded ? Math.max(match[1]!.length, match[2]!.length) : 0;
  const words: string[] = [];
  for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) {
    words.push(numbers ? (n < 0 ? `-${String(-n).padStart(width - 1, '0')}` : String(n).padStart(width, '0')) : String.fromCharCode(n));
  }
  return words;
}

/**
 * Renders a word; command and process substitutions in it are appended to `nested`. `unsplit`: the
 * word is an assignment's value, whose expansions bash does not split into fields (`y=$x` keeps
 * x's value whole, spaces and all, as `"$x"` would).
 */
export function renderWord(word: Word, env: WordEnv, nested: NestedScript[], unsplit = false): Arg {
  // Most words are plain literals or simply quoted: skip unbash's lazy part parsing for them (hot path).
  const arg = simpleWord(word.text) ?? renderFromParts(word, env, nested, unsplit);
  return word.text.indexOf('~') > 0 ? tildesOfAssignmentArgument(word.text, arg, env) : arg;
}

/** An argument written as an assignment, with nothing quoted or expanded before its tildes (`F=~/x`, `P=~/bin:~/lib`). */
const PLAIN_ASSIGNMENT_ARGUMENT = /^[A-Za-z_][A-Za-z0-9_]*=[\w@%+,./:~-]*$/;

/**
 * bash (outside POSIX mode) expands a tilde after the `=` of an argument that looks like an
 * assignment, and after each `:` of its value, as in an assignment: `sudo F=~/x …`, `env P=~/bin …`.
 */
function tildesOfAssignmentArgument(text: string, arg: Arg, env: WordEnv): Arg {
  if (arg.dynamic || !PLAIN_ASSIGNMENT_ARGUMENT.test(text)) return arg;
  const eq = text.indexOf('=');
  const segments = text.slice(eq + 1).split(':').map((segment) => (segment.startsWith('~') ? expandTilde(segment, env) : literalArg(segment)));
  const value = `${text.slice(0, eq + 1)}${segments.map((segment) => segment.value).join(':')}`;
  return segments.some((segment) => segment.dynamic) ? { value, dynamic: true, unknownAt: eq + 1 } : literalArg(value);
}

/** A word that is not simple, from unbash's parts. */
function renderFromParts(word: Word, env: WordEnv, nested: NestedScript[], unsplit = false): Arg {
  const text = word.text;
  const parts = word.parts;
  if (parts === undefined) {
    // A single literal with escapes only; a tilde is live only when not escaped.
    return text.startsWith('~') ? expandTilde(word.value, env) : literalArg(word.value);
  }
  // One pass renders the word and finds the substitutions in it (walking it twice showed in the profile).
  const builder = new WordBuilder(MAY_SUBSTITUTE.test(text) ? nested : undefined);
  // A word that is only `$$` (or `"$!"`) names a process, not a file: left as written for the signal checks.
  const only = parts.length === 1 ? parts[0]! : undefined;
  builder.standsAlone = only !== undefined && (only.type === 'SimpleExpansion' || only.type === 'ParameterExpansion' || (only.type === 'DoubleQuoted' && only.parts.length === 1));
  for (let index = 0; index < parts.length; index++) appendPart(builder, parts[index]!, env, index === 0, unsplit);
  return builder.finish();
}

class WordBuilder {
  value = '';
  dynamic = false;
  unknownAt = -1;
  /** The word is one expansion and nothing else. */
  standsAlone = false;
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
  /** A rendered piece; `mayDiffer` when the shell may put something else in its place. */
  append(piece: Arg, mayDiffer: boolean): void {
    if (piece.unknownAt !== -1 && this.unknownAt === -1) this.unknownAt = this.value.length + piece.unknownAt;
    this.dynamic ||= piece.dynamic || mayDiffer;
    this.value += piece.value;
  }
  finish(): Arg {
    return { value: this.value, dynamic: this.dynamic, unknownAt: this.unknownAt };
  }
}

/** `quoted`: inside double quotes, where an expansion is not split into words. */
function appendPart(builder: WordBuilder, part: WordPart, env: WordEnv, first: boolean, quoted = false): void {
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
      for (const child of part.parts) appendPart(builder, child, env, false, true);
      return;
    case 'SimpleExpansion':
      appendVariable(builder, part.text.slice(1), part.text, env, quoted);
      return;
    case 'ParameterExpansion': {
      // `${a[x]}`, `${s:x:2}`: an indexed array's subscript and a substring's offset are arithmetic, which evaluates x's value.
      if (builder.nested && (part.index !== undefined || part.operation?.type === 'Slice')) codeInValues(part.text, env, builder.nested);
      const element = part.prefix === undefined && part.index !== undefined ? elementName(part.parameter, part.index, env) : undefined;
      if (part.prefix === undefined && part.index === undefined && part.operation === undefined) {
        appendVariable(builder, part.parameter, part.text, env, quoted);
      } else if (element !== undefined) {
        // `${a[1]}`, `${m[key]}`, `${a[1]%x}`: an element the command set; `"${a[*]}"` all of them, joined.
        const all = element.endsWith(`[${ARRAY_ALL_ELEMENTS}]`);
        const operated = part.operation === undefined ? undefined : all ? undefined : operatedValue(element, part.operation, env);
        const anyElement = element.endsWith(`[${ARRAY_ANY_ELEMENT}]`);
        if (part.operation === undefined && anyElement && typeof env.variables?.get(element) === 'string') builder.append(literalArg(env.variables.get(element) as string), true);
        else if (part.operation === undefined && !all) appendVariable(builder, element, part.text, env, quoted);
        else if (part.operation === undefined && quoted && typeof env.variables?.get(element) === 'string') builder.append(literalArg((env.variables.get(element) as string).replaceAll('\u0000', ' ')), true);
        else if (operated !== undefined && (quoted || staysOneWord(operated, env))) builder.append(literalArg(operated), true);
        else builder.unknown(part.text, false);
      } else if (part.prefix === undefined && part.index === undefined && part.operation?.type === 'Default' && part.operation.operator !== '?' && part.operation.operator !== ':?') {
        appendWithDefault(builder, part.parameter, part.operation.operator, part.operation.operand, env, quoted);
      } else {
        if (builder.nested && MAY_SUBSTITUTE.test(part.text.slice(1))) collectNestedScripts(part, builder.nested);
        // `${x@P}` expands x's value as a prompt: a substitution in it runs.
        if (builder.nested && part.operation?.type === 'Transform' && part.operation.operand.text === 'P') codeInValues(part.parameter, env, builder.nested);
        // `${f%X}`, `${f/X/n}`, `${f,,}`, `${f:0:8}` on a value the command set, and `${!y}` (the
        // variable whose name y holds): what it most likely gives, as one possibility.
        const operated = part.index !== undefined ? undefined : part.prefix === undefined ? operatedValue(part.parameter, part.operation, env) : part.prefix === '!' && part.operation === undefined ? indirectValue(part.parameter, env) : undefined;
        if (operated !== undefined && (quoted || staysOneWord(operated, env))) builder.append(literalArg(operated), true);
        else builder.unknown(part.text, false);
      }
      return;
    }
    case 'Glob':
    case 'ExtendedGlob':
      if (builder.nested && MAY_SUBSTITUTE.test(part.text)) collectNestedScripts(part, builder.nested);
      builder.unknown(part.text, true);
      return;
    case 'CommandExpansion': {
      builder.nested?.push({ script: part.script, text: part.text });
      // `$(echo rm)`, `"$(printf 'rm -rf x')"`: fixed text, one word unless quoted; `$(mktemp)`: a name the glob stands for.
      const output = env.outputOf?.(part.script, env);
      if (output !== undefined && output.dynamic && (quoted || !/\s/.test(output.value))) builder.append(output, false);
      else if (output !== undefined && !output.dynamic && (quoted || staysOneWord(output.value, env))) builder.known(output.value);
      else builder.unknown(part.text, false);
      return;
    }
    case 'ProcessSubstitution':
      builder.nested?.push({ script: part.script, text: part.text });
      builder.unknown(part.text, false);
      return;
    case 'ArithmeticExpansion': {
      if (builder.nested && MAY_SUBSTITUTE.test(part.text.slice(1))) collectNestedScripts(part, builder.nested);
      // bash's older spelling `$[4000+242]` is the same arithmetic.
      const expression = part.text.startsWith('$[') ? part.text.slice(2, -1) : part.text.slice(3, -2);
      if (builder.nested) codeInValues(expression, env, builder.nested);
      // `$((7000+377))`, `$((PORT + 1))` with PORT known: fixed arithmetic is its number.
      const number = constantArithmetic(expression, (name) => {
        const value = variableValue(name, env);
        return typeof value === 'string' ? { value, likeliest: env.variablesUncertain === true && isTracked(name) } : undefined;
      });
      if (number === undefined) builder.unknown(part.text, false);
      else if (number.likeliest) builder.append(literalArg(number.value), true);
      else builder.known(number.value);
      return;
    }
    case 'BraceExpansion':
      if (builder.nested && MAY_SUBSTITUTE.test(part.text)) collectNestedScripts(part, builder.nested);
      builder.unknown(part.text, false);
      return;
    default:
      if (builder.nested) collectNestedScripts(part as WordPart, builder.nested);
      builder.unknown((part as { text?: string }).text ?? '?', false);
  }
}

const NAME_IN_EXPRESSION = /[A-Za-z_]\w*/g;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const SUBSTITUTES = /\$\(|`/;

/**
 * Arithmetic evaluates a variable's value as an expression, and a subscript in it expands
 * (`x='a[$(rm -rf src)]'; echo $((x))` runs rm); `${x@P}` expands it as a prompt. A value the
 * command set, with a substitution in it, is therefore code that runs: it is added to `nested`.
 */
export function codeInValues(text: string, env: WordEnv, nested: NestedScript[]): void {
  if (env.variables === undefined || env.variables.size === 0) return;
  for (const [name] of text.matchAll(NAME_IN_EXPRESSION)) {
    const value = env.variables.get(name);
    if (typeof value === 'string' && SUBSTITUTES.test(value)) nested.push({ script: parse(value), text: value });
  }
}


/**
 * A subscript in a variable name that a builtin evaluates is expanded, even when the word was
 * quoted (`declare 'a[$(cmd)]=1'`, `test -v 'a[$(cmd)]'`, `printf -v 'a[$(cmd)]' x`, `read`,
 * `let`, `[[ -v … ]]`): its substitutions are code that runs, added to `nested`.
 */
export function subscriptCode(text: string, nested: NestedScript[]): void {
  // Each `]` with the last `[` before it, in one forward pass (no regular expression, no search
  // backwards: neither a long word before a `[` nor a run of brackets may make it quadratic).
  if (!text.includes('[')) return;
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACKET) open = i;
    else if (c === CLOSE_BRACKET && open !== -1) {
      const inside = text.slice(open + 1, i);
      if (open > 0 && /\w/.test(text[open - 1]!) && (inside.includes('$(') || inside.includes('`'))) nested.push({ script: parse(inside), text: inside });
      open = -1;
    }
  }
}

/** `a[1]`, `m[key]`, `a[@]` for `${a[1]}`, `${m[key]}`, `${a[*]}`: the variable an element is kept under, when the subscript is fixed. */
function elementName(name: string, index: Word, env: WordEnv): string | undefined {
  if (env.variables === undefined || env.variables.size === 0) return undefined;
  if (index.text === '@' || index.text === '*') return `${name}[${ARRAY_ALL_ELEMENTS}]`;
  const rendered = renderWord(index, env, []);
  if (rendered.dynamic) return undefined;
  // An associative array's subscript is text (`m[key]`); an indexed one's is arithmetic (`a[0+1]`, `a[i]` with i known).
  const keyed = `${name}[${rendered.value}]`;
  if (env.variables.has(keyed)) return keyed;
  if (env.variables.has(`${name}[${ARRAY_ANY_ELEMENT}]`)) return `${name}[${ARRAY_ANY_ELEMENT}]`;
  if (!/^[\w+*/%() -]+$/.test(rendered.value)) return keyed;
  const number = constantArithmetic(rendered.value, (variable) => {
    const value = variableValue(variable, env);
    return typeof value === 'string' ? { value, likeliest: env.variablesUncertain === true } : undefined;
  });
  if (number === undefined) return keyed;
  if (!number.value.startsWith('-')) return `${name}[${number.value}]`;
  // `${a[-1]}` counts from the end.
  const all = env.variables.get(`${name}[${ARRAY_ALL_ELEMENTS}]`);
  return typeof all === 'string' ? `${name}[${all.split('\u0000').length + Number(number.value)}]` : undefined;
}

function swapCase(text: string): string {
  let out = '';
  for (const c of text) out += c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  return out;
}

/** `${!y}`: the value of the variable whose name y holds, when both are known. */
function indirectValue(name: string, env: WordEnv): string | undefined {
  const target = env.variables?.get(name);
  if (typeof target !== 'string' || !/^[A-Za-z_]\w*$/.test(target)) return undefined;
  const value = variableValue(target, env);
  return typeof value === 'string' ? value : undefined;
}

/**
 * `${x%pat}`, `${x#pat}` (and `%%`, `##`), `${x/pat/rep}` (and `//`, `/#`, `/%`), `${x^^}`, `${x,,}`
 * (and `^`, `,`) and `${x:off:len}` applied to a value the command set, when the patterns are fixed
 * text without glob characters; undefined otherwise (left to run time).
 */
function operatedValue(name: string, operation: ParameterOperation | undefined, env: WordEnv): string | undefined {
  // HOME and PWD too: `${PWD%/*}` is the folder above the working directory.
  const value = variableValue(name, env);
  if (typeof value !== 'string' || operation === undefined) return undefined;
  const fixed = (word: Word | undefined): string | undefined => {
    if (word === undefined) return '';
    const rendered = renderWord(word, env, []);
    return rendered.dynamic || /[*?[]/.test(word.text) ? undefined : rendered.value;
  };
  switch (operation.type) {
    case 'Remove': {
      const pattern = fixed(operation.operand);
      // `${PWD%/*}`, `${f##*/}`, `${v#?}`: a pattern of `*` and `?`, tried as bash tries it, on a value of path length.
      if (pattern === undefined) return removeByPattern(value, operation.operand, operation.operator);
      if (operation.operator.startsWith('#')) return value.startsWith(pattern) ? value.slice(pattern.length) : value;
      return value.endsWith(pattern) ? value.slice(0, value.length - pattern.length) : value;
    }
    case 'Replace': {
      const pattern = fixed(operation.pattern);
      const replacement = fixed(operation.replacement);
      if (pattern === undefined || replacement === undefined || pattern === '') return undefined;
      if (operation.operator === '//') return value.split(pattern).join(replacement);
      if (operation.operator === '/#') return value.startsWith(pattern) ? replacement + value.slice(pattern.length) : value;
      if (operation.operator === '/%') return value.endsWith(pattern) ? value.slice(0, value.length - pattern.length) + replacement : value;
      return value.replace(pattern, () => replacement);
    }
    case 'CaseModification': {
      // A pattern that matches every character (`${x,,*}`, `${x^^?}`) is as none.
      if (operation.operand !== undefined && operation.operand.text !== '*' && operation.operand.text !== '?') return undefined;
      if (operation.operator === '^^') return value.toUpperCase();
      if (operation.operator === ',,') return value.toLowerCase();
      if (operation.operator === '^') return value.charAt(0).toUpperCase() + value.slice(1);
      return value.charAt(0).toLowerCase() + value.slice(1);
    }
    case 'Transform': {
      // `${x@L}`, `${x@U}`, `${x@u}`: the value in another case.
      // `${x@E}`: the value's backslash escapes decoded, as `$'…'` does.
      const how = operation.operand.text;
      if (how === 'E') return interpretEscapes(value);
      return how === 'L' ? value.toLowerCase() : how === 'U' ? value.toUpperCase() : how === 'u' ? value.charAt(0).toUpperCase() + value.slice(1) : undefined;
    }
    case 'Unknown':
      // `${x~~}` swaps the case of every letter, `${x~}` of the first.
      if (operation.operator === '~~') return swapCase(value);
      return operation.operator === '~' ? swapCase(value.charAt(0)) + value.slice(1) : undefined;
    case 'Slice': {
      const offset = Number(fixed(operation.offset));
      const length = operation.length === undefined ? undefined : Number(fixed(operation.length));
      if (!Number.isInteger(offset) || offset < 0 || (length !== undefined && (!Number.isInteger(length) || length < 0))) return undefined;
      return length === undefined ? value.slice(offset) : value.slice(offset, offset + length);
    }
    default:
      return undefined;
  }
}

/**
 * `${x%PAT}` (shortest matching end removed), `${x%%PAT}` (longest), `${x#PAT}`, `${x##PAT}` for a
 * pattern of fixed text, `*`, `?` and brackets (bash's `*` matches `/` too); undefined for extended
 * globs, text built at run time, or a value longer than MAX_PATTERN_SUBJECT.
 */
function removeByPattern(value: string, operand: Word | undefined, operator: string): string | undefined {
  if (operand === undefined || value.length > MAX_PATTERN_SUBJECT) return undefined;
  // Text, `*`, `?` and brackets: an expansion, a quote, an escape or an extended glob is left to run time.
  if (!/^[^$`'"\\()@+]*$/.test(operand.text)) return undefined;
  const pattern = operand.text;
  const fromStart = operator.startsWith('#');
  const longest = operator.length === 2;
  const lengths = Array.from({ length: value.length + 1 }, (_, i) => (longest ? value.length - i : i));
  for (const length of lengths) {
    const part = fromStart ? value.slice(0, length) : value.slice(value.length - length);
    if (matchesWithStars(pattern, part)) return fromStart ? value.slice(length) : value.slice(0, value.length - length);
  }
  return value;
}

const MAX_PATTERN_SUBJECT = 4096;

/** A variable's value when the classifier knows it, else null. */
function variableValue(name: string, env: WordEnv): VariableValue | null {
  return name === 'HOME' ? env.home : name === 'PWD' ? env.pwd : name === 'GOBBY_HOME' ? env.gobbyHome : name === 'OLDPWD' ? (env.oldpwd ?? null) : (env.variables?.get(name) ?? null);
}

/** A variable bound to a glob stands for some file the glob matches: dynamic, but placed where the glob is. */
function globArg(value: { readonly glob: string; readonly unknownAt?: number }): Arg {
  return { value: value.glob, dynamic: true, unknownAt: value.unknownAt ?? -1 };
}

/** A variable's known value stands for it where it stays one word: always inside double quotes, unquoted only without spaces or globs. */
function appendVariable(builder: WordBuilder, name: string, text: string, env: WordEnv, quoted: boolean): void {
  const value = variableValue(name, env);
  // `/proc/$BASHPID/…` is the shell's own process, `/proc/self/…` to the command that opens it; `/proc/$$/…` the
  // top shell's (a subshell's `$$` is its parent's), kept as written for the path's reading (classify.ts).
  if (value === null && (name === '$' || name === 'BASHPID') && builder.value === '/proc/') builder.known(name === '$' ? '$$' : 'self');
  else if (value === null && !builder.standsAlone && isRunTimeNumber(name, env)) builder.unknown('*', true);
  else if (value === null) builder.unknown(text, false);
  else if (typeof value !== 'string') builder.append(globArg(value), false);
  else if (!quoted && !staysOneWord(value, env)) builder.unknown(text, false);
  else if (env.variablesUncertain && isTracked(name)) builder.append(literalArg(value), true);
  else builder.known(value);
}

/** Parameters that always expand to digits (`/tmp/out.$$`): a `*` stands for them, in the folder the word names. */
const ALWAYS_NUMBERS = new Set(['$', '?', '#', 'PPID', 'UID', 'EUID']);
/** Digits too, unless the command unsets or sets them, which it can only do by naming them. */
const NUMBER_VARIABLES = new Set(['RANDOM', 'SRANDOM', 'BASHPID', 'EPOCHSECONDS', 'SECONDS', 'LINENO']);
const NAMES_NUMBER_VARIABLE = /(?<!\$\{?)\b(?:RANDOM|SRANDOM|BASHPID|EPOCHSECONDS|SECONDS|LINENO)\b/;

function isRunTimeNumber(name: string, env: WordEnv): boolean {
  return ALWAYS_NUMBERS.has(name) || (NUMBER_VARIABLES.has(name) && env.command !== undefined && !NAMES_NUMBER_VARIABLE.test(env.command));
}

/**
 * Whether a word is fixed text but for parameters that only expand to digits (`/tmp/build-$$.log`):
 * its rendering (`/tmp/build-*.log`) then stands for its value as a glob does.
 */
export function onlyRunTimeNumbers(word: Word, env: WordEnv): boolean {
  let numbers = 0;
  const plain = (parts: readonly WordPart[]): boolean =>
    parts.every((part) => {
      if (part.type === 'Literal' || part.type === 'SingleQuoted') return true;
      if (part.type === 'DoubleQuoted') return plain(part.parts);
      const name = part.type === 'SimpleExpansion' ? part.text.slice(1) : part.type === 'ParameterExpansion' && part.prefix === undefined && part.index === undefined && part.operation === undefined ? part.parameter : undefined;
      if (name === undefined || variableValue(name, env) !== null || !isRunTimeNumber(name, env)) return false;
      numbers++;
      return true;
    });
  return word.parts !== undefined && plain(word.parts) && numbers > 0;
}

/** A variable of the command's own (not HOME, PWD, OLDPWD or GOBBY_HOME, which the classifier follows itself). */
function isTracked(name: string): boolean {
  return name !== 'HOME' && name !== 'PWD' && name !== 'GOBBY_HOME' && name !== 'OLDPWD';
}

/**
 * `${VAR:-word}`, `${VAR:=word}` and `${VAR:+word}` (and their forms without the colon). When
 * VAR's value is known the shell's choice is too. When it is not, the word is what the command
 * most likely expands to (`${GOBBY_DIR:-~/.gobby}` is written to reach `~/.gobby`), so it is
 * rendered, and the result is marked dynamic: the value may be VAR's instead.
 */
function appendWithDefault(builder: WordBuilder, name: string, operator: string, operand: Word, env: WordEnv, quoted: boolean): void {
  const known = env.variablesUncertain && isTracked(name) ? null : variableValue(name, env);
  if (known !== null && typeof known !== 'string') {
    // Bound to a glob: set, to a file name (a glob that matches nothing is left as written, not empty).
    if (operator.endsWith('+')) builder.append(renderWord(operand, env, builder.nested ?? []), false);
    else builder.append(globArg(known), false);
    return;
  }
  // A value that would split into words is as good as unknown here (the default then stands in, dynamic).
  const value = known !== null && (quoted || staysOneWord(known, env)) ? known : null;
  const colon = operator.startsWith(':');
  const set = value !== null && (!colon || value !== '');
  const rendered = () => renderWord(operand, env, builder.nested ?? []);
  if (operator.endsWith('+')) {
    if (value === null) builder.append(rendered(), true);
    else if (set) builder.append(rendered(), false);
    return;
  }
  if (set) builder.known(value);
  else builder.append(rendered(), value === null);
}

function expandTilde(value: string, env: WordEnv): Arg {
  const slash = value.indexOf('/');
  const head = slash === -1 ? value : value.slice(0, slash);
  const tail = slash === -1 ? '' : value.slice(slash);
  const base = head === '~' ? env.home : head === '~+' ? env.pwd : head === '~-' ? (env.oldpwd ?? null) : DIRECTORY_STACK_TILDE.test(head) ? stackEntry(head, env) : ownHome(head, env);
  if (base === null) return { value, dynamic: true, unknownAt: 0 };
  return literalArg(base + tail);
}

/** `~N`, `~+N`, `~-N`: an entry of pushd's stack, counted from the working directory (`+`) or from the oldest (`-`). */
const DIRECTORY_STACK_TILDE = /^~[+-]?\d+$/;

function stackEntry(head: string, env: WordEnv): string | null {
  const stack = env.dirStack ?? [];
  const fromOldest = head[1] === '-';
  const n = Number(head.slice(fromOldest || head[1] === '+' ? 2 : 1));
  // Counted from the working directory: 0 is the working directory, 1 the newest entry pushed.
  const fromCwd = fromOldest ? stack.length - n : n;
  if (fromCwd === 0) return env.pwd;
  return stack[stack.length - fromCwd] ?? null;
}

/** `~dev` when the home is `/home/dev`: the user's own home by name; another user's is unknown. */
function ownHome(head: string, env: WordEnv): string | null {
  if (env.home === null || head.length < 2) return null;
  return env.home.endsWith(`/${head.slice(1)}`) ? env.home : null;
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
