// The real paths behind a file tool's paths and a Bash command's paths, for gobby's own ground:
// a symbolic link the agent made earlier (`ln -s ~/.gobby g`, by code gobby could not see into)
// must not let the Read tool or `cat` reach the token as `g/token`. The engine compares names;
// this is where the disk is asked.
import { lstatSync, opendirSync, readlinkSync, realpathSync, statSync, type Dir } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { globFolderKey, globMatches, literalFolderOf, toolInputPaths, type PathRef, type ShellAnalysis } from '../workflows/index.js';


/** Each path of the input → its real path, when that differs; undefined when there is nothing to add. */
export function realPathsOf(toolName: string, toolInput: Readonly<Record<string, unknown>>, cwd: string, home: string): Map<string, string> | undefined {
  let found: Map<string, string> | undefined;
  for (const raw of toolInputPaths(toolName, toolInput)) {
    const expanded = raw.startsWith('~/') ? join(home, raw.slice(2)) : raw;
    const absolute = isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
    const real = realPathOfExisting(absolute);
    if (real !== absolute) (found ??= new Map()).set(raw, real);
  }
  return found;
}

/** More paths than this in one command are judged by their names only: each costs a system call or more. */
const SHELL_PATH_LIMIT = 64;

/**
 * The same for the files a Bash command reads, writes, deletes, copies or moves, by absolute path:
 * `cat g/token` after a link `g → ~/.gobby` that code gobby could not see into made earlier. Only
 * paths known before the command runs (a glob or a `$VAR` is not resolved); for a delete or the
 * source of a move, the folder the path is in (workflows/guards.ts puts the name back).
 */
export function realPathsOfShell(analysis: ShellAnalysis, into?: Map<string, string>): Map<string, string> | undefined {
  let found = into;
  let looked = 0;
  // Most of a command's paths share a few folders: each folder is resolved once, and each path
  // then costs one lstat (its last component may be a link itself: `n → .claude/settings.json`).
  const folders = new Map<string, string>();
  const realOf = (path: string): string => {
    const folder = dirname(path);
    let realFolder = folders.get(folder);
    if (realFolder === undefined) folders.set(folder, (realFolder = realPathOfExisting(folder)));
    const candidate = join(realFolder, basename(path));
    try {
      return lstatSync(candidate, { throwIfNoEntry: false })?.isSymbolicLink() ? realPathOf(candidate) : candidate;
    } catch {
      return candidate; // a dangling link, or not searchable: judged by the name it has
    }
  };
  const consider = (ref: PathRef): void => {
    // A glob or `<folder>/**` (everything below, `grep -r x g`) is placed by its folder, links followed;
    // a path with `..` after a folder (`/tmp/l/../a.ts`) as written, since a link on the way moves what `..` climbs from.
    const path = ref.dynamic ? literalFolderOf(ref) : ref.climbs ?? ref.path;
    // `/dev/…` and the command's own `/proc/self/…` mean something else to the daemon: judged by their names.
    if (path === undefined || !path.startsWith('/') || path === '/' || path.startsWith('/dev/') || /^\/proc\/(?:self|thread-self|\$\$)(?:\/|$)/.test(path) || looked >= SHELL_PATH_LIMIT || found?.has(path)) return;
    looked++;
    const real = realOf(path);
    if (real !== path && (ref.dynamic || real !== ref.path)) (found ??= new Map()).set(path, real);
  };
  // A glob segment is matched on disk, and the first match that is a link recorded under the glob
  // (`rm -rf /tmp/sdi[r]/*` after `ln -s ~/app/src /tmp/sdir`); in the last segment only for what
  // is read or written through it (deleting or moving a link acts on the link).
  const throughGlob = (ref: PathRef, followsLast: boolean): void => {
    const key = globFolderKey(ref);
    if (key === undefined || found?.has(key) || looked >= SHELL_PATH_LIMIT || (!followsLast && key === ref.path)) return;
    looked++;
    const slash = key.lastIndexOf('/');
    const folder = key.slice(0, slash) || '/';
    const pattern = key.slice(slash + 1);
    if (/[*?[]/.test(folder)) return;
    const link = linkMatching(folder, pattern);
    if (link !== undefined) (found ??= new Map()).set(key, realPathOf(link));
  };
  // Deleting or moving a link acts on the link itself: only the folder it is in is resolved.
  const folderOf = (ref: PathRef): PathRef => (ref.climbs === undefined ? { path: dirname(ref.path), dynamic: ref.dynamic } : { path: dirname(ref.path), dynamic: ref.dynamic, climbs: dirname(ref.climbs) });
  for (const effect of analysis.effects) {
    if (effect.kind === 'read' || effect.kind === 'write') {
      consider(effect.path);
      throughGlob(effect.path, true);
    } else if (effect.kind === 'delete') {
      consider(effect.path.dynamic ? effect.path : folderOf(effect.path));
      throughGlob(effect.path, false);
    } else if (effect.kind === 'copy' || effect.kind === 'move') {
      consider(effect.kind === 'move' && !effect.from.dynamic ? folderOf(effect.from) : effect.from);
      consider(effect.to);
      throughGlob(effect.from, effect.kind === 'copy');
      throughGlob(effect.to, true);
    }
  }
  return found;
}

/** Entries of a folder looked at for one glob segment: a folder of thousands is judged by names. */
const GLOB_ENTRY_LIMIT = 512;

/**
 * The first entry of `folder` that `pattern` matches and that is a symbolic link, or undefined.
 * The folder is read entry by entry and left after GLOB_ENTRY_LIMIT: a hook request never reads a
 * large folder whole (`node_modules/*`).
 */
function linkMatching(folder: string, pattern: string): string | undefined {
  let dir: Dir | undefined;
  try {
    dir = opendirSync(folder);
    for (let i = 0, entry = dir.readSync(); entry !== null && i < GLOB_ENTRY_LIMIT; i++, entry = dir.readSync()) {
      if (entry.isSymbolicLink() && globMatches(pattern, entry.name)) return join(folder, entry.name);
    }
  } catch {
    // not a folder, or not readable: judged by its name
  } finally {
    dir?.closeSync();
  }
  return undefined;
}

/**
 * realpath of the longest existing prefix, with the rest appended (a file about to be written
 * does not exist yet). The prefix is found with `stat` that returns instead of throwing: a
 * thrown ENOENT per missing level cost about 40 µs on every Write of a new file.
 */
function realPathOfExisting(path: string): string {
  try {
    const missing: string[] = [];
    let current = path;
    while (statSync(current, { throwIfNoEntry: false }) === undefined) {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
    const real = realPathOf(current);
    return missing.length === 0 ? real : join(real, ...missing.reverse());
  } catch {
    return path; // not searchable on the way (EACCES, ENOTDIR): judged by its name only
  }
}

/**
 * realpath of a path that exists. `/proc/self` is the process that opens the path: resolved here
 * it is the daemon, but the agent's `cat /proc/self/status` (or `/proc/mounts` and `/etc/mtab`,
 * links into `self/`) reads its own process. A path that reaches the daemon's `/proc` folder is
 * therefore resolved again with `self` kept, and what is below it taken as written (the engine
 * reads `/proc/self/cwd` and `/proc/self/fd/N` itself).
 */
function realPathOf(existing: string): string {
  const real = realpathSync.native(existing);
  return real === OWN_PROC || real.startsWith(`${OWN_PROC}/`) ? resolveKeepingSelf(existing) : real;
}

const OWN_PROC = `/proc/${process.pid}`;
/** Links followed before a path counts as a loop, as the kernel's ELOOP limit. */
const MAX_LINKS = 40;

/** realpath of an existing path, component by component, where `/proc/self` and `/proc/thread-self` are not followed. */
function resolveKeepingSelf(path: string): string {
  let links = 0;
  const walk = (absolute: string): string => {
    let resolved = '/';
    let inSelf = false;
    for (const name of absolute.split('/')) {
      if (name === '' || name === '.') continue;
      const next = name === '..' ? dirname(resolved) : join(resolved, name);
      inSelf ||= next === '/proc/self' || next === '/proc/thread-self';
      if (inSelf || name === '..') {
        resolved = next;
        continue;
      }
      if (!lstatSync(next).isSymbolicLink()) {
        resolved = next;
        continue;
      }
      if (++links > MAX_LINKS) return path;
      const target = readlinkSync(next);
      resolved = walk(isAbsolute(target) ? target : join(resolved, target));
    }
    return resolved;
  };
  return walk(path);
}
