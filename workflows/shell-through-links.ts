// A shell effect as it lands on disk: the daemon reads the real path behind each path a Bash
// command names (daemon/real-paths.ts), and both gobby's own ground and a phase that blocks
// file changes judge the effect through those links too. A link made by an earlier command
// (`ln -s "$PWD/src/app.ts" /tmp/x`, then `echo x > /tmp/x`) does not hide what is written.
import type { PathRef, ShellEffect } from './shell/index.js';

/**
 * The folder a path only known at run time is certainly in: the part before the first glob or
 * expansion (`/tmp/s` of `/tmp/s/*.ts`, `/tmp/s/**` and `/tmp/s/$f`). What the glob matches is
 * inside that folder, through whatever links lead to it. Undefined when it is not an absolute folder.
 */
export function literalFolderOf(ref: PathRef): string | undefined {
  if (ref.unplaced === true) return undefined;
  const first = ref.path.search(/[*?[$`{]/);
  const folder = ref.path.slice(0, ref.path.lastIndexOf('/', first === -1 ? ref.path.length : first));
  return folder.startsWith('/') ? folder : undefined;
}

/**
 * A glob path up to the end of its first glob segment (`/tmp/sdi[r]` of `/tmp/sdi[r]/*`, `/tmp/t?`
 * of `/tmp/t?`): the daemon matches that segment on disk, and a match that is a link (`/tmp/sdir
 * → src`) is recorded under this key. Undefined when the path has no glob there or is not absolute.
 */
export function globFolderKey(ref: PathRef): string | undefined {
  if (ref.unplaced === true || !ref.path.startsWith('/')) return undefined;
  const first = ref.path.search(/[*?[]/);
  if (first === -1 || /[$`{]/.test(ref.path.slice(0, first))) return undefined;
  const end = ref.path.indexOf('/', first);
  const key = end === -1 ? ref.path : ref.path.slice(0, end);
  // `/tmp/s/**` is everything below the folder, no name to match.
  return key.endsWith('/**') ? undefined : key;
}

/** The effect with each path replaced by the real one behind its links, or the effect itself when none differs. */
export function throughLinks(effect: ShellEffect, realPaths: ReadonlyMap<string, string>): ShellEffect {
  // A glob (`sed -i … /tmp/s/*.ts`) or a folder's contents (`/tmp/s/**`) are placed by their folder;
  // a glob segment that matched a link on disk (`/tmp/sdi[r]/*`, sdir → src) goes through it.
  const inRealFolder = (ref: PathRef): PathRef => {
    const key = globFolderKey(ref);
    const matched = key === undefined ? undefined : realPaths.get(key);
    if (matched !== undefined) return { path: `${matched === '/' ? '' : matched}${ref.path.slice(key!.length)}`, dynamic: true };
    const folder = literalFolderOf(ref);
    const real = folder === undefined ? undefined : realPaths.get(folder);
    return real === undefined ? ref : { path: `${real === '/' ? '' : real}${ref.path.slice(folder!.length)}`, dynamic: true };
  };
  // A path with `..` after a folder was resolved as written (PathRef.climbs).
  const real = (ref: PathRef): PathRef => {
    if (ref.dynamic) return inRealFolder(ref);
    const path = realPaths.get(ref.climbs ?? ref.path);
    return path === undefined ? ref : { path, dynamic: false };
  };
  // Deleting or moving a link acts on the link: only the folder it is in is followed.
  const realFolder = (ref: PathRef): PathRef => {
    if (ref.dynamic) return inRealFolder(ref);
    const slash = ref.path.lastIndexOf('/');
    const written = ref.climbs ?? ref.path;
    const folder = slash <= 0 ? undefined : realPaths.get(written.slice(0, written.lastIndexOf('/')));
    return folder === undefined ? ref : { path: `${folder === '/' ? '' : folder}${ref.path.slice(slash)}`, dynamic: false };
  };
  switch (effect.kind) {
    case 'read':
    case 'write': {
      const path = real(effect.path);
      return path === effect.path ? effect : { ...effect, path };
    }
    case 'delete': {
      const path = realFolder(effect.path);
      return path === effect.path ? effect : { ...effect, path };
    }
    case 'copy':
    case 'move': {
      const from = effect.kind === 'move' ? realFolder(effect.from) : real(effect.from);
      const to = real(effect.to);
      return from === effect.from && to === effect.to ? effect : { ...effect, from, to };
    }
    default:
      return effect;
  }
}
