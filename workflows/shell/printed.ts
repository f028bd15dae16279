// What a command prints, when it prints fixed text: `echo`, `printf`, and the pure filters that
// fixed text may go through (`base64 -d`, `xxd -r -p`, `rev`, `cat`). Code is often handed to a
// shell that way (`echo 'rm -rf x' | sh`, `echo cm0g… | base64 -d | sh`, `sh -c "$(echo …)"`):
// the text is then judged as the code it is, instead of as something only known at run time.
import type { AndOr, CommandNode, ParsedScript, Redirection } from 'unbash';
import { interpretEscapes } from './escapes.js';
import { mktempTarget, setsTmpdirElsewhere } from './mktemp.js';
import { isWithin, resolveAgainst } from './paths.js';
import { literalArg, renderWord, renderWordFields, type Arg, type WordEnv } from './words.js';

type SimpleCommand = Extract<CommandNode, { type: 'Command' }>;

/** Decoded text longer than this is left to run time (a pasted file is not a command). */
const MAX_PRINTED_LENGTH = 16 * 1024;

/** Whether a command prints fixed text, or may (`echo`, `printf` with no assignment before them). */
export function printsText(node: SimpleCommand): boolean {
  const program = node.name?.text;
  return (program === 'echo' || program === 'printf') && node.prefix.length === 0;
}

/**
 * What `echo` or `printf` prints, dynamic when a word is only known at run time, undefined when
 * the command is neither or sends its output elsewhere (a redirection).
 */
export function printedText(node: SimpleCommand, env: WordEnv): Arg | undefined {
  if (!printsText(node) || shadowed(node.name!.text, env)) return undefined;
  // Redirected elsewhere: nothing reaches the pipe.
  const words = wordsOf(node, env);
  if (words === undefined) return undefined;
  // `shopt -s xpg_echo` makes echo read escapes as `echo -e` does; printf's `--` ends its options.
  if (node.name!.text === 'echo' && env.command?.includes('xpg_echo') === true) return undefined;
  if (node.name!.text === 'printf' && words[0]?.value === '--') words.shift();
  const text = node.name!.text === 'echo' ? echoed(words) : printfOutput(words);
  // A NUL ends a C string: what a program is given stops there, which gobby does not follow.
  if (text?.includes('\u0000') === true) return undefined;
  if (text === undefined) return words[0] && { value: words[0].value, dynamic: true, unknownAt: 0 };
  // Globs only (`echo .cl*`): what it prints is one of the names they match, placed (unknownAt -1).
  if (!words.some((word) => word.dynamic)) return literalArg(text);
  return { value: text, dynamic: true, unknownAt: words.some((word) => word.dynamic && word.unknownAt !== -1) ? 0 : -1 };
}

/** bash's `echo`: options first (`-n`, `-e` interprets escapes, `-E`), the words joined by spaces. */
function echoed(words: readonly Arg[]): string | undefined {
  let first = 0;
  let escapes = false;
  let newline = true;
  for (; first < words.length && /^-[neE]+$/.test(words[first]!.value); first++) {
    const flags = words[first]!.value;
    if (flags.includes('n')) newline = false;
    if (flags.includes('e')) escapes = true;
    if (flags.includes('E')) escapes = false;
  }
  const joined = words.slice(first).map((word) => word.value).join(' ');
  const body = escapes ? interpretEscapes(joined) : joined;
  return body === undefined ? undefined : newline ? `${body}\n` : body;
}

/**
 * `printf FORMAT ARGS…`: the format's escapes, `%s` and `%b` (an argument, with its escapes
 * interpreted for `%b`) and `%%`, the format applied again while arguments remain, as printf
 * does. Any other directive (`%d`, `%x`, widths) is left to run time: undefined.
 */
export function printfOutput(words: readonly Arg[]): string | undefined {
  const [format, ...args] = words;
  if (!format) return undefined;
  const pieces = format.value.split(/(%.)/);
  if (pieces.some((piece, i) => i % 2 === 1 && piece !== '%s' && piece !== '%b' && piece !== '%%')) return undefined;
  const consumes = pieces.some((piece) => piece === '%s' || piece === '%b');
  let out = '';
  let next = 0;
  do {
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i % 2 === 0) {
        const literal = interpretEscapes(piece);
        if (literal === undefined) return undefined;
        out += literal;
      } else if (piece === '%%') out += '%';
      else {
        const arg = args[next++]?.value ?? '';
        const text = piece === '%b' ? interpretEscapes(arg) : arg;
        if (text === undefined) return undefined;
        out += text;
      }
    }
  } while (consumes && next < args.length && out.length <= MAX_PRINTED_LENGTH);
  return out.length > MAX_PRINTED_LENGTH ? undefined : out;
}

/**
 * What a pure filter prints when fixed text comes in: `cat` (no file), `base64 -d`, `xxd -r -p`,
 * `rev`. Undefined for any other command, or when the input is not fixed text.
 */
export function filteredText(node: SimpleCommand, piped: Arg | undefined, env: WordEnv): Arg | undefined {
  if (node.prefix.length > 0) return undefined;
  const program = node.name?.text;
  if (program === undefined || shadowed(program, env)) return undefined;
  const args: Arg[] = [];
  const redirects: Redirection[] = [];
  for (const item of node.suffix) {
    if (item.type === 'Word') renderWordFields(item, env, [], args);
    else if (item.type === 'Assignment' || !readsInput(item)) return undefined; // output sent elsewhere
    else redirects.push(item);
  }
  // `cat <<'EOF' | sh`: a here-doc or here-string comes in instead of the pipe.
  const input = literalInput(redirects, env, piped);
  if (input === undefined || input.dynamic || args.some((arg) => arg.dynamic)) return undefined;
  const words = args.map((arg) => arg.value);
  let output: string | undefined;
  if (program === 'cat' && words.every((word) => word === '-')) output = input.value;
  else if (program === 'base64' && words.some((word) => word === '-d' || word === '--decode') && words.every((word) => BASE64_DECODE_FLAGS.has(word))) output = decodeBase64(input.value);
  else if (program === 'xxd' && words.join(' ') === '-r -p') output = decodeHex(input.value);
  else if (program === 'rev' && words.length === 0) output = input.value.split('\n').map((line) => [...line].reverse().join('')).join('\n');
  else if (program === 'tr') output = translated(words, input.value);
  else if (program === 'sed') output = substituted(words, input.value);
  return output === undefined || output.length > MAX_PRINTED_LENGTH ? undefined : literalArg(output);
}

/** `tr SET1 SET2` and `tr -d SET` on fixed text (ranges, `[:upper:]`-style classes, escapes); undefined for `-c`, `-s` and the rest. */
function translated(words: readonly string[], text: string): string | undefined {
  const deletes = words[0] === '-d';
  const sets = deletes ? words.slice(1) : words;
  if (sets.length !== (deletes ? 1 : 2) || sets.some((set) => set.startsWith('-'))) return undefined;
  const from = trSet(sets[0]!);
  const to = deletes ? [] : trSet(sets[1]!);
  if (from === undefined || to === undefined || (!deletes && to.length === 0)) return undefined;
  let out = '';
  for (const c of text) {
    const at = from.lastIndexOf(c);
    if (at === -1) out += c;
    else if (!deletes) out += to[Math.min(at, to.length - 1)];
  }
  return out;
}

const TR_CLASSES: Readonly<Record<string, string>> = {
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  digit: '0123456789',
};

/** The characters of a tr set, in order; undefined for what is not read here (equivalence classes, repeats). */
function trSet(set: string): string[] | undefined {
  const out: string[] = [];
  const text = interpretEscapes(set);
  if (text === undefined || /\[[=*]/.test(text)) return undefined;
  for (let i = 0; i < text.length; i++) {
    const klass = /^\[:(\w+):\]/.exec(text.slice(i));
    if (klass !== null) {
      const members = TR_CLASSES[klass[1]!];
      if (members === undefined) return undefined;
      out.push(...members);
      i += klass[0].length - 1;
    } else if (text[i + 1] === '-' && i + 2 < text.length) {
      for (let code = text.charCodeAt(i); code <= text.charCodeAt(i + 2); code++) out.push(String.fromCharCode(code));
      i += 2;
    } else out.push(text[i]!);
  }
  return out;
}

/** `sed s/OLD/NEW/[g]` (also `-e`) with OLD plain text: the substitution on each line; undefined for any other script. */
function substituted(words: readonly string[], text: string): string | undefined {
  const script = words.length === 1 ? words[0]! : words.length === 2 && words[0] === '-e' ? words[1]! : undefined;
  const match = script === undefined ? null : /^s(.)(.*)$/s.exec(script);
  if (match === null) return undefined;
  const [pattern, replacement, flags, extra] = match[2]!.split(match[1]!);
  if (pattern === undefined || replacement === undefined || extra !== undefined || pattern === '' || /[\\.*[\]^$]/.test(pattern) || /[\\&]/.test(replacement) || !/^g?$/.test(flags ?? '')) return undefined;
  return text
    .split('\n')
    .map((line) => (flags === 'g' ? line.split(pattern).join(replacement) : line.replace(pattern, () => replacement)))
    .join('\n');
}

/** The programs filteredText reads. */
const FILTERS = new Set(['cat', 'base64', 'xxd', 'rev', 'tr', 'sed']);

const BASE64_DECODE_FLAGS = new Set(['-d', '--decode', '-i', '--ignore-garbage']);

/** Whether a redirection feeds the command's input (`<<`, `<<<`, `<`) rather than taking its output. */
function readsInput(redirect: Redirection): boolean {
  const fd = redirect.descriptor?.type === 'FileDescriptor' ? redirect.descriptor.value : 0;
  return fd === 0 && (redirect.type === 'HereDoc' || redirect.type === 'HereString' || (redirect.type === 'Redirect' && redirect.operator === '<'));
}

/** Text fed to a command's input by a here-doc or here-string (or `piped` in), when it is fixed text. */
export function literalInput(redirects: readonly Redirection[], env: WordEnv, piped: Arg | undefined): Arg | undefined {
  let stdin = piped;
  for (const redirect of redirects) {
    // Input operators default to descriptor 0, output ones to 1.
    const fd = redirect.descriptor?.type === 'FileDescriptor' ? redirect.descriptor.value : redirect.operator.startsWith('<') ? 0 : 1;
    if (fd !== 0) continue;
    if (redirect.type === 'HereDoc') {
      stdin = redirect.delimiter?.quoted || !/[$`\\]/.test(redirect.body.text) ? literalArg(redirect.body.text) : { value: redirect.body.text, dynamic: true, unknownAt: 0 };
    } else if (redirect.type === 'HereString' && redirect.target) {
      stdin = renderWord(redirect.target, env, []);
    } else if (redirect.type === 'Redirect') stdin = undefined; // `< f`, `<> f`, `0<&3`, `<&-`: another input, unknown here
  }
  return stdin;
}

/** Base64 that decodes to text (UTF-8 without NUL or invalid sequences); undefined otherwise. */
function decodeBase64(text: string): string | undefined {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return undefined;
  return asText(base64Bytes(clean));
}

function decodeHex(text: string): string | undefined {
  const clean = text.replace(/\s+/g, '');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(clean)) return undefined;
  const bytes = new Uint8Array(clean.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return asText(bytes);
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 decoding by hand: the engine uses no Node built-ins (`Buffer`), and `atob` is not typed for it. */
function base64Bytes(clean: string): Uint8Array {
  const body = clean.replace(/=+$/, '');
  const bytes = new Uint8Array(Math.floor((body.length * 3) / 4));
  let bits = 0;
  let buffer = 0;
  let at = 0;
  for (const c of body) {
    buffer = (buffer << 6) | BASE64_ALPHABET.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes.subarray(0, at);
}

function asText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The output of a command substitution that only prints fixed text (`$(echo rm)`, `$(printf
 * '%s' x)`), without its trailing newlines, as the shell puts it in the word; for `$(mktemp …)`,
 * the name it makes, as a glob (`/tmp/tmp.*`); undefined otherwise.
 */
export function substitutionOutput(script: ParsedScript | undefined, env: WordEnv): Arg | undefined {
  // `$()`, a pair of backticks: nothing runs and nothing is printed (`to$()ken` is `token`).
  if (script !== undefined && script.commands.length === 0) return literalArg('');
  // `$(echo -n .; echo claude)`: what each command prints, one after the other.
  if (script !== undefined && script.commands.length > 1) return printedInTurn(script, env);
  const statement = script?.commands.length === 1 ? script.commands[0] : undefined;
  if (statement?.type !== 'Statement' || statement.background) return undefined;
  const node = statement.command;
  if (node.type === 'AndOr') return folderAfterCd(node, env);
  // `$(echo cm0g… | base64 -d)`: what the pipeline's last command prints of fixed text.
  if (node.type === 'Pipeline') {
    let text: Arg | undefined;
    for (const [index, command] of node.commands.entries()) {
      if (command.type !== 'Command') return undefined;
      text = index === 0 ? printedText(command, env) : filteredText(command, text, env);
      if (text === undefined || text.dynamic) return undefined;
    }
    return text && literalArg(text.value.replace(/\n+$/, ''));
  }
  if (node.type !== 'Command') return undefined;
  if (node.name !== undefined && shadowed(node.name.text, env)) return undefined;
  if (node.name?.text === 'basename' || node.name?.text === 'dirname') return pathPart(node, env);
  if (node.name?.text === 'git') return repositoryTop(node, env) ?? shortCommitName(node, env);
  if (node.name?.text === 'date') return dateStamp(node, env);
  // `$(cat <<< x)`, `$(tr -d X <<< …)`: a filter fed fixed text.
  if (node.name !== undefined && FILTERS.has(node.name.text)) {
    const filtered = filteredText(node, undefined, env);
    if (filtered !== undefined) return literalArg(filtered.value.replace(/\n+$/, ''));
  }
  // `$(:)`, `$(true)`: builtins that print nothing, whatever they are given.
  if ((node.name?.text === ':' || node.name?.text === 'true' || node.name?.text === 'false') && node.redirects.length === 0) return literalArg('');
  if (node.name?.text === 'mktemp') return madeTemporaryName(node, env);
  if (node.name?.text === 'expr') return exprResult(node, env);
  if (node.name?.text === 'npm' || node.name?.text === 'pnpm') return globalPackageFolder(node, env);
  const printed = node.name?.text === 'ls' ? listedName(node, env) : printedText(node, env);
  if (printed === undefined || (printed.dynamic && printed.unknownAt !== -1)) return undefined;
  // Fixed text, or names a glob matches (`$(echo .cl*)`, `$(ls -d .cl*)`): that glob stands for them.
  return { value: printed.value.replace(/\n+$/, ''), dynamic: printed.dynamic, unknownAt: -1 };
}

/** A name's part that is only known at run time but holds no `/` nor space: a glob's `*` stands for it, in its folder. */
const ONE_NAME: Arg = { value: '*', dynamic: true, unknownAt: -1 };

/** `git rev-parse --short HEAD`: a commit's short name, hex digits (`/tmp/test-$(git rev-parse --short HEAD).log`). */
function shortCommitName(node: SimpleCommand, env: WordEnv): Arg | undefined {
  if (node.redirects.length > 0) return undefined;
  const words = wordsOf(node, env);
  if (words?.length !== 3 || words.some((word) => word.dynamic) || words[0]!.value !== 'rev-parse' || !/^--short(?:=\d+)?$/.test(words[1]!.value) || !/^(?:HEAD|@)$/.test(words[2]!.value)) return undefined;
  return ONE_NAME;
}

/**
 * `date +%Y%m%d-%H%M%S`, `date -u +%s`, `date -I`: a stamp of digits, letters, `-`, `:`, `.` and `_`
 * (`/tmp/test-$(date +%s).log`). A format that may hold `/` or a space (`%D`, `%c`, text) is left to run time.
 */
function dateStamp(node: SimpleCommand, env: WordEnv): Arg | undefined {
  if (node.redirects.length > 0) return undefined;
  const words = wordsOf(node, env);
  if (words === undefined || words.length === 0 || words.some((word) => word.dynamic)) return undefined;
  const stamp = words.every((word) => /^(?:-u|--utc|-I(?:date|hours|minutes|seconds|ns)?|--iso-8601(?:=\w+)?)$/.test(word.value) || /^\+(?:%[-_0^#]?[YmdHMSsFTjuVGeyCgIklNzbhaBAp]|[\w.:-])+$/.test(word.value));
  return stamp ? ONE_NAME : undefined;
}

/**
 * `git rev-parse --show-toplevel` from inside the project: most likely the project's root (a
 * likeliest value, placed there: `cd "$(git rev-parse --show-toplevel)" && npm test`).
 */
function repositoryTop(node: SimpleCommand, env: WordEnv): Arg | undefined {
  const words = wordsOf(node, env);
  if (words?.length !== 2 || words[0]!.value !== 'rev-parse' || words[1]!.value !== '--show-toplevel') return undefined;
  if (env.pwd === null || env.projectRoot === undefined || !isWithin(env.pwd, env.projectRoot)) return undefined;
  return { value: env.projectRoot, dynamic: true, unknownAt: -1 };
}

/**
 * `$(cd "$(dirname "$0")/.." && pwd)`, a script's way to name its own folder: the folder `cd`
 * goes to, when it is fixed text. Only the likeliest value (placed there, as `git rev-parse
 * --show-toplevel`'s): a `cd` that fails prints nothing, and `pwd -P` may print the folder's
 * physical path.
 */
function folderAfterCd(node: AndOr, env: WordEnv): Arg | undefined {
  const [cd, pwd] = node.commands;
  if (node.commands.length !== 2 || node.operators[0] !== '&&' || cd?.type !== 'Command' || pwd?.type !== 'Command') return undefined;
  if (cd.name?.text !== 'cd' || pwd.name?.text !== 'pwd' || cd.prefix.length > 0 || pwd.prefix.length > 0 || pwd.redirects.length > 0 || shadowed('cd', env) || shadowed('pwd', env)) return undefined;
  const folder = wordsOf(cd, env);
  const options = wordsOf(pwd, env);
  if (folder?.length !== 1 || folder[0]!.dynamic || folder[0]!.value.startsWith('-') || options === undefined || !options.every((word) => word.value === '-P' || word.value === '-L')) return undefined;
  const target = folder[0]!.value;
  if (!target.startsWith('/') && env.pwd === null) return undefined;
  return { value: resolveAgainst(env.pwd ?? '/', target), dynamic: true, unknownAt: -1 };
}

/** The output of several statements that each print fixed text (`echo`, `printf`), in turn. */
function printedInTurn(script: ParsedScript, env: WordEnv): Arg | undefined {
  let out = '';
  for (const statement of script.commands) {
    if (statement.type !== 'Statement' || statement.background || statement.command.type !== 'Command') return undefined;
    const printed = printedText(statement.command, env);
    if (printed === undefined || printed.dynamic) return undefined;
    out += printed.value;
  }
  return literalArg(out.replace(/\n+$/, ''));
}

/** `basename PATH [SUFFIX]` (also `-s SUFFIX`) and `dirname PATH` of fixed text, as coreutils print them. */
function pathPart(node: SimpleCommand, env: WordEnv): Arg | undefined {
  const words = wordsOf(node, env);
  if (words === undefined || words.some((word) => word.dynamic)) return undefined;
  const values = words.map((word) => word.value);
  const suffixAt = values.indexOf('-s');
  const suffix = suffixAt === -1 ? undefined : values[suffixAt + 1];
  const operands = suffixAt === -1 ? values : values.filter((_, index) => index !== suffixAt && index !== suffixAt + 1);
  if (operands.length === 0 || operands.some((operand) => operand.startsWith('-'))) return undefined;
  const trimmed = operands[0]!.replace(/\/+$/, '') || '/';
  if (node.name!.text === 'dirname') {
    if (operands.length !== 1) return undefined;
    const slash = trimmed.lastIndexOf('/');
    return literalArg(slash === -1 ? '.' : slash === 0 ? '/' : trimmed.slice(0, slash).replace(/\/+$/, '') || '/');
  }
  if (operands.length > (suffix === undefined ? 2 : 1)) return undefined;
  const name = trimmed === '/' ? '/' : trimmed.slice(trimmed.lastIndexOf('/') + 1);
  const drop = suffix ?? operands[1];
  return literalArg(drop !== undefined && drop !== name && name.endsWith(drop) ? name.slice(0, -drop.length) : name);
}

/** A simple command's words, rendered; undefined when it has a redirection (its output goes elsewhere). */
function wordsOf(node: SimpleCommand, env: WordEnv): Arg[] | undefined {
  const words: Arg[] = [];
  for (const item of node.suffix) {
    if (item.type !== 'Word') return undefined;
    renderWordFields(item, env, [], words);
  }
  return words;
}

/** A function or an alias of the command's own by that name (`echo() { … }`): it prints what it likes. */
function shadowed(name: string, env: WordEnv): boolean {
  return env.functions?.has(name) === true || env.redefined === 'all' || env.redefined?.has(name) === true;
}

/** `ls -d NAME` prints the name (a glob: each name it matches); undefined for anything else ls may print. */
function listedName(node: SimpleCommand, env: WordEnv): Arg | undefined {
  if (node.prefix.length > 0) return undefined;
  const args = wordsOf(node, env);
  if (args === undefined) return undefined;
  const options = args.filter((arg) => !arg.dynamic && arg.value.startsWith('-'));
  const names = args.filter((arg) => arg.dynamic || !arg.value.startsWith('-'));
  if (names.length !== 1 || !options.some((option) => /^-[a-zA-Z1]*d/.test(option.value)) || options.some((option) => !/^-[1adA]+$/.test(option.value))) return undefined;
  return names[0];
}

/**
 * The name `mktemp` prints, as a glob that stands for it (dynamic, placed: unknownAt -1). Left to
 * run time when the command sets TMPDIR, which moves it, or redirects mktemp's output; but TMPDIR
 * set only to a folder mktemp made (`TMPDIR=$(mktemp -d) npm test`, `export TMPDIR="$(mktemp -d)"`)
 * is itself in /tmp, and so is every name made in it.
 */
function madeTemporaryName(node: SimpleCommand, env: WordEnv): Arg | undefined {
  if (node.prefix.length > 0 || env.command === undefined || setsTmpdirElsewhere(env.command)) return undefined;
  const args = wordsOf(node, env);
  if (args === undefined) return undefined;
  const target = mktempTarget(args, undefined);
  return target.dynamic ? undefined : { value: target.glob, dynamic: true, unknownAt: -1 };
}

/**
 * `expr 4000 + 242`: the integer arithmetic of fixed numbers, as expr prints it (left to right
 * within `*` `/` `%`, then `+` `-`); undefined for anything else expr does (strings, comparisons).
 */
function exprResult(node: SimpleCommand, env: WordEnv): Arg | undefined {
  if (node.prefix.length > 0) return undefined;
  const words = wordsOf(node, env);
  if (words === undefined || words.length % 2 === 0 || words.some((word) => word.dynamic)) return undefined;
  const values = words.map((word) => word.value);
  if (values.some((value, i) => (i % 2 === 0 ? !/^[-+]?\d{1,15}$/.test(value) : !/^[-+*/%]$/.test(value)))) return undefined;
  // Products first, then sums, as expr's grammar has it.
  const terms: bigint[] = [BigInt(values[0]!)];
  const signs: string[] = [];
  for (let i = 1; i < values.length; i += 2) {
    const operator = values[i]!;
    const operand = BigInt(values[i + 1]!);
    if (operator === '+' || operator === '-') {
      signs.push(operator);
      terms.push(operand);
      continue;
    }
    if (operator !== '*' && operand === 0n) return undefined; // expr fails: division by zero
    const last = terms.pop()!;
    terms.push(operator === '*' ? last * operand : operator === '/' ? last / operand : last % operand);
  }
  let result = terms[0]!;
  signs.forEach((sign, i) => (result = sign === '+' ? result + terms[i + 1]! : result - terms[i + 1]!));
  return literalArg(String(result));
}

/**
 * `npm root -g`, `pnpm root -g`: the folder global packages are installed in, which ends in
 * `node_modules` wherever it is; only that end is known (unknownAt 0). gobby's own package lies
 * there when it was installed globally (`rm -rf "$(npm root -g)/gobby"`).
 */
function globalPackageFolder(node: SimpleCommand, env: WordEnv): Arg | undefined {
  const words = wordsOf(node, env);
  if (words === undefined || words[0]?.value !== 'root' || !words.some((word) => /^(?:-g|--global|--location=global)$/.test(word.value))) return undefined;
  return { value: '…/node_modules', dynamic: true, unknownAt: 0 };
}
