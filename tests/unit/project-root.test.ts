// One project root for install, `workflow set`/`status` and the hook events.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { findProjectRoot, projectRootRefusal } from '../../daemon/project-root.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** `<tmp>/home/…`: a home folder with the user's own `.claude/`, and `paths` made inside it. */
function tree(...paths: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'gobby-root-'));
  dirs.push(root);
  mkdirSync(join(root, 'home', '.claude'), { recursive: true });
  for (const path of paths) mkdirSync(join(root, 'home', path), { recursive: true });
  return join(root, 'home');
}

describe('findProjectRoot', () => {
  it('is the git root from any folder below it', () => {
    const home = tree('app/.git', 'app/src/deep', 'app/src/.claude');
    expect(findProjectRoot(join(home, 'app', 'src', 'deep'), home)).toBe(join(home, 'app'));
  });

  it('without git, is the nearest folder up with .claude/ or .gobby/', () => {
    const home = tree('notes/.gobby/workflows', 'notes/a/b');
    expect(findProjectRoot(join(home, 'notes', 'a', 'b'), home)).toBe(join(home, 'notes'));
  });

  it("does not take the home folder's own .claude/ for a project marker", () => {
    const home = tree('scratch/x');
    expect(findProjectRoot(join(home, 'scratch', 'x'), home)).toBe(join(home, 'scratch', 'x'));
  });
});

describe('projectRootRefusal', () => {
  it('refuses / and the home folder, and nothing below them', () => {
    expect(projectRootRefusal('/', '/home/me')).toContain('file system root');
    expect(projectRootRefusal('/home/me/', '/home/me')).toContain('home folder');
    expect(projectRootRefusal('/home/me/app', '/home/me')).toBeNull();
  });
});
