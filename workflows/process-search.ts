// Whether a search or a filter of a Bash command picks gobby's daemon out of a listing: the
// patterns are read in the dialect the program speaks (grep's and sed's basic regular
// expressions, where `\|` and `\+` are operators; `-F` fixed strings; `--` and `--regexp=`
// before a pattern that starts with a dash), and tried against the lines the listers of the
// command print about the daemon (`ps`'s pid column, `ss -p`'s `users:(("node",pid=…))`,
// `netstat -p`'s `PID/node`, `lsof`'s rows), not only against its command line.
import type { ProtectedGround } from './guards.js';
import type { ShellInvocation } from './shell/index.js';
import { parseArgv, optionValues, hasOption, type OptionSpec } from './shell/argv.js';
import { AG_OPTIONS, GREP_OPTIONS, RG_OPTIONS } from './shell/programs-files.js';
import { literalArg } from './shell/words.js';
import { mayBacktrackBadly } from './shell/regex-safety.js';
import { POSIX_CLASSES } from './shell/glob-text.js';

/** How a program reads its patterns: POSIX basic (grep, sed), extended (grep -E, awk, pgrep, perl), or fixed strings (grep -F). */
export type PatternDialect = 'basic' | 'extended' | 'fixed';

/** Programs that search by patterns given as words, with their options as the classifier reads them (which take the next word, which is `-e`). */
export const SEARCHERS: ReadonlyMap<string, OptionSpec> = new Map([
  ['grep', GREP_OPTIONS], ['egrep', GREP_OPTIONS], ['fgrep', GREP_OPTIONS], ['rg', RG_OPTIONS], ['ag', AG_OPTIONS], ['ack', AG_OPTIONS], ['ack-grep', AG_OPTIONS],
]);

/**
 * The patterns a search program is given (`-e P`, `--regexp=P`, `-- -P`, or its first operand),
 * in its dialect; `undefined` patterns stand for ones read from a file (`-f F`), which may be anything.
 */
export function searchPatterns(invocation: ShellInvocation): { readonly patterns: readonly (string | undefined)[]; readonly dialect: PatternDialect; readonly inverted: boolean; readonly filtersItsInput: boolean } | undefined {
  const spec = SEARCHERS.get(invocation.program);
  if (spec === undefined) return undefined;
  const parsed = parseArgv(invocation.args.map(literalArg), spec);
  const given = optionValues(parsed, '-e', '--regexp').map((pattern) => pattern.value);
  const patterns: (string | undefined)[] = given.length > 0 ? given : parsed.operands.slice(0, 1).map((pattern) => pattern.value);
  if (optionValues(parsed, '-f', '--file').length > 0) patterns.push(undefined);
  const grep = invocation.program.endsWith('grep') && invocation.program !== 'ack-grep';
  const fixed = invocation.program === 'fgrep' || hasOption(parsed, '-F', '--fixed-strings', '-Q', '--literal');
  const extended = !grep || invocation.program === 'egrep' || hasOption(parsed, '-E', '--extended-regexp', '-P', '--perl-regexp');
  // Only a search that prints the lines of its input it keeps can leave a process out of what follows: not one of files
  // (`V=$(grep -c vite package.json)`), nor one that prints counts, names or nothing.
  const files = parsed.operands.length - (given.length > 0 ? 0 : 1);
  const printsLines = !hasOption(parsed, '-c', '--count', '-q', '--quiet', '--silent', '-l', '--files-with-matches', '-L', '--files-without-match');
  return { patterns, dialect: fixed ? 'fixed' : extended ? 'extended' : 'basic', inverted: hasOption(parsed, '-v', '--invert-match'), filtersItsInput: files <= 0 && printsLines };
}

/**
 * A basic regular expression (grep, sed without `-E`) as JavaScript reads the same: GNU's `\(`,
 * `\)`, `\{`, `\}`, `\|`, `\+`, `\?` are operators and the bare characters are literal; `\<`
 * and `\>` are word edges. Bracket expressions are left as they are.
 */
function fromBasic(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '[') {
      const end = bracketEnd(pattern, i);
      out += pattern.slice(i, end + 1);
      i = end;
    } else if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[++i]!;
      out += '(){}|+?'.includes(next) ? next : next === '<' || next === '>' ? '\\b' : `\\${next}`;
    } else out += '(){}|+?'.includes(c) ? `\\${c}` : c;
  }
  return out;
}

/** Where a bracket expression that opens at `start` closes (`[]a]` and `[^]a]` hold a `]`); the pattern's end if it never does. */
function bracketEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '[' && /[:.=]/.test(pattern[i + 1] ?? '')) {
      const close = pattern.indexOf(`${pattern[i + 1]}]`, i + 2);
      if (close !== -1) i = close + 1;
    } else if (pattern[i] === ']') return i;
  }
  return pattern.length - 1;
}

/**
 * The rows a listing in the command prints about the daemon, beside its command line and names
 * (what `pgrep -f` and `/proc/<pid>/cmdline` hold): those of `ps`, `ss -p`, `netstat -p` and
 * `lsof` where one of them feeds the search.
 */
export function daemonRows(feeding: readonly ShellInvocation[], ground: ProtectedGround): readonly string[] {
  const daemon = ground.daemonProcess;
  if (daemon === undefined) return [];
  const lines: string[] = [];
  const pid = ground.daemonPid ?? 4242;
  const port = ground.daemonPort ?? 7377;
  const name = daemon.names[0] ?? 'node';
  const user = ground.home?.slice(ground.home.lastIndexOf('/') + 1) || 'user';
  const programs = new Set(feeding.map((invocation) => invocation.program));
  if (programs.has('ps') || programs.has('top') || programs.has('htop') || programs.has('procs')) {
    // Custom columns (`ps -eo pid=`) may leave the pid alone on its row.
    lines.push(`${pid}`, `  ${pid}`, `  ${pid} ${daemon.commandLine}`, `${user}     ${pid}  0.2  0.6 1089012 101236 ?      Sl   09:12   0:04 ${daemon.commandLine}`, `  ${pid} ?        00:00:04 ${name}`);
  }
  if (programs.has('pstree')) lines.push(`systemd(1)---${name}(${pid})-+-{${name}}(${pid + 1})`, `${name},${pid} ${daemon.commandLine}`);
  if (programs.has('ss')) lines.push(`tcp   LISTEN 0      511        127.0.0.1:${port}      0.0.0.0:*    users:(("${name}",pid=${pid},fd=21))`);
  if (programs.has('netstat')) lines.push(`tcp        0      0 127.0.0.1:${port}          0.0.0.0:*               LISTEN      ${pid}/${name}`);
  if (programs.has('lsof')) lines.push(`${name}    ${pid} ${user}   21u  IPv4 1234567      0t0  TCP localhost:${port} (LISTEN)`, `${name}    ${pid} ${user}  txt    REG    8,1 98765432 1234 ${daemon.commandLine.split(' ')[0]}`);
  return lines;
}

/**
 * Whether `pattern`, read in `dialect`, matches one of the daemon's `lines` (case aside). A
 * pattern that is empty, that could backtrack badly or that JavaScript cannot read counts as matching.
 */
export function patternMatchesLines(pattern: string, dialect: PatternDialect, lines: readonly string[]): boolean {
  if (pattern === '') return true;
  if (dialect === 'fixed') return lines.some((line) => line.toLowerCase().includes(pattern.toLowerCase()));
  // What JavaScript reads otherwise than grep, PCRE or glibc: taken to match, as gobby cannot tell.
  if (READ_OTHERWISE.test(pattern)) return true;
  const source = (dialect === 'basic' ? fromBasic(pattern) : pattern)
    // POSIX classes, and equivalence classes and collating elements as the one character they name (`[[=g=]]`, `[[.g.]]`).
    .replace(/\[:(\w+):\]/g, (whole, name: string) => POSIX_CLASSES[name] ?? whole)
    .replace(/\[([=.])(.)\1\]/g, '$2')
    // PCRE's `\K` only moves where the match starts: whether it matches is the same without it.
    .replace(/\\K/g, '');
  if (mayBacktrackBadly(source, MAX_PATTERN_REPEATS, MAX_PATTERN_LENGTH)) return true;
  let regex: RegExp;
  try {
    regex = new RegExp(source, 'i');
  } catch {
    return true;
  }
  return lines.some((line) => regex.test(line));
}

/** PCRE's quoting, braced escapes, anchors, inline flags, possessive and atomic groups, and GNU's buffer anchors: JavaScript reads them otherwise or not at all. */
const READ_OTHERWISE = /\\[QEAZzG]|\\[xo]\{|\\[`']|\(\?[a-zA-Z^-]+[:)]|\(\?>|[*+?}]\+/;

const MAX_PATTERN_LENGTH = 256;
/** Repeats in one pattern: the daemon's lines are about 150 characters, so even four nested `.*` stay small. */
const MAX_PATTERN_REPEATS = 4;
