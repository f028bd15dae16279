// What a hook command calls to run this gobby. `gobby` on PATH keeps hook commands free of
// where the clone sits, but only when that `gobby` is this one: the launcher `gobby setup`
// wrote for this clone, or a link to this clone's CLI (`npm link`). Anything else named
// gobby (another clone, someone else's npm package) would run the wrong code, so the hooks
// then name this clone's CLI with this Node instead.
import { constants } from 'node:fs';
import { access, readFile, realpath, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

import { quoteForShell } from '../../hooks/shell-quote.js';
import { CLI_MAIN } from '../package-info.js';
import { isGobbyLauncher } from './setup-command.js';

type Env = Record<string, string | undefined>;

/** A launcher script is two short lines; anything bigger is not one of ours. */
const MAX_LAUNCHER_BYTES = 64 * 1024;

export type HookLauncher =
  | { readonly kind: 'path'; readonly command: 'gobby'; readonly found: string }
  /** `found` is the `gobby` on PATH that is another program, if any. */
  | { readonly kind: 'clone'; readonly command: string; readonly found: string | null };

/** The first executable `gobby` on PATH, or null. */
export async function findGobbyOnPath(env: Env): Promise<string | null> {
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, 'gobby');
    try {
      if (!(await stat(candidate)).isFile()) continue;
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; the shell would look further too.
    }
  }
  return null;
}

/** True when running `found` runs this clone's CLI. */
export async function isThisGobby(found: string, cliMain: string = CLI_MAIN): Promise<boolean> {
  const [target, ours] = await Promise.all([realpath(found).catch(() => found), realpath(cliMain).catch(() => cliMain)]);
  if (target === ours) return true;
  let text: string;
  try {
    if ((await stat(target)).size > MAX_LAUNCHER_BYTES) return false;
    text = await readFile(target, 'utf8');
  } catch {
    return false;
  }
  // The launcher execs `<node> <cli main> "$@"`, each word quoted as quoteForShell does.
  return isGobbyLauncher(text) && [cliMain, ours].some((main) => text.includes(` ${quoteForShell(main)} "$@"`));
}

/** `gobby` when that is this gobby, else `'<node>' '<clone>/dist/daemon/cli/main.js'`. */
export async function resolveHookLauncher(env: Env, nodePath: string = process.execPath, cliMain: string = CLI_MAIN): Promise<HookLauncher> {
  const found = await findGobbyOnPath(env);
  if (found !== null && (await isThisGobby(found, cliMain))) return { kind: 'path', command: 'gobby', found };
  return { kind: 'clone', command: `${quoteForShell(nodePath)} ${quoteForShell(cliMain)}`, found };
}
