// Where gobby's files are, as paths and globs: whether a path, a glob the shell expands or
// "everything below a folder" (`<folder>/**`) reaches a protected file, matched the way bash
// and find match names. Pure string work: nothing here looks at the file system.
import type { ProtectedGround } from './guards.js';
import { matchesWithStars } from './shell/glob-text.js';

/**
 * Everything below a folder (`<folder>/**`: `tar -x`, `git checkout old -- .claude`, `rsync
 * --delete`) reaches gobby's ground when the folder is protected or is one of the folders that
 * hold protected files (`.claude/`, not `.claude/commands/`). A whole project or home is not:
 * that is ordinary work, and ConfigChange catches what it does to the hook settings.
 */
export function treeReaches(tree: string, ground: ProtectedGround): boolean {
  const folder = tree.slice(0, -'/**'.length) || '/';
  // Below a folder the shell expands (`find ~/.gob* -delete`, `tar -xf x.tar -C .c*`): the same
  // rule for every folder the glob may name, or anything it names inside gobby's folders.
  if (isGlob(folder)) return globReaches(folder, ground, false) || (ground.protectedFolders ?? []).some((protectedFolder) => globMatches(folder, protectedFolder));
  return isProtected(folder, ground) || (ground.protectedFolders ?? []).includes(folder);
}

/** A path the shell expands (`.claude/settings*.json`, `.gob*`, `.c?aude`): `**` is the classifier's "everything in". */
export function isGlob(path: string): boolean {
  return (/[*?[]/.test(path) || EXTENDED_GLOB.test(path)) && !path.endsWith('/**');
}

/** bash's extended patterns: `@(a|b)`, `!(x)`, `+(x)`, `*(x)`, `?(x)` (with `shopt -s extglob`, which a user's setup may turn on). */
const EXTENDED_GLOB = /[@!+*?]\([^()]*\)/;
const EXTENDED_GLOB_GROUPS = /[@!+*?]\(([^()]*)\)/g;

/**
 * A segment's extended patterns as plain globs that match at least as much: each group becomes
 * `*`. A group that starts the segment and has an alternative that starts with a dot
 * (`@(.claude|x)`) may match a dot name, so the segment then starts with `.`, as bash requires.
 */
function plainGlob(segment: string): string {
  if (!EXTENDED_GLOB.test(segment)) return segment;
  const leadingDot = /^[@!+*?]\(([^()]*)\)/.exec(segment)?.[1]?.split('|').some((alternative) => alternative.startsWith('.')) === true;
  const plain = segment.replace(EXTENDED_GLOB_GROUPS, '*');
  return leadingDot && !plain.startsWith('.') ? `.${plain}` : plain;
}

/**
 * Whether a glob can name a protected path (or, when `orAbove`, a folder above one) as bash
 * expands it: `*`, `?` and `[…]` within one segment, and a leading dot matched only by a dot,
 * so `rm -rf *` does not reach `.claude/` and `rm -rf .c*` does.
 */
export function globReaches(glob: string, ground: ProtectedGround, orAbove: boolean, except: readonly string[] = []): boolean {
  // Inside a protected folder, anything the glob names is protected.
  if (isProtected(literalFolderOf(glob), ground)) return true;
  const patterns = glob.split('/');
  // A folder the search keeps out of (`find . -path ./.gobby -prune -o …`) holds nothing it names.
  const searched = (path: string): boolean => !except.some((folder) => path === folder || isBelow(path, folder));
  const reachesRoot = (ground.protectedPaths ?? []).some(
    (root) => searched(root) && ((orAbove ? ancestorsAndSelf(root) : [root]).some((path) => globMatches(glob, path)) || namesInside(patterns, 0, root.split('/'), 0, false)),
  );
  // `find . -name '*.yaml' -delete` names no protected folder, but finds the definitions in one.
  return reachesRoot || (ground.filesInside ?? []).some((file) => searched(file) && isProtected(file, ground) && globMatches(glob, file));
}

/**
 * Whether a glob can name the folder `root`, a folder above it or anything inside it. For the
 * project of a phase that restricts changes: unlike gobby's files, which are judged one by one
 * (globReaches), every file of a project counts, so `find ~ -name '*.ts' -delete`
 * (every `.ts` file below `/home/dev`) reaches a project in the home, and `/tmp/*` one in /tmp.
 */
export function globMayReachWithin(glob: string, root: string): boolean {
  if (ancestorsAndSelf(root).some((path) => globMatches(glob, path))) return true;
  return namesBelow(glob.split('/'), 0, root.split('/'), 0);
}

// Whether a glob can name a file of the home's where a file changes what other commands do (see
// shell-policy.ts): a dot file or folder, or a program in a `bin` folder (`/home/*/.bashrc`,
// `~/../*/.ssh/config`, `/h*/dev/bin/grep`, `/**/.profile`). (Line comments: a glob holds `*/`.)
export function globMayReachHomeConfig(glob: string, home: string): boolean {
  return reachesHomeConfig(glob.split('/'), 0, home.split('/'), 0);
}

function reachesHomeConfig(patterns: readonly string[], p: number, names: readonly string[], n: number): boolean {
  if (p === patterns.length) return false;
  const pattern = patterns[p]!;
  if (n === names.length) {
    // In the home: a dot name next, anything below, or a `bin` folder on the way to the last name.
    if (pattern === '**' || pattern.startsWith('.')) return true;
    return patterns.slice(p, -1).some((segment) => segment === '**' || segmentMatches(segment, 'bin'));
  }
  if (pattern === '**') {
    for (let skip = n; skip <= names.length; skip++) if (reachesHomeConfig(patterns, p + 1, names, skip)) return true;
    return false;
  }
  return segmentMatches(pattern, names[n]!) && reachesHomeConfig(patterns, p + 1, names, n + 1);
}

/** Whether the segments from `p` match `names` from `n` and more segments follow, into the folder. */
function namesBelow(patterns: readonly string[], p: number, names: readonly string[], n: number): boolean {
  if (p === patterns.length) return false;
  // Any depth: through the rest of the folder's path and on into it.
  if (patterns[p] === '**') return true;
  if (n === names.length) return true;
  return segmentMatches(patterns[p]!, names[n]!) && namesBelow(patterns, p + 1, names, n + 1);
}

/**
 * Whether the glob names something inside the protected folder `names` (`rm -rf .gob*` followed
 * by `/*` reaches `.gobby/workflows`): its segments match the folder's, and more follow. The folder's last segment
 * must be matched by a segment of its own, not by `**`: find's `-name '*.pyc'` may name a `.pyc`
 * inside any folder, but no more there than anywhere else, and is judged by the files themselves.
 */
function namesInside(patterns: readonly string[], p: number, names: readonly string[], n: number, matchedLast: boolean): boolean {
  if (n === names.length) return p < patterns.length && matchedLast;
  if (p === patterns.length) return false;
  if (patterns[p] === '**') {
    for (let skip = n; skip < names.length; skip++) if (namesInside(patterns, p + 1, names, skip, false)) return true;
    return false;
  }
  return segmentMatches(patterns[p]!, names[n]!, patterns[p - 1] !== '**') && namesInside(patterns, p + 1, names, n + 1, true);
}

/** A read of everything below a folder (`grep -r x ~`, `tar -c ~/.gobby`: `<folder>/**`) that holds `file`. */
export function treeHolds(path: string, file: string): boolean {
  if (!path.endsWith('/**')) return false;
  const folder = path.slice(0, -3);
  return folder === '' || file === folder || isBelow(file, folder);
}

/** Whether the path a command names is a glob that bash would expand to `file` (`~/.gobb?/tok[e]n`). */
export function namesByGlob(path: string, file: string): boolean {
  return isGlob(path) && globMatches(path, file);
}

/**
 * Segment by segment; a `**` segment (the classifier's "any depth below": `find . -name x -delete`
 * deletes `<root>`, `**`, `x`) matches any number of segments, dot folders included, as find walks
 * them, and the segment after it has no dot rule either: find's `-name '*obby'` and a git
 * pathspec `'*obby'` match `.gobby`.
 */
export function globMatches(glob: string, path: string): boolean {
  const patterns = glob.split('/');
  const names = path.split('/');
  if (!patterns.includes('**')) return names.length === patterns.length && names.every((name, i) => segmentMatches(patterns[i]!, name));
  return segmentsMatch(patterns, 0, names, 0);
}

function segmentsMatch(patterns: readonly string[], p: number, names: readonly string[], n: number): boolean {
  if (p === patterns.length) return n === names.length;
  if (patterns[p] === '**') {
    // Consecutive `**` are one; then try every depth (paths have few segments).
    if (patterns[p + 1] === '**') return segmentsMatch(patterns, p + 1, names, n);
    for (let skip = n; skip <= names.length; skip++) if (segmentsMatch(patterns, p + 1, names, skip)) return true;
    return false;
  }
  return n < names.length && segmentMatches(patterns[p]!, names[n]!, patterns[p - 1] !== '**') && segmentsMatch(patterns, p + 1, names, n + 1);
}

/** No file name is longer (Linux NAME_MAX): a longer pattern segment names nothing. */
const NAME_MAX = 255;

/** One path segment against one glob segment; the pattern is at most NAME_MAX long. */
export function segmentMatches(extended: string, name: string, dotRule = true): boolean {
  if (extended.length > NAME_MAX) return false;
  const pattern = plainGlob(extended);
  if (dotRule && name.startsWith('.') && !pattern.startsWith('.')) return false;
  return matchesWithStars(pattern, name);
}

/** The part of a glob before its first wildcard segment: the folder it expands in. */
function literalFolderOf(glob: string): string {
  const segments = glob.split('/');
  const first = segments.findIndex((segment) => /[*?[]/.test(segment) || EXTENDED_GLOB.test(segment));
  return segments.slice(0, first).join('/') || '/';
}

function ancestorsAndSelf(path: string): string[] {
  const out = [path];
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) out.push(path.slice(0, at));
  return out;
}

export function isProtected(path: string, ground: ProtectedGround): boolean {
  return (ground.protectedPaths ?? []).some((root) => path === root || isBelow(path, root));
}

/** Whether a protected path lies inside the folder `path` (its parent, the project, the home, `/`). */
export function holdsProtected(path: string, ground: ProtectedGround): boolean {
  return (ground.protectedPaths ?? []).some((root) => isBelow(root, path));
}

export function isBelow(path: string, folder: string): boolean {
  return folder === '/' ? path !== '/' : path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

/** find's -path test: a glob over the whole path, where `*` also matches `/`. */
export function wholePathMatches(pattern: string, path: string): boolean {
  if (pattern.length > 4 * NAME_MAX || /[[\\]/.test(pattern)) return true; // too odd to judge: assume it may match
  return matchesWithStars(pattern, path);
}

/** A part of a rendered word only known at run time, as the classifier leaves it written: `$x`, `${x}`, `$(…)`, `` `…` ``, `$@`, and a tilde it could not expand (`~-` before any `cd`, `~2`). */
const RUN_TIME_PART = /\$\{[^}]*\}|\$\([^)]*\)|`[^`]*`|\$[A-Za-z_]\w*|\$[@*#?$!0-9-]|(?<=^|\/)~[-+]?\d*(?=\/|$)/g;

/** The text after the last part of `path` only known at run time (`/.gobby` of `${PWD%/*}/.gobby`); undefined when it has none. */
export function knownEnd(path: string): string | undefined {
  let end = -1;
  for (const match of path.matchAll(RUN_TIME_PART)) end = match.index + match[0].length;
  return end === -1 ? undefined : path.slice(end);
}

/**
 * Whether `end`, the known end of a path, names `name` (`.gobby`, `.claude/settings.json`) as
 * whole names, through globs too (`/.gob*`), and what is below it when `below`. An end that does
 * not start with `/` is glued to the run-time part before it, which may supply the start of its
 * first name (`${X}.gobby`); that name must hold a character of its own (`${X}*` names nothing).
 */
export function knownEndNames(end: string, name: string, below: boolean): boolean {
  if (end === '') return false;
  const glued = !end.startsWith('/');
  const segments = (glued ? end : end.slice(1)).split('/');
  if (segments[segments.length - 1] === '' && segments.length > 1) segments.pop();
  const names = name.split('/');
  for (let i = 0; i + names.length <= segments.length; i++) {
    if (!below && i + names.length !== segments.length) continue;
    const matches = names.every((each, j) => {
      const segment = segments[i + j]!;
      if (!glued || i + j > 0) return segmentMatches(segment, each);
      return /[^*?]/.test(segment) && segmentMatches(`*${segment}`, each, false);
    });
    if (matches) return true;
  }
  return false;
}

/**
 * The same path with every part known only at run time taken as empty, as an unset variable or
 * `$@` outside a function is (`~/.gobby/tok${u}en`, `.cl$@aude`), when some written text follows
 * such a part; undefined otherwise. Only for a path whose start is written.
 */
export function withRunTimePartsEmpty(path: string): string | undefined {
  if (!path.startsWith('/')) return undefined;
  let followed = false;
  const emptied = path.replace(RUN_TIME_PART, (part, offset: number) => {
    followed ||= /[^/]/.test(path.slice(offset + part.length));
    return '';
  });
  return followed && emptied !== path ? emptied : undefined;
}

/**
 * The path as globs where each part known only at run time may be any name, a dot name included
 * (`~/.gobby/$x` is `~/.gobby/*` and `~/.gobby/.*`); empty when it has no such part or does not
 * start with a written folder. A run-time part is taken within its folder, as a name.
 */
export function runTimePartsAsGlobs(path: string): string[] {
  if (!path.startsWith('/') || !path.includes('$') && !path.includes('`')) return [];
  const star = path.replace(RUN_TIME_PART, '*');
  if (star === path) return [];
  // A segment that starts with a run-time part may also start with a dot.
  const dotted = star.replace(/\/\*/g, '/.*');
  return dotted === star ? [star] : [star, dotted];
}
