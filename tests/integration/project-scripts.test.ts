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
    expect(scriptsFor('npm run lint')!.has(projectScriptKey({ name: 'lint', folder: root, extra: '' }))).toBe(true);
  });
});
