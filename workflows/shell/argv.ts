// Option parsing as GNU tools do it, driven by a small spec per program: which options take a
// value, so that `head -n 20 f` does not count `20` as a file.
import type { Arg } from './words.js';

export interface OptionSpec {
  /** Short option letters that take a value (`-n 20`, `-n20`). */
  readonly short?: string;
  /** Long option names that take a value, without the dashes (`--lines 20`, `--lines=20`). */
  readonly long?: readonly string[];
  /** POSIX order: options end at the first operand (env, xargs, timeout, and every prefix). */
  readonly stopAtOperand?: boolean;
  /** Long options whose value is optional and only given after `=` (`env --block-signal[=SIG]`): the next word is not theirs. */
  readonly optional?: readonly string[];
  /** Short option letters whose value is optional and only attached (gawk's `-d`, `-dFILE`): the rest of the word is the value, and the next word is not theirs. */
  readonly optionalShort?: string;
  /** Long options that take no value but start like one that does (curl's `--head` and `--header`): spelled whole, they are themselves. */
  readonly flags?: readonly string[];
}

interface ParsedOption {
  /** As spelled without its value: `-n`, `--lines`. */
  readonly name: string;
  readonly value: Arg | undefined;
}

export interface ParsedArgv {
  readonly options: readonly ParsedOption[];
  readonly operands: readonly Arg[];
  /** Index in the input of the first operand when `stopAtOperand` is set (the rest is the command). */
  readonly rest: number;
}

export function parseArgv(args: readonly Arg[], spec: OptionSpec): ParsedArgv {
  const options: ParsedOption[] = [];
  const operands: Arg[] = [];
  const short = spec.short ?? '';
  const long = spec.long ?? [];
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    const text = arg.value;
    // A value only known at run time may be an option or an operand; as an operand it is
    // reported (as a dynamic path), which is the cautious reading.
    if (arg.dynamic && optionWithValueAtRunTime(arg, short, options)) continue;
    if (arg.dynamic || text === '-' || !text.startsWith('-')) {
      if (spec.stopAtOperand) break;
      operands.push(arg);
      continue;
    }
    if (text === '--') {
      i++;
      if (spec.stopAtOperand) break;
      for (; i < args.length; i++) operands.push(args[i]!);
      break;
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      // The option's name is the text itself unless a value is attached: no new string (hot path).
      if (eq !== -1) options.push({ name: text.slice(0, eq), value: sliceArg(arg, eq + 1) });
      else if (long.length > 0 && !spec.optional?.some((name) => name.startsWith(text.slice(2))) && takesValue(text.slice(2), long) && spec.flags?.includes(text.slice(2)) !== true) options.push({ name: text, value: args[++i] });
      else options.push({ name: text, value: undefined });
      continue;
    }
    for (let c = 1; c < text.length; c++) {
      const letter = text[c]!;
      if (spec.optionalShort?.includes(letter)) {
        options.push({ name: shortName(letter), value: c + 1 < text.length ? sliceArg(arg, c + 1) : undefined });
        break;
      }
      if (short.includes(letter)) {
        options.push({ name: shortName(letter), value: c + 1 < text.length ? sliceArg(arg, c + 1) : args[++i] });
        break;
      }
      options.push({ name: shortName(letter), value: undefined });
    }
  }
  return { options, operands, rest: i };
}

/**
 * `-j$(nproc)`, `--jobs=$N`: a word whose fixed start is an option taking a value, and whose
 * run-time text can only be that value, is that option whatever the text turns out to be. Any
 * other word with run-time text may be an option or an operand (`-rf$X` may hold more letters).
 */
function optionWithValueAtRunTime(arg: Arg, short: string, into: ParsedOption[]): boolean {
  const fixed = arg.unknownAt < 2 ? '' : arg.value.slice(0, arg.unknownAt);
  if (!fixed.startsWith('-') || /[*?[]/.test(fixed)) return false;
  if (fixed.startsWith('--')) {
    const eq = fixed.indexOf('=');
    if (eq === -1) return false;
    into.push({ name: fixed.slice(0, eq), value: sliceArg(arg, eq + 1) });
    return true;
  }
  for (let c = 1; c < fixed.length; c++) {
    if (!short.includes(fixed[c]!)) continue;
    for (let flag = 1; flag < c; flag++) into.push({ name: shortName(fixed[flag]!), value: undefined });
    into.push({ name: shortName(fixed[c]!), value: sliceArg(arg, c + 1) });
    return true;
  }
  return false;
}

/**
 * Long options GNU programs take with an optional value, given only after `=` (`--backup`,
 * `--color`, `--interactive`, `--output-error`, `--preserve`): the next word is not theirs.
 */
const OPTIONAL_VALUE = new Set(['backup', 'color', 'colour', 'interactive', 'output-error', 'preserve', 'update', 'unified', 'hyperlink', 'dereference-command-line-symlink-to-dir']);

/**
 * Whether `--name` takes the next word: listed in the spec, or a shortening of one that is
 * (getopt_long takes `--outp` for `--output`). A shortening that ends where the option's next word
 * starts (`--cache` of `--cache-location`) is most likely a flag of its own, which the spec does
 * not list: it takes nothing.
 */
function takesValue(name: string, long: readonly string[]): boolean {
  if (OPTIONAL_VALUE.has(name)) return false;
  if (long.includes(name)) return true;
  return name.length >= 2 && long.some((option) => option.startsWith(name) && option[name.length] !== '-' && !OPTIONAL_VALUE.has(option));
}

/**
 * Whether `spelled` (as parsed: `--outp`) is the option `name` (`--output`) as GNU programs read
 * it, shortened to a prefix. A prefix several options share is taken for each of them: which one
 * a program means cannot matter to a check that looks for any.
 */
function isOption(spelled: string, name: string): boolean {
  return spelled === name || (spelled.length >= 4 && name.startsWith('--') && spelled.startsWith('--') && name.startsWith(spelled) && name[spelled.length] !== '-');
}

export function hasOption(parsed: ParsedArgv, ...names: readonly string[]): boolean {
  return parsed.options.some((option) => names.some((name) => isOption(option.name, name)));
}

/**
 * The value of an option's last occurrence: the one a program that takes a single value uses
 * (getopt, argparse, Go's flag, commander all keep the last: `tar -C /tmp -C ~/app`, `env -C a -C b`).
 */
export function lastOptionValue(parsed: ParsedArgv, ...names: readonly string[]): Arg | undefined {
  const values = optionValues(parsed, ...names);
  return values[values.length - 1];
}

export function optionValues(parsed: ParsedArgv, ...names: readonly string[]): Arg[] {
  const values: Arg[] = [];
  for (const option of parsed.options) if (option.value !== undefined && names.some((name) => isOption(option.name, name))) values.push(option.value);
  return values;
}

/** `-x` for every ASCII letter and digit, made once: short options are most of what is parsed. */
const SHORT_NAMES = new Map<string, string>();
for (const letter of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') SHORT_NAMES.set(letter, `-${letter}`);

function shortName(letter: string): string {
  return SHORT_NAMES.get(letter) ?? `-${letter}`;
}

/** The part of an argument after `from` (`--file=x` → `x`), keeping what is known about it. */
export function sliceArg(arg: Arg, from: number): Arg {
  const unknownAt = arg.unknownAt === -1 ? -1 : Math.max(0, arg.unknownAt - from);
  return { value: arg.value.slice(from), dynamic: arg.dynamic, unknownAt };
}

/** Whether `--no-<name>` (or a shortening of it, `--no-dry`) undoes `name` somewhere in the words (`git clean -n --no-dry-run`). */
export function negated(words: readonly string[], name: string): boolean {
  return words.some((word) => word.length > 5 && word.startsWith('--no-') && `--no-${name}`.startsWith(word));
}
