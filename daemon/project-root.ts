// The one answer to "which project is this?", for `gobby install`, `workflow set`/`status`
// and the hook events alike (design §3.1), so that a command run in `src/` means the same
// project as a session started at the root:
//   1. the nearest folder upwards holding `.git` (the git root);
//   2. else the nearest folder upwards holding `.claude/` or `.gobby/`, below the home folder
//      (`~/.claude` is the user's Claude Code folder, not a project marker);
//   3. else the folder itself.
// `/` and the home folder are not projects: `install` and `workflow set` refuse them unless
// forced (see `projectRootRefusal`).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';

export function findProjectRoot(cwd: string, home: string = homedir()): string {
  const start = resolve(cwd);
  return findUpwards(start, (dir) => existsSync(resolve(dir, '.git'))) ?? findMarkedFolder(start, resolve(home)) ?? start;
}

/** Why `root` cannot be a project (`/`, the home folder), or null when it can. */
export function projectRootRefusal(root: string, home: string = homedir()): string | null {
  const resolved = resolve(root);
  if (resolved === dirname(resolved)) return `${resolved} is the file system root, not a project`;
  if (resolved === resolve(home)) return `${resolved} is your home folder, not a project`;
  return null;
}

export function createProjectRootResolver(maxEntries = 1000, home: string = homedir()): (cwd: string) => string {
  // Cached: the answer for a cwd does not change within a daemon's life often enough to stat
  // the tree on every tool call.
  const cache = new Map<string, string>();
  return (cwd) => {
    const key = resolve(cwd);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const root = findProjectRoot(key, home);
    if (cache.size >= maxEntries) cache.clear();
    cache.set(key, root);
    return root;
  };
}

function findMarkedFolder(start: string, home: string): string | undefined {
  return findUpwards(start, (dir) => dir !== home && dir !== dirname(dir) && (existsSync(resolve(dir, '.claude')) || existsSync(resolve(dir, '.gobby'))));
}

function findUpwards(start: string, matches: (directory: string) => boolean): string | undefined {
  let directory = start;
  for (;;) {
    if (matches(directory)) return directory;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}
