// The files a patch changes, read off its headers: what `git apply`, `git am` and `patch` would
// write, judged against gobby's ground before they run (workflows/patch-paths.ts).
import { describe, expect, it } from 'vitest';
import { patchedPaths } from '../../workflows/patch-paths.js';

describe('the paths a patch names', () => {
  it('reads git, unified and context headers, renames and copies', () => {
    const patch = [
      'From 1234 Mon Sep 17 00:00:00 2001',
      'Subject: [PATCH] tidy',
      '',
      'diff --git a/src/a.ts b/src/b.ts',
      'similarity index 90%',
      'rename from src/a.ts',
      'rename to src/b.ts',
      '--- a/src/a.ts\t2026-11-24 10:00:00',
      '+++ b/src/b.ts\t2026-11-24 10:00:01',
      '@@ -1 +1 @@',
      '-- a line that starts like a header but is a hunk line',
      // A hunk line that adds `++ x` reads as a header: an extra name only makes the check stricter.
      '+++ x',
      'Index: docs/x.md',
      '*** docs/x.md',
      'copy to docs/y.md',
      '--- /dev/null',
    ].join('\r\n');
    const paths = patchedPaths(patch);
    expect(paths).toEqual(['a/src/a.ts', 'b/src/b.ts', 'src/a.ts', 'src/b.ts', 'a/src/a.ts', 'b/src/b.ts', 'x', 'docs/x.md', 'docs/x.md', 'docs/y.md']);
    expect(paths).not.toContain('/dev/null');
  });

  it('unquotes the C-style names git gives paths with unusual characters', () => {
    expect(patchedPaths('--- "a/.claude/settings\\"x.json"\n+++ "b/.claude/settings.local.json"\n')).toEqual(['a/.claude/settings"x.json', 'b/.claude/settings.local.json']);
  });

  it('finds nothing in text that holds no headers, and stays linear in a long one', () => {
    expect(patchedPaths('just some notes\nabout a diff\n')).toEqual([]);
    const long = `${'+ a line of a hunk\n'.repeat(50_000)}+++ b/x\n`;
    expect(patchedPaths(long)).toEqual(['b/x']);
  });
});
