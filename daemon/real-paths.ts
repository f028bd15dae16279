// The real paths behind a file tool's paths, for gobby's own ground: a symbolic link the agent
// made earlier (`ln -s ~/.gobby g`, by code gobby could not see into) must not let the Read tool
// reach the token as `g/token`. The engine compares names; this is where the disk is asked.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { FILE_TOOL_PATH_KEYS } from '../workflows/index.js';


/** Each path of the input → its real path, when that differs; undefined when there is nothing to add. */
export function realPathsOf(toolInput: Readonly<Record<string, unknown>>, cwd: string, home: string): Map<string, string> | undefined {
  let found: Map<string, string> | undefined;
  for (const key of FILE_TOOL_PATH_KEYS) {
    const raw = toolInput[key];
    if (typeof raw !== 'string' || raw === '' || raw.length > 4096) continue;
    const expanded = raw.startsWith('~/') ? join(home, raw.slice(2)) : raw;
    const absolute = isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
    const real = realPathOfExisting(absolute);
    if (real !== absolute) (found ??= new Map()).set(raw, real);
  }
  return found;
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
    const real = realpathSync.native(current);
    return missing.length === 0 ? real : join(real, ...missing.reverse());
  } catch {
    return path; // not searchable on the way (EACCES, ENOTDIR): judged by its name only
  }
}
