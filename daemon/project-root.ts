// A session belongs to the project of its cwd: the nearest directory upwards holding
// `.git`, else the cwd itself (design §3.1). Cached: the answer for a cwd does not change
// within a daemon's life often enough to stat the tree on every tool call.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function createProjectRootResolver(maxEntries = 1000): (cwd: string) => string {
  const cache = new Map<string, string>();
  return (cwd) => {
    const key = resolve(cwd);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const root = findGitRoot(key) ?? key;
    if (cache.size >= maxEntries) cache.clear();
    cache.set(key, root);
    return root;
  };
}

function findGitRoot(start: string): string | undefined {
  let directory = start;
  for (;;) {
    if (existsSync(resolve(directory, '.git'))) return directory;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}
