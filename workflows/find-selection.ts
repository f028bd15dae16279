// Whether find's expression can select a given path, for the guards that keep find's actions
// (`-delete`, `-exec sed -i {} +`) and what it prints for `xargs` away from gobby's files. The
// classifier turns `-name`/`-path` into globs (workflows/shell/find-expression.ts); the rest of
// the expression (depth limits, negated tests, `-prune`, `-o`) only narrows what they name, and is
// asked here, on the paths gobby guards, with three values: a test gobby cannot decide (`-type f`,
// `-newer x`, a `-name` on a name not known) may go either way.

import { isBelow } from './ground-paths.js';
import { matchesWithStars } from './shell/glob-text.js';
import { resolveAgainst } from './shell/paths.js';

/** Three-valued truth: a test on what only the run knows is `maybe`. */
type Truth = 'yes' | 'no' | 'maybe';

function and(a: Truth, b: Truth): Truth {
  return a === 'no' || b === 'no' ? 'no' : a === 'yes' && b === 'yes' ? 'yes' : 'maybe';
}

function or(a: Truth, b: Truth): Truth {
  return a === 'yes' || b === 'yes' ? 'yes' : a === 'no' && b === 'no' ? 'no' : 'maybe';
}

function not(a: Truth): Truth {
  return a === 'yes' ? 'no' : a === 'no' ? 'yes' : 'maybe';
}

/** A path as find prints it, with its last name unknown when `probe` (a file gobby does not know, inside a folder it guards). */
interface Candidate {
  readonly printed: string;
  readonly name: string;
  readonly probe: boolean;
}

/** What evaluating the expression on one path did: its value, and whether it reached an action that acts on the path, prints it, or prunes below it. */
interface Outcome {
  readonly value: Truth;
  readonly acts: Truth;
  readonly prints: Truth;
  readonly prunes: Truth;
}

type Node =
  | { readonly kind: 'test'; readonly judge: (candidate: Candidate) => Truth }
  | { readonly kind: 'action'; readonly acts: boolean; readonly prints: boolean; readonly prunes: boolean; readonly value: Truth }
  | { readonly kind: 'not'; readonly operand: Node }
  | { readonly kind: 'and' | 'or' | 'comma'; readonly operands: readonly Node[] };

const NOTHING: Outcome = { value: 'yes', acts: 'no', prints: 'no', prunes: 'no' };

function evaluate(node: Node, candidate: Candidate): Outcome {
  switch (node.kind) {
    case 'test':
      return { ...NOTHING, value: node.judge(candidate) };
    case 'action':
      return { value: node.value, acts: node.acts ? 'yes' : 'no', prints: node.prints ? 'yes' : 'no', prunes: node.prunes ? 'yes' : 'no' };
    case 'not': {
      const inner = evaluate(node.operand, candidate);
      return { ...inner, value: not(inner.value) };
    }
    case 'and': {
      // Each operand runs only when the ones before it held.
      let reached: Truth = 'yes';
      let outcome: Outcome = { ...NOTHING, value: 'yes' };
      for (const operand of node.operands) {
        const next = evaluate(operand, candidate);
        outcome = { value: 'yes', acts: or(outcome.acts, and(reached, next.acts)), prints: or(outcome.prints, and(reached, next.prints)), prunes: or(outcome.prunes, and(reached, next.prunes)) };
        reached = and(reached, next.value);
        if (reached === 'no') break;
      }
      return { ...outcome, value: reached };
    }
    case 'or': {
      // Each alternative runs only when the ones before it failed.
      let reached: Truth = 'yes';
      let outcome: Outcome = { ...NOTHING, value: 'no' };
      for (const operand of node.operands) {
        const next = evaluate(operand, candidate);
        outcome = { value: 'no', acts: or(outcome.acts, and(reached, next.acts)), prints: or(outcome.prints, and(reached, next.prints)), prunes: or(outcome.prunes, and(reached, next.prunes)) };
        reached = and(reached, not(next.value));
        if (reached === 'no') break;
      }
      return { ...outcome, value: not(reached) };
    }
    case 'comma': {
      let outcome: Outcome = NOTHING;
      for (const operand of node.operands) {
        const next = evaluate(operand, candidate);
        outcome = { value: next.value, acts: or(outcome.acts, next.acts), prints: or(outcome.prints, next.prints), prunes: or(outcome.prunes, next.prunes) };
      }
      return outcome;
    }
  }
}

/** Tests with one operand whose outcome gobby does not know (`-type f`, `-newer x`, `-size +1M`). */
const UNDECIDED_WITH_OPERAND = new Set(['-type', '-xtype', '-user', '-group', '-uid', '-gid', '-perm', '-size', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer', '-anewer', '-cnewer', '-links', '-inum', '-samefile', '-fstype', '-used', '-context', '-regex', '-iregex', '-lname', '-ilname']);
/** Options in the expression, true as tests, that take an operand (the depth limits are read on their own). */
const OPTIONS_WITH_OPERAND = new Set(['-regextype', '-files0-from']);
/** Actions that print the path (what `xargs` is given). */
const PRINTS = new Set(['-print', '-print0', '-printf', '-ls']);
const EXECUTES = new Set(['-exec', '-execdir', '-ok', '-okdir']);
/** Actions that print the path into a file (`-fprintf FILE FORMAT`), which may be the output (`/dev/stdout`). */
const PRINTS_TO_FILE = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

/** find's expression, read from `args` at `at`; null when it cannot be read (then anything may be selected). */
class ExpressionReader {
  at = 0;
  broken = false;
  /** Read off the expression as find parses it, not off its words (`-fprintf -maxdepth 0 …` names a file `-maxdepth`). */
  minDepth = 0;
  maxDepth = Infinity;
  depthFirst = false;
  hasAction = false;
  /** `-files0-from`: the start paths come from a file. */
  startsFromFile = false;
  constructor(private readonly args: readonly string[]) {}

  list(depth: number): Node {
    const items: Node[] = [this.alternatives(depth)];
    while (this.args[this.at] === ',') {
      this.at++;
      items.push(this.alternatives(depth));
    }
    return items.length === 1 ? items[0]! : { kind: 'comma', operands: items };
  }

  private alternatives(depth: number): Node {
    const items: Node[] = [this.conjunction(depth)];
    while (this.args[this.at] === '-o' || this.args[this.at] === '-or') {
      this.at++;
      items.push(this.conjunction(depth));
    }
    return items.length === 1 ? items[0]! : { kind: 'or', operands: items };
  }

  private conjunction(depth: number): Node {
    const items: Node[] = [];
    for (;;) {
      const word = this.args[this.at];
      if (word === undefined || word === ')' || word === ',' || word === '-o' || word === '-or') break;
      if (word === '-a' || word === '-and') {
        this.at++;
        continue;
      }
      items.push(this.primary(depth));
      if (this.broken) break;
    }
    return items.length === 1 ? items[0]! : { kind: 'and', operands: items };
  }

  private primary(depth: number): Node {
    const word = this.args[this.at++]!;
    if (word === '!' || word === '-not') return { kind: 'not', operand: this.primary(depth) };
    if (word === '(') {
      if (depth > 32) this.broken = true;
      const inner = this.list(depth + 1);
      if (this.args[this.at] === ')') this.at++;
      else this.broken = true;
      return inner;
    }
    const operand = (): string => {
      const value = this.args[this.at++];
      if (value === undefined) this.broken = true;
      return value ?? '';
    };
    if (word === '-name' || word === '-iname') {
      const pattern = operand();
      const caseless = word === '-iname';
      return { kind: 'test', judge: (candidate) => (candidate.probe ? (pattern === '*' ? 'yes' : 'maybe') : globTruth(pattern, candidate.name, caseless)) };
    }
    if (word === '-path' || word === '-wholename' || word === '-ipath' || word === '-iwholename') {
      const pattern = operand();
      const caseless = word.startsWith('-i');
      return { kind: 'test', judge: (candidate) => (candidate.probe ? pathOfProbeTruth(pattern, candidate.printed, caseless) : globTruth(pattern, candidate.printed, caseless)) };
    }
    if (word === '-true') return { kind: 'test', judge: () => 'yes' };
    if (word === '-false') return { kind: 'test', judge: () => 'no' };
    if (word === '-prune') return { kind: 'action', acts: false, prints: false, prunes: true, value: 'yes' };
    if (word === '-delete') {
      this.hasAction = true;
      this.depthFirst = true;
      return { kind: 'action', acts: true, prints: false, prunes: false, value: 'maybe' };
    }
    if (EXECUTES.has(word)) {
      this.hasAction = true;
      while (this.at < this.args.length && this.args[this.at] !== ';' && this.args[this.at] !== '+') this.at++;
      this.at++;
      return { kind: 'action', acts: true, prints: false, prunes: false, value: 'maybe' };
    }
    // What a print to a file writes may be the output too (`-fprint /dev/stdout`).
    if (PRINTS.has(word) || PRINTS_TO_FILE.has(word)) {
      this.hasAction = true;
      if (word === '-printf' || PRINTS_TO_FILE.has(word)) operand();
      if (word === '-fprintf') operand();
      return { kind: 'action', acts: false, prints: true, prunes: false, value: 'yes' };
    }
    if (word === '-quit') {
      this.hasAction = true;
      return { kind: 'action', acts: false, prints: false, prunes: false, value: 'maybe' };
    }
    if (UNDECIDED_WITH_OPERAND.has(word) || /^-newer[aBcmt][aBcmt]$/.test(word)) {
      operand();
      return { kind: 'test', judge: () => 'maybe' };
    }
    if (word === '-maxdepth' || word === '-mindepth') {
      const value = operand();
      const depth = /^\d+$/.test(value) ? Number(value) : undefined;
      if (word === '-maxdepth') this.maxDepth = depth ?? Infinity;
      else this.minDepth = depth ?? 0;
      return { kind: 'test', judge: () => 'yes' };
    }
    if (word === '-files0-from') this.startsFromFile = true;
    if (OPTIONS_WITH_OPERAND.has(word)) {
      operand();
      return { kind: 'test', judge: () => 'yes' };
    }
    if (word === '-depth' || word === '-d') this.depthFirst = true;
    // `-depth`, `-xdev`, `-follow`, `-daystart`…: options, true as tests. Any other word is a test gobby does not know.
    return { kind: 'test', judge: () => (/^-(?:depth|d|xdev|mount|follow|noleaf|daystart|ignore_readdir_race|noignore_readdir_race|warn|nowarn)$/.test(word) ? 'yes' : 'maybe') };
  }
}

function globTruth(pattern: string, subject: string, caseless: boolean): Truth {
  if (pattern.length > 1024) return 'maybe';
  return matchesWithStars(caseless ? pattern.toLowerCase() : pattern, caseless ? subject.toLowerCase() : subject) ? 'yes' : 'no';
}

/**
 * A `-path` pattern against `<folder>/<a name not known>`: `yes` when a trailing `*` takes any
 * name there, `no` when no path below the folder can match (`-not -path './node_modules/*'` on
 * `./.gobby/…`), `maybe` otherwise.
 */
function pathOfProbeTruth(pattern: string, folder: string, caseless: boolean): Truth {
  if (pattern.length > 1024) return 'maybe';
  const p = caseless ? pattern.toLowerCase() : pattern;
  const prefix = `${caseless ? folder.toLowerCase() : folder}/`;
  if (p.endsWith('*') && matchesWithStars(p, `${prefix}\u0001`)) return 'yes';
  // Some path below the folder matches when a start of the pattern matches the folder's path and what is left can take any name.
  for (let cut = 0; cut <= p.length; cut++) {
    const head = p.slice(0, cut);
    if (head.lastIndexOf('[') > head.lastIndexOf(']')) continue;
    if (matchesWithStars(head, prefix) || (head.endsWith('*') && matchesWithStars(head, prefix.slice(0, -1)))) return 'maybe';
  }
  return 'no';
}

/** The start paths, the depth limits and the expression of a find command line. */
interface FindCommand {
  readonly roots: readonly string[];
  readonly expression: Node | null;
  readonly minDepth: number;
  readonly maxDepth: number;
  /** `-depth` or `-delete` (which implies it): a folder is judged after what is in it, so `-prune` keeps nothing out. */
  readonly depthFirst: boolean;
  /** Some action is written: nothing is printed unless a printing action runs. */
  readonly hasAction: boolean;
  /** `-files0-from`: the start paths are only known at run time. */
  readonly startsFromFile: boolean;
}

/** find's start paths as written (`.` when none is given) and the words of its expression, after its leading options (`-L`, `-O2`, `-D debug`). */
export function findParts(args: readonly string[]): { readonly roots: readonly string[]; readonly expression: readonly string[] } {
  let i = 0;
  while (i < args.length && /^-(?:[HLP]|O\d)$/.test(args[i]!)) i++;
  if (args[i] === '-D') i += 2;
  const roots: string[] = [];
  for (; i < args.length && !(args[i]!.startsWith('-') || args[i] === '(' || args[i] === '!' || args[i] === ','); i++) roots.push(args[i]!);
  return { roots: roots.length > 0 ? roots : ['.'], expression: args.slice(i) };
}

function readFind(args: readonly string[]): FindCommand {
  const { roots, expression: rest } = findParts(args);
  const reader = new ExpressionReader(rest);
  const expression = rest.length === 0 ? null : reader.list(0);
  // An expression gobby could not read in full may select anything, at any depth.
  const unread = reader.broken || reader.at < rest.length;
  return {
    roots,
    expression: unread ? { kind: 'test', judge: () => 'maybe' } : expression,
    minDepth: unread ? 0 : reader.minDepth,
    maxDepth: unread ? Infinity : reader.maxDepth,
    depthFirst: unread || reader.depthFirst,
    hasAction: reader.hasAction,
    startsFromFile: reader.startsFromFile,
  };
}

/**
 * Whether `find ARGS`, run in `cwd`, may act on `file` (`-delete`, `-exec`) or, for `print`, list
 * it (what `| xargs rm` is given). For an action, a folder above the file counts too (`-exec rm
 * -rf {} +` on `.claude` removes its settings), and with `inside`, a file of a name gobby does
 * not know inside it (a new workflow in `.gobby/workflows/`).
 */
export const FIND_PROGRAMS: ReadonlySet<string> = new Set(['find', 'gfind', 'bfs']);

export function findMaySelect(args: readonly string[], cwd: string, file: string, purpose: 'act' | 'print', inside = false): boolean {
  const find = readFind(args);
  if (find.startsFromFile) return true;
  for (const written of find.roots) {
    const root = resolveAgainst(cwd, written);
    if (file !== root && !isBelow(file, root)) continue;
    const names = file === root ? [] : file.slice(root === '/' ? 1 : root.length + 1).split('/');
    const start = written.length > 1 ? written.replace(/\/+$/, '') : written;
    const levels: Candidate[] = [{ printed: written, name: start.slice(start.lastIndexOf('/') + 1) || start, probe: false }];
    for (let depth = 1; depth <= names.length; depth++) levels.push({ printed: `${start === '/' ? '' : start}/${names.slice(0, depth).join('/')}`, name: names[depth - 1]!, probe: false });
    if (inside) levels.push({ printed: levels[levels.length - 1]!.printed, name: '', probe: true });
    if (mayReach(find, levels, purpose)) return true;
  }
  return false;
}

function mayReach(find: FindCommand, levels: readonly Candidate[], purpose: 'act' | 'print'): boolean {
  const last = levels.length - 1;
  for (let depth = 0; depth <= last && depth <= find.maxDepth; depth++) {
    const candidate = levels[depth]!;
    if (depth < find.minDepth) continue;
    if (find.expression === null) {
      if (purpose === 'print' && depth === last) return true;
      continue;
    }
    const outcome = evaluate(find.expression, candidate);
    const selected = purpose === 'act' ? outcome.acts : find.hasAction ? outcome.prints : outcome.value;
    // An action on a folder above reaches the file inside (`-exec rm -rf {} +`); a listing prints each path on its own.
    if (selected !== 'no' && (purpose === 'act' || depth === last)) return true;
    if (!find.depthFirst && outcome.prunes === 'yes') return false;
  }
  return false;
}
