// POSIX path arithmetic without node:path (the engine imports nothing impure). Paths here are
// the strings a shell would pass to open(2): no symlink resolution, which needs the disk.

const NEEDS_NORMALIZING = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

/** Collapses `.`, `..`, repeated and trailing slashes of an absolute path. */
export function normalizeAbsolute(path: string): string {
  if (path.startsWith('/') && !NEEDS_NORMALIZING.test(path)) return path; // the common case, without allocating
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

const CLIMBS = /(?:^|\/)\.\.(?:\/|$)/;

/**
 * An absolute path with a `..` after a named folder, as written (only repeated slashes and `.`
 * taken out), for PathRef.climbs; undefined when `..` climbs over nothing that could be a link.
 */
export function climbingPath(absolute: string): string | undefined {
  if (!CLIMBS.test(absolute)) return undefined;
  const out: string[] = [];
  let named = false;
  for (const segment of absolute.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && out[out.length - 1] !== '..') named = true;
    out.push(segment);
  }
  return named ? `/${out.join('/')}` : undefined;
}

/**
 * A climbing path walked as the kernel walks it, through the symbolic links in `links` (link →
 * target, absolute): each `..` is taken from where the folder before it really is.
 */
export function physicalPath(climbing: string, links: ReadonlyMap<string, string>): string {
  const out: string[] = [];
  for (const segment of climbing.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      out.pop();
      continue;
    }
    out.push(segment);
    const target = links.get(`/${out.join('/')}`);
    if (target !== undefined) out.splice(0, out.length, ...target.split('/').filter((part) => part !== ''));
  }
  return `/${out.join('/')}`;
}

/** `target` resolved against `base` (absolute) as the shell would, then normalised. */
export function resolveAgainst(base: string, target: string): string {
  // `find .`, `ls .`: the folder itself (base is already normal), without splitting the path.
  if (target === '.' || target === './') return normalizeAbsolute(base);
  return normalizeAbsolute(target.startsWith('/') ? target : `${base}/${target}`);
}

export function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  return slash === -1 ? trimmed : trimmed.slice(slash + 1);
}

/** The folder an absolute path is in (`/` for a top-level name). */
export function dirName(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/';
}

/** Whether an absolute, normalised path is `folder` or below it. */
export function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder === '/' ? '/' : `${folder}/`);
}

/**
 * Folders whose files change what other commands do: the system's programs, libraries and
 * configuration. A phase that blocks file changes refuses writes there as it does in the project
 * (workflows/shell-policy.ts), so what is there is not the agent's.
 */
export const SYSTEM_FOLDERS: readonly string[] = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/opt'];

export function isSystemPath(path: string): boolean {
  return SYSTEM_FOLDERS.some((folder) => isWithin(path, folder));
}

/**
 * A dot folder of the home (`~/.kube/config`, `~/.sdkman/candidates/java/17`): configuration and
 * toolchains that a phase restricting file changes keeps the agent from writing, as it does the project.
 */
export function inHomeDotFolder(path: string, home: string | null): boolean {
  return home !== null && path.startsWith(`${home}/.`) && !path.startsWith(`${home}/..`);
}

/**
 * The local path of a `file:` URL, percent escapes decoded (`file:///x/%2egobby` is `/x/.gobby`;
 * a host other than `localhost` is taken as local all the same); undefined for any other URL.
 */
/** A word that is a URL with a scheme of its own (`https://…`, `git+http://…`, `file:///…`), not a path that holds `://` further on. */
export function isUrl(word: string): boolean {
  return word.includes('://') && URL_START.test(word);
}

const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i;

export function localFileOfUrl(url: string): string | undefined {
  const match = /^file:(?:\/\/[^/]*)?(\/[^?#]*)/i.exec(url);
  if (match === null) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1];
  }
}
