// Whether the `gobby` on PATH is this gobby decides what hook commands call: `gobby`, or this
// clone's CLI by its path.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { findGobbyOnPath, isThisGobby, resolveHookLauncher } from '../../daemon/cli/hook-launcher.js';
import { launcherScript } from '../../daemon/cli/setup-command.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gobby-launcher-'));
  dirs.push(dir);
  return dir;
}

function executable(path: string, text: string): string {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

describe('resolveHookLauncher', () => {
  it('uses `gobby` when PATH holds the launcher `gobby setup` wrote for this clone', async () => {
    const root = tempDir();
    const cliMain = executable(join(root, 'main.js'), '');
    const bin = join(root, 'bin');
    mkdirSync(bin);
    executable(join(bin, 'gobby'), launcherScript('/usr/bin/node', cliMain));
    expect(await resolveHookLauncher({ PATH: `/nonexistent:${bin}` }, '/usr/bin/node', cliMain)).toEqual({ kind: 'path', command: 'gobby', found: join(bin, 'gobby') });
  });

  it('uses `gobby` when PATH holds a link to this clone\'s CLI (npm link)', async () => {
    const root = tempDir();
    const cliMain = executable(join(root, 'main.js'), '');
    symlinkSync(cliMain, join(root, 'gobby'));
    expect(await isThisGobby(join(root, 'gobby'), cliMain)).toBe(true);
  });

  it('names this clone with this Node when the `gobby` on PATH is another clone or another program', async () => {
    const root = tempDir();
    const cliMain = executable(join(root, 'main.js'), '');
    executable(join(root, 'gobby'), launcherScript('/usr/bin/node', '/elsewhere/dist/daemon/cli/main.js'));
    const launcher = await resolveHookLauncher({ PATH: root }, '/opt/node 20/bin/node', cliMain);
    expect(launcher).toEqual({ kind: 'clone', command: `'/opt/node 20/bin/node' ${cliMain}`, found: join(root, 'gobby') });
  });

  it('finds nothing when no folder on PATH has an executable gobby', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'gobby'), 'not executable');
    expect(await findGobbyOnPath({ PATH: root })).toBeNull();
    expect(await findGobbyOnPath({})).toBeNull();
  });
});
