// The package.json scripts a Bash command runs, as the daemon reads them from a real project
// folder: which file, which steps, and every way the read gives nothing, so the call stays a
// program gobby does not know (never a crash, never a guess).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectScriptsOf } from '../../daemon/project-scripts.js';
import { analyzeShellCommand, projectScriptKey, type ShellContext } from '../../workflows/index.js';

let root: string;
let shell: ShellContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'gobby-scripts-'));
  shell = { cwd: root, home: '/home/dev', projectRoot: root, gobbyHome: '/home/dev/.gobby' };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function scriptsFor(command: string, where: ShellContext = shell) {
  return projectScriptsOf(analyzeShellCommand(command, where), where);
}

function stepsOf(command: string, where: ShellContext = shell): string[] {
  return [...(scriptsFor(command, where)?.values() ?? [])].flatMap((script) => script.steps.map((step) => step.text));
}

describe('the package.json scripts a command runs', () => {
  it('reads pre, main and post steps, with the words after the name appended', () => {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { prelint: 'tsc --noEmit', lint: 'eslint src', postlint: 'echo done' } }));
    expect(stepsOf("npm run lint -- --fix 'a b'")).toEqual(['tsc --noEmit', "eslint src '--fix' 'a b'", 'echo done']);
    const [script] = scriptsFor('yarn lint')!.values();
    expect(script!.file).toBe(join(root, 'package.json'));
  });

  it('follows scripts that run scripts, once each, up to its limit, also through a cycle', () => {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { a: 'npm run b', b: 'npm run a && npm run c', c: 'ls' } }));
    const scripts = scriptsFor('npm run a')!;
    expect([...scripts.values()].map((script) => script.steps[0]!.text)).toEqual(['npm run b', 'npm run a && npm run c', 'ls']);
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`s${i}`, `npm run s${i + 1}`]));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: many }));
    expect(scriptsFor('npm run s0')!.size).toBe(16);
  });

  it('uses the nearest package.json upwards from where the manager runs, inside the project only', () => {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { lint: 'eslint .' } }));
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    expect(stepsOf('cd src/deep && npm run lint')).toEqual(['eslint .']);
    const outside = mkdtempSync(join(tmpdir(), 'gobby-outside-'));
    try {
      writeFileSync(join(outside, 'package.json'), JSON.stringify({ scripts: { lint: 'eslint .' } }));
      expect(scriptsFor(`cd ${outside} && npm run lint`)).toBeUndefined();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it.each([
    ['malformed JSON', '{ "scripts": '],
    ['scripts that are no object', JSON.stringify({ scripts: ['lint'] })],
    ['a script that is no string', JSON.stringify({ scripts: { lint: { run: 'rm -rf src' } } })],
    ['no script of that name', JSON.stringify({ scripts: { test: 'vitest' } })],
    ['JSON null', 'null'],
  ])('reads nothing for %s', (_, text) => {
    writeFileSync(join(root, 'package.json'), text);
    expect(scriptsFor('npm run lint')).toBeUndefined();
  });

  it('reads nothing from a package.json that is no regular file, too large, or that the command may rewrite first', () => {
    execFileSync('mkfifo', [join(root, 'package.json')]);
    expect(scriptsFor('npm run lint')).toBeUndefined(); // a FIFO would block a read for ever
    rmSync(join(root, 'package.json'));
    symlinkSync('/dev/zero', join(root, 'package.json'));
    expect(scriptsFor('npm run lint')).toBeUndefined();
    rmSync(join(root, 'package.json'));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { lint: 'eslint .' }, pad: 'x'.repeat(1024 * 1024) }));
    expect(scriptsFor('npm run lint')).toBeUndefined();
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { lint: 'eslint .' } }));
    expect(scriptsFor('cp /tmp/other.json package.json && npm run lint')).toBeUndefined();
    expect(scriptsFor('echo x > "$F"; npm run lint')).toBeUndefined();
    expect(scriptsFor('npm run lint')!.has(projectScriptKey({ source: 'package.json', name: 'lint', folder: root, extra: '' }))).toBe(true);
  });
});

describe('the shell script files a command runs', () => {
  function script(path: string, text: string): void {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text, { mode: 0o755 });
  }

  it('reads a file run by bash, sh or dash, and one run by its path that is a shell script by its first line or has none', () => {
    script('scripts/todo.sh', 'grep -rn TODO src\n');
    script('scripts/env.sh', '#!/usr/bin/env -S bash -eu\nls src\n');
    script('scripts/plain', 'wc -l src/*.ts\n');
    expect(stepsOf('bash scripts/todo.sh && sh -e scripts/todo.sh && dash ./scripts/todo.sh')).toEqual(['grep -rn TODO src\n']);
    expect(stepsOf('./scripts/env.sh')).toEqual(['#!/usr/bin/env -S bash -eu\nls src\n']);
    expect(stepsOf('scripts/plain arg')).toEqual(['wc -l src/*.ts\n']);
    // Where it runs: the working directory, which the analysis of its text starts from.
    mkdirSync(join(root, 'src'));
    const [inSrc] = scriptsFor('cd src && ../scripts/todo.sh')!.values();
    expect(inSrc!.file).toBe(join(root, 'scripts', 'todo.sh'));
    expect(inSrc!.steps[0]!.analysis.effects).toContainEqual({ kind: 'read', path: { path: join(root, 'src', 'src', '**'), dynamic: true }, program: 'grep' });
  });

  it('reads nothing for a file of another language, another shell, outside the project, behind a link out of it, or that the command may rewrite first', () => {
    script('scripts/p.sh', '#!/usr/bin/env python3\nprint(1)\n');
    script('scripts/z.sh', '#!/bin/zsh\nls\n');
    script('scripts/ok.sh', 'ls\n');
    expect(scriptsFor('./scripts/p.sh')).toBeUndefined();
    expect(scriptsFor('./scripts/z.sh && zsh scripts/ok.sh && fish scripts/ok.sh')).toBeUndefined();
    const outside = mkdtempSync(join(tmpdir(), 'gobby-outside-'));
    try {
      writeFileSync(join(outside, 'x.sh'), 'ls\n');
      expect(scriptsFor(`bash ${join(outside, 'x.sh')}`)).toBeUndefined();
      symlinkSync(join(outside, 'x.sh'), join(root, 'scripts', 'linked.sh'));
      expect(scriptsFor('bash scripts/linked.sh')).toBeUndefined();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    expect(scriptsFor('echo "rm -rf src" >> scripts/ok.sh; bash scripts/ok.sh')).toBeUndefined();
    expect(scriptsFor('cp /tmp/x.sh "$F"; ./scripts/ok.sh')).toBeUndefined();
    expect(scriptsFor('bash "$S"')).toBeUndefined();
  });

  it('reads nothing from a file that is no regular file, too large to parse, binary or missing', () => {
    mkdirSync(join(root, 'scripts'));
    execFileSync('mkfifo', [join(root, 'scripts', 'fifo.sh')]);
    expect(scriptsFor('bash scripts/fifo.sh')).toBeUndefined();
    script('scripts/big.sh', `${'ls\n'.repeat(30_000)}`);
    expect(scriptsFor('bash scripts/big.sh')).toBeUndefined();
    script('scripts/bin', '\u0000ELF');
    expect(scriptsFor('./scripts/bin')).toBeUndefined();
    expect(scriptsFor('bash scripts/missing.sh')).toBeUndefined();
  });

  it('follows what a script runs: a package.json script that runs a file, and a file that runs one', () => {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { check: 'bash scripts/check.sh', lint: 'eslint src' } }));
    script('scripts/check.sh', 'npm run lint\n');
    expect(stepsOf('npm run check')).toEqual(['bash scripts/check.sh', 'npm run lint\n', 'eslint src']);
  });
});

describe('the makefile targets a command runs', () => {
  it('reads the recipe of the makefile make would use: -f, -C, or the first of GNUmakefile, makefile and Makefile', () => {
    writeFileSync(join(root, 'Makefile'), 'lint:\n\teslint src\n');
    expect(stepsOf('make lint')).toEqual(['eslint src']);
    writeFileSync(join(root, 'GNUmakefile'), 'lint:\n\tgrep -rn TODO src\n');
    expect(stepsOf('make lint')).toEqual(['grep -rn TODO src']);
    expect(stepsOf('make -f Makefile lint')).toEqual(['eslint src']);
    mkdirSync(join(root, 'web'));
    writeFileSync(join(root, 'web', 'makefile'), 'all:\n\tls\n');
    const [inWeb] = scriptsFor('make -C web')!.values();
    expect(inWeb!.file).toBe(join(root, 'web', 'makefile'));
    expect(inWeb!.steps.map((step) => step.text)).toEqual(['ls']);
  });

  it('reads nothing for variables given to make, a makefile outside the project or behind a link out of it, or one the command writes first', () => {
    writeFileSync(join(root, 'Makefile'), 'lint:\n\teslint src\n');
    expect(scriptsFor('make lint LINT=x')).toBeUndefined();
    expect(scriptsFor('make -e lint')).toBeUndefined();
    expect(scriptsFor("printf 'lint:\\n\\trm -rf src\\n' > Makefile; make lint")).toBeUndefined();
    const outside = mkdtempSync(join(tmpdir(), 'gobby-outside-'));
    try {
      writeFileSync(join(outside, 'Makefile'), 'lint:\n\teslint src\n');
      expect(scriptsFor(`make -f ${join(outside, 'Makefile')} lint`)).toBeUndefined();
      expect(scriptsFor(`make -C ${outside} lint`)).toBeUndefined();
      mkdirSync(join(root, 'linked'));
      symlinkSync(join(outside, 'Makefile'), join(root, 'linked', 'Makefile'));
      expect(scriptsFor('make -C linked lint')).toBeUndefined();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('the reading of one command', () => {
  it('stops once it has read its share of script text, so no command holds the hook up for long', () => {
    mkdirSync(join(root, 'scripts'));
    const big = `${'ls -la src\n'.repeat(5000)}`; // 55 KB, under the 64 KB a file may have
    for (const name of ['a', 'b', 'c', 'd']) writeFileSync(join(root, 'scripts', `${name}.sh`), big);
    expect(scriptsFor('bash scripts/a.sh; bash scripts/b.sh; bash scripts/c.sh; bash scripts/d.sh')!.size).toBe(3);
  });
});
