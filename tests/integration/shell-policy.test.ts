// A phase that blocks the file tools but lets the agent run shell commands (to read, search
// and run tests): every shell command that would change the project's files is refused,
// whatever it is spelled like, and gobby's own ground is off limits in every phase. Driven
// through the daemon as Claude Code drives it; the reason is what the model reads.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../daemon/package-info.js';
import { TestDaemon, writeProjectWorkflow, type Json } from './test-daemon.js';

const REVIEW = `
name: review-with-shell
phases:
  - name: review
    allowed_tools: [Read, Glob, Grep, Bash, mcp__docs__*]
    blocked_tools: [Write, Edit, NotebookEdit]
    shell:
      allow_programs: [terraform, node]
    rules:
      - when: "effects.test_run and tool == 'Bash'"
        action: warn
        message: "tests ran: {{ effects.programs | join(' ') }}"
    exit_conditions:
      - type: user_approval
        prompt: "Plan complete. Ready to implement?"
  - name: fix
    allowed_tools: all
`;

let t: TestDaemon;
let session: string;

beforeEach(async () => {
  t = TestDaemon.create();
  writeProjectWorkflow(t.project, 'review-with-shell.yaml', REVIEW);
  await t.setWorkflow('review-with-shell');
  session = t.newSessionId();
  await t.sessionStart(session);
});
afterEach(async () => t?.dispose());

async function bash(command: string, current = session): Promise<{ denied: boolean; reason: string; body: Json }> {
  const body = (await t.preToolUse(current, 'Bash', { command })).body;
  const output = body.hookSpecificOutput;
  return { denied: output?.permissionDecision === 'deny', reason: output?.permissionDecisionReason ?? '', body };
}

describe('shell commands in a phase that blocks the file tools', () => {
  it.each([
    ['echo hi > notes.txt', 'writes', 'notes.txt'],
    ["sed -i 's/a/b/' src/app.ts", 'writes', 'src/app.ts'],
    ['cat patch | tee src/app.ts', 'writes', 'src/app.ts'],
    ['cp README.md docs/copy.md', 'copies onto', 'docs/copy.md'],
    ['mv a.ts b.ts', 'moves', 'a.ts'],
    ['rm -rf build', 'deletes', 'build'],
    ['cd src && echo x > y.ts', 'writes', 'src/y.ts'],
    ["bash -c 'echo x > z.ts'", 'writes', 'z.ts'],
    ['git checkout -- src/app.ts', 'runs `git checkout`', ''],
    ['npm install left-pad', 'installs packages', ''],
    ['python3 -c "open(\'f\', \'w\').write(\'x\')"', 'runs code gobby cannot see into', 'allow_opaque: true'],
    // One interpreter may be trusted by name, or all such code with one switch: the reason names both.
    ['python3 -c "print(1)"', 'runs code gobby cannot see into', 'allow_programs: ["python3"]'],
    ['echo cm0gLXJmIHNyYwo= | base64 -d | sh', 'deletes', 'src'],
    ['base64 -d < payload.b64 | sh', 'runs code gobby cannot see into', ''],
    ['x=$(echo rm); $x -rf src', 'deletes', 'src'],
    ['x=$(cat cmd.txt); $x -rf src', 'runs code gobby cannot see into', ''],
    ['x=rm; $x -rf src', 'deletes', 'src'],
    ['make dist', 'runs `make dist`, which gobby does not know', 'allow_programs: ["make dist"]'],
    // Outside the project, what changes how trusted commands behave counts too.
    ["echo '[core] fsmonitor = /tmp/x.sh' >> ~/.gitconfig", 'configuration or programs that other commands use', ''],
    ['cp /tmp/x.sh ~/.local/bin/grep', 'configuration or programs that other commands use', ''],
    ['cd /tmp && git status', 'a repository outside the project, whose configuration can run commands', ''],
    // A test run is trusted with the project's code, not with code from elsewhere.
    ['npm test --script-shell=/tmp/evil.sh', 'loads /tmp/evil.sh (--script-shell), outside the project', ''],
    ['cd /tmp/pkg && npm test', 'runs in /tmp/pkg, outside the project', ''],
    // Only known at run time: text from a substitution may hold `../`, and a directory changed at run time may be the project.
    ['git diff > /tmp/r-$(git branch --show-current).diff', 'a path only known when it runs', ''],
    // A default is only the likeliest value: OUT may name the project's files.
    ['rm -rf ${OUT:-/tmp/build}', 'a path only known when it runs', ''],
    ['rm -rf "$(echo ${OUT:-/tmp/build})"', 'a path only known when it runs', ''],
    ['cd /tmp && cd "$(cat /tmp/where)" && rm -rf build', 'deletes', ''],
    ['PATH=/tmp/bin:$PATH npm test', 'runs code gobby cannot see into', ''],
    // A search from a folder above the project finds the project's files too.
    ["find .. -name '*.ts' -delete", 'deletes', ''],
    ["find ../.. -name '*.md' -exec sed -i s/a/b/ {} +", 'writes', ''],
  ])('refuses %j: it %s %s', async (command, what, detail) => {
    const { denied, reason } = await bash(command);
    expect(denied, reason).toBe(true);
    expect(reason).toContain('does not allow changing files, by any tool');
    expect(reason).toContain(what);
    if (detail) expect(reason).toContain(detail.startsWith('allow') ? detail : join(t.project, detail));
    // The reason never points at another tool as the way around.
    expect(reason).not.toMatch(/use (the )?(Write|Edit)|try (Write|Edit)/);
  });

  it.each([
    'grep -rn "gobby workflow phase" .',
    'grep -rn "rm -rf" src 2>/dev/null',
    'npm test',
    'npx vitest run tests/unit',
    'git status && git diff --stat',
    'ls -la > /dev/null 2>&1',
    'cat package.json | jq .scripts',
    "find . -name '*.ts' | wc -l",
    'echo "sed -i is how you would do it"',
    'terraform plan',
    // `node` is trusted by name in this phase: its inline code runs.
    'node -e "console.log(process.version)"',
    'mkdir -p /tmp/review-notes && echo notes > /tmp/review-notes/a.md',
    '(cd packages/api && npm test -- --run) && npx vitest run --config vitest.config.ts',
    // Outside the project, a glob or a folder's contents in a fixed place; tools that only read.
    'cargo build --target-dir /tmp/t && go build -o /dev/null ./... && rm -f /var/tmp/review-*.log && mktemp',
    'PYTHONPATH=src pytest -q && GIT_PAGER=cat git log -3 && NODE_OPTIONS=--max-old-space-size=4096 npm test',
    'git commit --help && pnpm tsc --noEmit && yarn vitest run && ./gradlew test --tests FooTest',
    'vendor/bin/phpunit && .venv/bin/pytest && php -l src/a.php && docker network ls && nm a.out',
    'git clone https://example.com/r.git /tmp/r && git archive -o /tmp/src.tar HEAD && git push --dry-run',
    // Temporary files whose names are made at run time, in /tmp.
    'tmp=$(mktemp) && git diff > "$tmp" && wc -l "$tmp"; git diff > /tmp/d.$$; npm test > /tmp/test-$RANDOM.log 2>&1',
    // A search from a folder that does not hold the project, and a search from above that only reads.
    "find /var/tmp -name 'review-*.log' -mtime +1 -delete && find .. -name '*.ts' | head",
  ])('lets %j run', async (command) => {
    const { denied, reason } = await bash(command);
    expect(denied, reason).toBe(false);
  });

  it('follows a link made earlier from outside the project to a project file, and refuses a hard link to one', async () => {
    mkdirSync(join(t.project, 'src'), { recursive: true });
    writeFileSync(join(t.project, 'src', 'app.ts'), 'export {};\n');
    const outside = mkdtempSync(join(tmpdir(), 'gobby-link-'));
    try {
      // As if an earlier command (or a phase that allowed it) had made the link.
      symlinkSync(join(t.project, 'src', 'app.ts'), join(outside, 'app.ts'));
      const through = await bash(`echo hacked > ${join(outside, 'app.ts')}`);
      expect(through.denied, through.reason).toBe(true);
      expect(through.reason).toContain(`writes ${join(t.project, 'src', 'app.ts')}`);
      const hard = await bash(`ln src/app.ts ${join(outside, 'same.ts')}`);
      expect(hard.denied, hard.reason).toBe(true);
      expect(hard.reason).toContain(`writes ${join(t.project, 'src', 'app.ts')} (ln)`);
      // Scratch files outside the project are still the agent's.
      expect((await bash(`echo notes > ${join(outside, 'notes.md')} && ln -s ${join(t.project, 'src')} ${join(outside, 'src-view')}`)).denied).toBe(false);
      // Once that link to a folder is on disk, a glob through it, a trailing slash, or find following links reach the project.
      symlinkSync(join(t.project, 'src'), join(outside, 'src-view'));
      // …also when a glob names the link itself: the daemon matches it on disk (`src-vie[w]`, `src-v*`).
      for (const command of [`sed -i s/a/b/ ${outside}/src-view/*.ts`, `rm -rf ${outside}/src-view/`, `find ${outside}/src-view/ -name '*.ts' -delete`, `find -L ${outside} -name '*.ts' -delete`, `rm -rf ${outside}/src-vie[w]/*`, `echo x > ${outside}/src-v*/app.ts`, `echo x > ${outside}/app.t?`]) {
        const glob = await bash(command);
        expect(glob.denied, command).toBe(true);
      }
      // A `..` after the link climbs from where it points, not from its name: `src-deep/..` is src.
      mkdirSync(join(t.project, 'src', 'deep'), { recursive: true });
      symlinkSync(join(t.project, 'src', 'deep'), join(outside, 'src-deep'));
      for (const command of [`echo x > ${outside}/src-deep/../main.ts`, `cd ${outside}/src-deep && echo x > ../main.ts`, `rm ${outside}/src-deep/../main.ts`]) {
        const climbed = await bash(command);
        expect(climbed.denied, command).toBe(true);
        expect(climbed.reason, command).toContain(join(t.project, 'src', 'main.ts'));
      }
      // Where no link is on the way, `..` is only text: scratch files beside the folder are the agent's.
      mkdirSync(join(outside, 'plain'));
      expect((await bash(`echo x > ${outside}/plain/../notes.md`)).denied).toBe(false);
      expect((await bash(`rm ${outside}/src-view && rm -rf ${outside}/*.md`)).denied).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("tells the model, when Write is refused, that shell commands can't change files either", async () => {
    const body = (await t.preToolUse(session, 'Write', { file_path: join(t.project, 'a.ts'), content: 'x' })).body;
    expect(body.hookSpecificOutput.permissionDecisionReason).toContain('No tool may change files in this phase, shell commands included.');
  });

  it('gives conditions the effects of the command: a rule sees that the tests ran', async () => {
    await bash('npm test');
    const next = await t.prompt(session, 'what happened?');
    expect(next.body.hookSpecificOutput.additionalContext).toContain('[gobby] tests ran: npm');
  });

  it("judges a package.json script by what its text does, as the daemon reads it: lint runs, build is refused, naming the script", async () => {
    const scripts = { lint: 'eslint src', prelint: 'tsc --noEmit', build: 'tsc -p .', check: 'npm run lint && npm run build', fmt: 'prettier --check .', deploy: 'terraform apply' };
    writeFileSync(join(t.project, 'package.json'), JSON.stringify({ name: 'app', scripts }));
    mkdirSync(join(t.project, 'packages', 'web'), { recursive: true });
    writeFileSync(join(t.project, 'packages', 'web', 'package.json'), JSON.stringify({ scripts: { lint: 'rm -rf dist' } }));
    for (const command of ['npm run lint', 'yarn lint', 'pnpm run fmt', 'bun run lint']) {
      const { denied, reason } = await bash(command);
      expect(denied, `${command}: ${reason}`).toBe(false);
    }
    const build = await bash('npm run build');
    expect(build.denied).toBe(true);
    expect(build.reason).toContain('runs `npm run build`, whose script `tsc -p .` writes');
    expect(build.reason).toContain('allow_programs: ["npm run build"]');
    // Words after the name are appended to the script; a script that runs scripts is followed.
    expect((await bash('npm run lint -- --fix')).reason).toContain('whose script `eslint src \'--fix\'` writes');
    expect((await bash('npm run check')).reason).toContain('whose script `tsc -p .` writes');
    // The nearest package.json from where the manager runs.
    expect((await bash('cd packages/web && npm run lint')).reason).toContain(`deletes ${join(t.project, 'packages', 'web', 'dist')}`);
    // Not in package.json, or the command may rewrite it first: a program gobby does not know.
    expect((await bash('npm run missing')).reason).toContain('runs `npm run missing`, which gobby does not know');
    // A workspace option runs other packages' scripts of that name: not this package.json's.
    expect((await bash('npm run lint --workspace packages/web')).reason).toContain('runs `npm run lint`, which gobby does not know');
    expect((await bash('echo \'{}\' > /tmp/p.json && cp /tmp/p.json package.json; npm run lint')).denied).toBe(true);
    expect((await bash('cp /tmp/x package.json; npm run fmt')).reason).toContain('copies onto');
  });

  it('judges a shell script file of the project by its text, as the daemon reads it: a search runs, a delete is refused, naming the file', async () => {
    mkdirSync(join(t.project, 'scripts'), { recursive: true });
    writeFileSync(join(t.project, 'scripts', 'todo.sh'), '#!/usr/bin/env bash\nset -euo pipefail\ngrep -rn TODO . | head -20\n', { mode: 0o755 });
    writeFileSync(join(t.project, 'scripts', 'clean.sh'), '#!/bin/sh\nrm -rf build\n', { mode: 0o755 });
    writeFileSync(join(t.project, 'scripts', 'report.py'), '#!/usr/bin/env python3\nprint(1)\n', { mode: 0o755 });
    for (const command of ['bash scripts/todo.sh', './scripts/todo.sh', 'sh scripts/todo.sh > /dev/null']) {
      const { denied, reason } = await bash(command);
      expect(denied, `${command}: ${reason}`).toBe(false);
    }
    const clean = await bash('./scripts/clean.sh');
    expect(clean.denied).toBe(true);
    expect(clean.reason).toContain(`runs ${join(t.project, 'scripts', 'clean.sh')}, which deletes ${join(t.project, 'build')} (rm)`);
    expect(clean.reason).toContain('allow_programs: ["./scripts/clean.sh"]');
    // Another language, or a file the command rewrites first: code gobby cannot see into, as before.
    expect((await bash('./scripts/report.py')).reason).toContain('runs code gobby cannot see into (runs the file `./scripts/report.py`)');
    expect((await bash('echo ls > /tmp/x && bash scripts/todo.sh; cp /tmp/x scripts/todo.sh')).denied).toBe(true);
  });

  it("reads a script file with its own path as $0 and the words it is run with as $1…: a script that finds its folder runs, an argument it deletes is named", async () => {
    mkdirSync(join(t.project, 'scripts'), { recursive: true });
    writeFileSync(join(t.project, 'scripts', 'test.sh'), '#!/usr/bin/env bash\nset -euo pipefail\ncd "$(dirname "$0")/.."\nnpm test\n', { mode: 0o755 });
    writeFileSync(join(t.project, 'scripts', 'here.sh'), '#!/bin/bash\ncd "$(dirname "${BASH_SOURCE[0]}")/.." && grep -rn TODO src\n', { mode: 0o755 });
    writeFileSync(join(t.project, 'scripts', 'rm.sh'), '#!/bin/sh\nshift\nrm -rf "$1"\n', { mode: 0o755 });
    writeFileSync(join(t.project, 'scripts', 'root.sh'), '#!/bin/sh\nROOT=$(cd "$(dirname "$0")/.." && pwd)\nrm -rf "$ROOT/build"\n', { mode: 0o755 });
    for (const command of ['./scripts/test.sh', 'bash scripts/test.sh', 'cd src && ../scripts/here.sh']) {
      const { denied, reason } = await bash(command);
      expect(denied, `${command}: ${reason}`).toBe(false);
    }
    // `shift` moved the second word to `$1`.
    expect((await bash('./scripts/rm.sh -f dist')).reason).toContain(`runs ${join(t.project, 'scripts', 'rm.sh')}, which deletes ${join(t.project, 'dist')} (rm)`);
    expect((await bash('./scripts/root.sh')).reason).toContain(`which deletes ${join(t.project, 'build')}`);
  });

  it("judges a makefile target by its recipe, as the daemon reads it: lint runs, build is refused, naming the recipe line", async () => {
    writeFileSync(join(t.project, 'Makefile'), 'SRC = src\n.PHONY: lint build\nlint:\n\t@grep -rn TODO $(SRC) || true\nbuild: lint\n\tmkdir -p dist && cp -r $(SRC) dist/\nwild:\n\t$(shell echo x)\n');
    const lint = await bash('make lint');
    expect(lint.denied, lint.reason).toBe(false);
    const build = await bash('make build');
    expect(build.denied).toBe(true);
    expect(build.reason).toContain('runs `make build`, whose script `mkdir -p dist && cp -r src dist/` writes');
    expect(build.reason).toContain('allow_programs: ["make build"]');
    // What the text alone does not settle stays a task gobby does not know.
    expect((await bash('make wild')).reason).toContain('runs `make wild`, which gobby does not know');
  });

  it('lets an MCP tool the phase lists by name run, whatever its name says', async () => {
    const listed = (await t.preToolUse(session, 'mcp__docs__write_page', { path: 'x' })).body;
    expect(listed).toEqual({});
  });
});

describe('a rule on effects: only the tests may run', () => {
  it('lets the test runners through and refuses the rest, test runs with extras included', async () => {
    writeProjectWorkflow(
      t.project,
      'tests-only.yaml',
      `name: tests-only
phases:
  - name: red
    allowed_tools: [Read, Bash]
    rules:
      - when: "tool == 'Bash' and not (effects.test_run and effects.kinds | length == 1)"
        action: block
        message: "only the tests may run in this phase"
`,
    );
    await t.api('POST', '/api/projects/workflow/clear', { cwd: t.project, reason: 'switching to tests-only' });
    await t.setWorkflow('tests-only');
    const red = t.newSessionId();
    await t.sessionStart(red);
    for (const command of ['npm test', 'npx vitest run tests/unit', 'pytest -q']) {
      expect((await bash(command, red)).denied, command).toBe(false);
    }
    for (const command of ['ls', 'npm test && curl example.com']) {
      const { denied, reason } = await bash(command, red);
      expect(denied, command).toBe(true);
      expect(reason).toContain('only the tests may run in this phase');
    }
    // The file tools are not allowed here either, so the write is refused before the rule is asked.
    expect((await bash('npm test; touch x', red)).reason).toContain('writes');
  });
});

describe("gobby's own ground, in a phase that allows everything", () => {
  let fixSession: string;
  beforeEach(async () => {
    fixSession = t.newSessionId();
    await t.sessionStart(fixSession);
    await t.stop(fixSession, { askedApproval: true });
    // Review done: the user approves, so Bash, Write and Edit are all allowed now.
    await t.prompt(fixSession, 'yes');
    expect((await t.status(t.project, fixSession)).body.phase).toBe('fix');
  });

  it.each([
    ['env -u CLAUDECODE gobby workflow "phase" review --force --reason x', 'guard: human-only override'],
    ['node dist/daemon/cli/main.js workflow reset --reason x', 'guard: human-only override'],
    ['npx gobby uninstall', 'guard: human-only override'],
    ["echo '{\"disableAllHooks\":true}' > .claude/settings.local.json", 'guard: protected file'],
    ['rm -rf .gobby/workflows', 'guard: protected file'],
    ['pkill -f gobby', 'guard: signal to the daemon'],
    ['claude --bare -p "do it"', 'guard: nested claude without hooks'],
    // Code gobby cannot see into, whose text names gobby's files: refused as a last resort.
    ["python3 -c \"import json; open('.claude/settings.local.json', 'w').write(json.dumps({'disableAllHooks': True}))\"", 'guard: protected file named by opaque code'],
    ["node -e \"require('fs').rmSync('.gobby/workflows', { recursive: true })\"", 'guard: protected file named by opaque code'],
    // A folder that holds gobby's files, removed, moved away, replaced or emptied.
    ['rm -rf .claude', 'guard: protected file'],
    ['mv .claude .claude.bak', 'guard: protected file'],
    ['cp -r /tmp/elsewhere/.claude .', 'guard: protected file'],
    ['cp /tmp/settings.json .claude/', 'guard: protected file'],
    ['rsync -a --delete /tmp/empty/ .claude/', 'guard: protected file'],
    // The same through a glob the shell expands.
    ["sed -i 's/true/false/' .claude/settings*.json", 'guard: protected file'],
    ['rm -rf .gob*', 'guard: protected file'],
    ['mv .c?aude .old', 'guard: protected file'],
    ['rm -rf .[!c]*', 'guard: protected file'],
    ['rm .gobby/workflows/*.yaml', 'guard: protected file'],
    // A pattern searched for in every folder finds the definitions the daemon has read.
    ["find . -name '*.yaml' -delete", 'guard: protected file'],
    ["find . -name 'review*' -exec rm {} +", 'guard: protected file'],
    // A second name, written through later.
    ["ln -s .claude/settings.local.json notes.json && echo '{}' > notes.json", 'guard: link to a protected file'],
    ['ln -s .claude cfg', 'guard: link to a protected file'],
    // Brace expansion, a variable's default, untracked files swept away, the managed policy.
    ['mv .claude/settings.local.json{,.bak}', 'guard: protected file'],
    ["echo '{}' > ${SETTINGS:-.claude/settings.local.json}", 'guard: protected file'],
    ['git clean -fdx', 'guard: untracked sweep of a protected file'],
    ['git stash -u', 'guard: untracked sweep of a protected file'],
    ['echo \'{"disableAllHooks":true}\' > /etc/claude-code/managed-settings.json', 'guard: protected file'],
    // gobby's installed package (here the checkout the tests run from, outside the project).
    [`rm -rf ${PACKAGE_ROOT}`, 'guard: protected file'],
    [`echo 'process.exit(0)' > ${PACKAGE_ROOT}/dist/daemon/main.js`, 'guard: protected file'],
    // Claude Code's shell snapshot, sourced before each later Bash command.
    ["for f in ~/.claude/shell-snapshots/*; do echo 'rm -rf ~/.gobby' >> $f; done", 'guard: protected file'],
    ["echo 'gobby workflow reset' > ~/.claude/session-env/abc/sessionstart-hook-0.sh", 'guard: protected file'],
    ['CLAUDE_CODE_SHELL_PREFIX=/tmp/wrap.sh claude -p "do it"', 'guard: nested claude without hooks'],
    // A debugger attached to the daemon (here, this very process).
    [`gdb -p ${process.pid} -batch -ex 'call exit(0)'`, 'guard: signal to the daemon'],
  ])('refuses %j', async (command, because) => {
    const { denied, reason } = await bash(command, fixSession);
    expect(denied, reason).toBe(true);
    const row = t.auditRows(fixSession).reverse().find((r) => r.event === 'PreToolUse');
    expect(row?.because).toBe(because);
    expect(t.auditRows(fixSession).some((r) => r.event.startsWith('tamper:'))).toBe(true);
  });

  it('refuses removing or moving the project itself, which holds its hook settings', async () => {
    const name = basename(t.project);
    for (const command of [`cd .. && rm -rf ${name}`, `mv ${t.project} ${t.project}-old`, 'rm -rf ~']) {
      const { denied, reason } = await bash(command, fixSession);
      expect(denied, `${command}: ${reason}`).toBe(true);
    }
  });

  it('refuses a write to the hook settings padded past the length cap, where nothing is parsed', async () => {
    const { denied, reason } = await bash(`echo '{"disableAllHooks":true}' > .claude/settings.local.json; : ${'x'.repeat(70_000)}`, fixSession);
    expect(denied, reason).toBe(true);
    expect(reason).toContain('`.claude/settings.local.json`');
    expect(t.auditRows(fixSession).some((r) => r.event === 'tamper:protected-file')).toBe(true);
  });

  it("refuses a package.json script that changes gobby's files, as the daemon reads it, and audits it", async () => {
    writeFileSync(join(t.project, 'package.json'), JSON.stringify({ scripts: { setup: 'node scripts/setup.js', reset: "echo '{}' > .claude/settings.local.json", postinstall2: 'npm run reset' } }));
    const reset = await bash('npm run reset', fixSession);
    expect(reset.denied).toBe(true);
    expect(reset.reason).toContain("`npm run reset` runs the script `echo '{}' > .claude/settings.local.json` of");
    expect((await bash('yarn postinstall2', fixSession)).denied).toBe(true);
    expect(t.auditRows(fixSession).filter((r) => r.event === 'tamper:protected-file').length).toBe(2);
    expect((await bash('npm run setup', fixSession)).denied).toBe(false);
  });

  it("refuses a makefile target whose recipe changes gobby's files, as the daemon reads it", async () => {
    writeFileSync(join(t.project, 'Makefile'), 'unhook:\n\t-rm -f .claude/settings.local.json\nlint:\n\tgrep -rn TODO .\n');
    const unhook = await bash('make unhook', fixSession);
    expect(unhook.denied).toBe(true);
    expect(unhook.reason).toContain('`make unhook` runs the script `rm -f .claude/settings.local.json` of');
    expect((await bash('make lint', fixSession)).denied).toBe(false);
  });

  it("refuses a shell script file that changes gobby's files, as the daemon reads it, and audits it", async () => {
    mkdirSync(join(t.project, 'scripts'), { recursive: true });
    writeFileSync(join(t.project, 'scripts', 'unhook.sh'), 'cd "$(git rev-parse --show-toplevel)"\nrm -f .claude/settings.local.json\n', { mode: 0o755 });
    const before = t.auditRows(fixSession).filter((r) => r.event === 'tamper:protected-file').length;
    for (const command of ['bash scripts/unhook.sh', 'cd scripts && ./unhook.sh']) {
      const { denied, reason } = await bash(command, fixSession);
      expect(denied, command).toBe(true);
      expect(reason).toContain(`the command runs ${join(t.project, 'scripts', 'unhook.sh')}.`);
    }
    expect(t.auditRows(fixSession).filter((r) => r.event === 'tamper:protected-file').length).toBe(before + 2);
  });

  it("refuses a shell script file whose arguments make it change gobby's files, as the daemon reads it", async () => {
    mkdirSync(join(t.project, 'scripts'), { recursive: true });
    writeFileSync(join(t.project, 'scripts', 'wipe.sh'), '#!/bin/sh\nrm -rf -- "$1"\n', { mode: 0o755 });
    // `.` is the project, which holds .claude/ and .gobby/: the script's `$1`.
    const { denied, reason } = await bash('./scripts/wipe.sh .', fixSession);
    expect(denied).toBe(true);
    expect(reason).toContain(`the command runs ${join(t.project, 'scripts', 'wipe.sh')}.`);
    expect((await bash('./scripts/wipe.sh build', fixSession)).denied).toBe(false);
  });

  it('refuses writes to GOBBY_HOME by any tool', async () => {
    const write = (await t.preToolUse(fixSession, 'Write', { file_path: join(t.home, 'workflows', 'x.yaml'), content: 'x' })).body;
    expect(write.hookSpecificOutput.permissionDecision).toBe('deny');
    expect((await bash(`sqlite3 ${join(t.home, 'gobby.db')} 'delete from audit_log'`, fixSession)).denied).toBe(true);
  });

  it('lets ordinary work through', async () => {
    for (const command of [
      'echo hi > notes.txt',
      'npm install',
      'grep -rn "gobby workflow phase" .',
      'gobby workflow status',
      // Naming gobby's files is fine where gobby can see what the command does.
      'cat .claude/settings.json',
      // The rest of .claude/ and of the project is the user's.
      'mkdir -p .claude/commands && cp /tmp/review.md .claude/commands/',
      'rm -f .claude/commands/review.md',
      'rm -rf build node_modules',
      'find . -name "*.pyc" -delete',
      // A glob without a leading dot does not reach dot folders, as in bash.
      'rm -rf * && rm -f .claude/commands/*.md',
      'ln -sf node_modules/.bin/tsc tsc && ln -s .claude/commands cmds',
      // Many stars: matched without backtracking, so this returns at once.
      `rm -f ${'*a'.repeat(2000)}b`,
      'grep -rn ".gobby" docs',
      'python3 -c "print(6 * 7)"',
      // A program gobby does not know, given the project as a whole.
      'cloc . && code .',
      'git clean -fdx build && git clean -fd -e .claude -e .gobby && touch src{1,2}.txt',
    ]) {
      const { denied, reason } = await bash(command, fixSession);
      expect(denied, `${command}: ${reason}`).toBe(false);
    }
  });

  it('refuses a copy, move or link that would become a .claude the project does not have yet, and lets it land in one that exists', async () => {
    const claude = join(t.project, '.claude');
    rmSync(claude, { recursive: true, force: true });
    for (const command of ['cp -r /tmp/x .claude', 'mv /tmp/x .claude', 'ln -s /tmp/x .claude']) {
      const { denied, reason } = await bash(command, fixSession);
      expect(denied, `${command}: ${reason}`).toBe(true);
      expect(reason).toContain(`${claude}, which does not exist`);
    }
    expect(t.auditRows(fixSession).filter((r) => r.event === 'tamper:protected-file').length).toBeGreaterThanOrEqual(3);
    // The daemon looks again at every command: once the folder is there, the copy lands inside it as .claude/x.
    mkdirSync(claude);
    for (const command of ['cp -r /tmp/x .claude', 'mv /tmp/x .claude', 'ln -s /tmp/x .claude']) {
      const { denied, reason } = await bash(command, fixSession);
      expect(denied, `${command}: ${reason}`).toBe(false);
    }
  });

  it("refuses applying a patch file that changes gobby's files, as the daemon reads it, and applies others", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'gobby-it-patch-'));
    try {
      const evil = join(folder, 'fix.diff');
      writeFileSync(evil, ['diff --git a/src/app.ts b/src/app.ts', '--- a/src/app.ts', '+++ b/src/app.ts', '@@ -1 +1 @@', '-a', '+b', 'diff --git a/.claude/settings.local.json b/.claude/settings.local.json', '--- a/.claude/settings.local.json', '+++ b/.claude/settings.local.json', '@@ -1 +1 @@', '-{}', '+{"disableAllHooks":true}', ''].join('\n'));
      const fine = join(folder, 'ok.diff');
      writeFileSync(fine, ['--- a/src/app.ts', '+++ b/src/app.ts', '@@ -1 +1 @@', '-a', '+b', ''].join('\n'));
      for (const command of [`git apply ${evil}`, `patch -p1 < ${evil}`, `cat ${evil} | git am`]) {
        const { denied, reason } = await bash(command, fixSession);
        expect(denied, `${command}: ${reason}`).toBe(true);
        expect(reason).toContain('.claude/settings.local.json');
      }
      expect(t.auditRows(fixSession).filter((r) => r.event === 'tamper:protected-file').length).toBeGreaterThanOrEqual(3);
      for (const command of [`git apply ${fine}`, `patch -p1 < ${fine}`, `git apply ${join(folder, 'missing.diff')}`]) {
        const { denied, reason } = await bash(command, fixSession);
        expect(denied, `${command}: ${reason}`).toBe(false);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("judges a search by content that feeds a change by the text of gobby's files, as the daemon reads them", async () => {
    mkdirSync(join(t.project, '.claude'), { recursive: true });
    writeFileSync(join(t.project, '.claude', 'settings.local.json'), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:7377/hooks/PreToolUse' }] }] } }));
    // The settings file holds "hooks", the workflow definition its phases' names.
    for (const command of ['grep -rl hooks . | xargs rm', 'grep -rli REVIEW-WITH-SHELL . | xargs sed -i s/a/b/', 'git grep -l PreToolUse | xargs rm']) {
      const { denied, reason } = await bash(command, fixSession);
      expect(denied, `${command}: ${reason}`).toBe(true);
      expect(reason).toContain('finds at run time');
    }
    // A rename across the project whose text none of gobby's files hold.
    for (const command of ['grep -rl oldName . | xargs sed -i s/oldName/newName/g', 'grep -rn oldName . | cut -d: -f1 | xargs sed -i s/oldName/newName/g']) {
      const { denied, reason } = await bash(command, fixSession);
      expect(denied, `${command}: ${reason}`).toBe(false);
    }
  });

  it('refuses a change of paths a file it reads lists, when the list names one of gobby\'s files, as the daemon reads it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'gobby-it-list-'));
    try {
      const evil = join(folder, 'stale.txt');
      writeFileSync(evil, 'build/old.js\n.gobby/workflows/review-with-shell.yaml\n');
      const fine = join(folder, 'ok.txt');
      writeFileSync(fine, 'build/old.js\nbuild/older.js\n');
      for (const command of [`xargs rm < ${evil}`, `rm -f $(cat ${evil})`, `while read f; do rm "$f"; done < ${evil}`]) {
        const { denied, reason } = await bash(command, fixSession);
        expect(denied, `${command}: ${reason}`).toBe(true);
        expect(reason).toContain(evil);
      }
      for (const command of [`xargs rm < ${fine}`, `rm -f $(cat ${fine})`, `xargs rm < ${join(folder, 'missing.txt')}`]) {
        const { denied, reason } = await bash(command, fixSession);
        expect(denied, `${command}: ${reason}`).toBe(false);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("refuses a signal to pids a file it reads holds, when one is the daemon's, as the daemon reads it", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'it-pids-')) // no `gobby` in the path: a pid read from a file named for gobby is refused by its name;
    try {
      const daemons = join(folder, 'p');
      writeFileSync(daemons, `${process.pid}\n`); // the daemon runs in this process
      const servers = join(folder, 'server.pid');
      writeFileSync(servers, `${process.pid + 1}\n`);
      for (const command of [`kill $(cat ${daemons})`, `xargs kill < ${daemons}`, `pkill -F ${daemons}`]) {
        const { denied, reason } = await bash(command, fixSession);
        expect(denied, `${command}: ${reason}`).toBe(true);
        expect(reason).toContain(`${daemons} holds its pid`);
      }
      for (const command of [`kill $(cat ${servers})`, `xargs kill < ${servers}`]) {
        const { denied, reason } = await bash(command, fixSession);
        expect(denied, `${command}: ${reason}`).toBe(false);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('judges an MCP tool that runs shell commands by its command, as Bash is judged', async () => {
    const refused: [string, Record<string, unknown>][] = [
      ['mcp__shell__run', { command: 'rm -rf .claude' }],
      ['mcp__desktop-commander__execute_command', { command: `cat ${join(t.home, 'token')}` }],
      ['mcp__term__runTerminalCommand', { cmd: 'gobby workflow phase review --force --reason x' }],
    ];
    for (const [tool, input] of refused) {
      const output = (await t.preToolUse(fixSession, tool, input)).body.hookSpecificOutput;
      expect(output?.permissionDecision, `${tool} ${JSON.stringify(input)}`).toBe('deny');
      expect(t.auditRows(fixSession).reverse().find((r) => r.event.startsWith('tamper:'))?.tool).toBe(tool);
    }
    expect((await t.preToolUse(fixSession, 'mcp__shell__run', { command: 'ls -la && npm test' })).body).toEqual({});
    // A tool whose name says nothing of running commands is not read as a shell.
    expect((await t.preToolUse(fixSession, 'mcp__docs__search', { command: 'rm -rf .claude' })).body).toEqual({});
  });
});

describe('an MCP tool that runs shell commands, in a phase that blocks the file tools', () => {
  it('is refused what Bash is refused, and runs what Bash runs', async () => {
    writeProjectWorkflow(
      t.project,
      'review-any-tool.yaml',
      `name: review-any-tool
phases:
  - name: review
    allowed_tools: all
    blocked_tools: [Write, Edit, NotebookEdit]
`,
    );
    await t.setWorkflow('review-any-tool');
    const reviewer = t.newSessionId();
    await t.sessionStart(reviewer);
    const run = async (command: string) => (await t.preToolUse(reviewer, 'mcp__shell__run', { command })).body.hookSpecificOutput;
    const refusal = await run('echo x > src/app.ts');
    expect(refusal?.permissionDecision).toBe('deny');
    expect(refusal?.permissionDecisionReason).toContain(`writes ${join(t.project, 'src/app.ts')}`);
    expect(await run('npm test && cat README.md')).toBeUndefined();
    // PowerShell, Bash's sibling, is code gobby does not parse: refused like opaque shell code.
    const powershell = (await t.preToolUse(reviewer, 'PowerShell', { command: 'Set-Content src/app.ts x' })).body.hookSpecificOutput;
    expect(powershell?.permissionDecision).toBe('deny');
    expect(powershell?.permissionDecisionReason).toContain('runs code gobby cannot see into (PowerShell)');
    expect(powershell?.permissionDecisionReason).toContain('allow_opaque: true');
    // An MCP tool that runs code it is given, with no shell command to judge.
    const kernel = (await t.preToolUse(reviewer, 'mcp__ide__executeCode', { code: "open('src/app.ts', 'w').write('x')" })).body.hookSpecificOutput;
    expect(kernel?.permissionDecision).toBe('deny');
    expect(kernel?.permissionDecisionReason).toContain('is an MCP tool whose name says it runs code gobby cannot see into (`mcp__ide__executeCode`)');
    expect((await t.preToolUse(reviewer, 'mcp__ide__getDiagnostics', {})).body).toEqual({});
  });
});
