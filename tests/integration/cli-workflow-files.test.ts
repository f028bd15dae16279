// The gobby CLI on workflow files that do not load, run as a user runs it (the built dist/
// CLI, a temporary GOBBY_HOME): `list`, `show` and `validate` work without a daemon, a file
// that does not load fails the command (exit 1) and says where and why, and `status` never
// calls a broken selection "none".
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltEntry, type EntryRun } from '../support/built-entry.js';
import { GOBBY_CLI } from '../support/gobby-process.js';
import { makeProject, TestDaemon, TOKEN, writeProjectWorkflow } from './test-daemon.js';

type Run = EntryRun;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
beforeAll(() => {
  if (!existsSync(GOBBY_CLI)) throw new Error(`${GOBBY_CLI} is missing: run \`npm run build\` first`);
});

function gobby(args: readonly string[], env: { home: string; port: number }, cwd: string): Promise<Run> {
  return runBuiltEntry(GOBBY_CLI, args, env, { cwd });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

const GOOD = 'name: reviewed\nphases:\n  - name: plan\n    allowed_tools: [Read, Grep]\n';
const TYPO = 'name: typo-flow\nphases:\n  - name: plan\n    blocked_tools: [Wirte, bash]\n';

/** A project with one good and one misspelled workflow, and a GOBBY_HOME with no daemon. */
async function withoutDaemon() {
  const home = mkdtempSync(join(tmpdir(), 'gobby-cli-home-'));
  const project = makeProject();
  cleanups.push(() => rmSync(home, { recursive: true, force: true }), () => rmSync(project, { recursive: true, force: true }));
  writeProjectWorkflow(project, 'reviewed.yaml', GOOD);
  const typo = writeProjectWorkflow(project, 'typo-flow.yaml', TYPO);
  return { env: { home, port: await closedPort() }, project, typo };
}

describe('without a daemon', () => {
  it('`list` prints the good workflows and the load errors, and exits 1', async () => {
    const { env, project, typo } = await withoutDaemon();
    const listed = await gobby(['workflow', 'list'], env, project);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain('the gobby daemon is not running');
    expect(listed.stderr).toContain('reading the workflow files directly');
    expect(listed.stdout).toMatch(/reviewed +project +plan/);
    expect(listed.stdout).toMatch(/plan-execute +builtin/);
    expect(listed.stdout).toContain(`error: ${typo}:4:21: phases.0.blocked_tools: unknown tool \`Wirte\` (did you mean \`Write\`?)`);
    expect(listed.stdout).toContain(`error: ${typo}:4:28: phases.0.blocked_tools: unknown tool \`bash\` (did you mean \`Bash\`?)`);

    const json = await gobby(['workflow', 'list', '--json'], env, project);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).errors).toHaveLength(2);
  });

  it('`show` prints a good workflow, and refuses a broken one with its load errors', async () => {
    const { env, project, typo } = await withoutDaemon();
    const shown = await gobby(['workflow', 'show', 'reviewed'], env, project);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('allowed: Read, Grep');
    const broken = await gobby(['workflow', 'show', 'typo-flow'], env, project);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`workflow \`typo-flow\` does not load: ${typo}:4:21: phases.0.blocked_tools: unknown tool \`Wirte\``);
    expect(broken.stderr).toMatch(/\[GOBBY_ERR_WORKFLOW_INVALID\]\n$/);
  });

  it('`validate` checks a file, a name, or every file, and exits 1 when one does not load', async () => {
    const { env, project, typo } = await withoutDaemon();
    const file = await gobby(['workflow', 'validate', '.gobby/workflows/reviewed.yaml'], env, project);
    expect(file).toMatchObject({ code: 0 });
    expect(file.stdout).toMatch(/^ok {5}.*reviewed\.yaml \(reviewed\)\n1 file\(s\) load\n$/);

    const byName = await gobby(['workflow', 'validate', 'typo-flow'], env, project);
    expect(byName.code).toBe(1);
    expect(byName.stdout).toContain(`error  ${typo}\n  ${typo}:4:21: phases.0.blocked_tools: unknown tool \`Wirte\` (did you mean \`Write\`?)`);

    const all = await gobby(['workflow', 'validate', '--json'], env, project);
    expect(all.code).toBe(1);
    const report = JSON.parse(all.stdout) as { files: { file: string; workflow: string | null; errors: unknown[] }[] };
    expect(report.files.filter((f) => f.errors.length > 0).map((f) => f.file)).toEqual([typo]);
    expect(report.files.map((f) => f.workflow)).toEqual(expect.arrayContaining(['reviewed', 'plan-execute']));

    // A scratch file outside any tier can be checked before it is put in place.
    const scratch = join(env.home, 'draft.yaml');
    writeFileSync(scratch, 'name: draft\nphases:\n  - name: a\n    alowed_tools: [Read]\n');
    const draft = await gobby(['workflow', 'validate', scratch], env, project);
    expect(draft.code).toBe(1);
    expect(draft.stdout).toContain(`${scratch}:4:5: phases.0: unknown key \`alowed_tools\` (did you mean \`allowed_tools\`?)`);

    // Checked as the daemon would load it: a file over the 64 KB limit does not pass here either.
    const huge = join(env.home, 'huge.yaml');
    writeFileSync(huge, `name: huge\nphases:\n  - name: a\n${'# padding\n'.repeat(7000)}`);
    const tooLarge = await gobby(['workflow', 'validate', huge], env, project);
    expect(tooLarge.code).toBe(1);
    expect(tooLarge.stdout).toContain('above the 65536-byte (64 KB) limit for a workflow definition');

    const unknown = await gobby(['workflow', 'validate', 'nope'], env, project);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('[GOBBY_ERR_WORKFLOW_NOT_FOUND]');
  });
});

describe('against a running daemon', () => {
  async function runningDaemon() {
    const t = TestDaemon.create();
    cleanups.push(() => t.dispose());
    writeFileSync(t.layout.token, `${TOKEN}\n`, { mode: 0o600 });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    return { t, env: { home: t.home, port: typeof address === 'object' && address ? address.port : 0 } };
  }

  it('`set` on a broken file shows its load error, not "no workflow named"', async () => {
    const { t, env } = await runningDaemon();
    const typo = writeProjectWorkflow(t.project, 'typo-flow.yaml', TYPO);
    const set = await gobby(['workflow', 'set', 'typo-flow'], env, t.project);
    expect(set.code).toBe(1);
    expect(set.stderr).toContain(`${typo}:4:21: phases.0.blocked_tools: unknown tool \`Wirte\` (did you mean \`Write\`?)`);
    expect(set.stderr).not.toContain('no workflow named');
  });

  it('`show` and `status` say the file is broken while its last good version runs', async () => {
    const { t, env } = await runningDaemon();
    const file = writeProjectWorkflow(t.project, 'reviewed.yaml', GOOD);
    await t.setWorkflow('reviewed');
    writeFileSync(file, GOOD.replace('[Read, Grep]', '[Read, Grep'));
    await t.restart();
    await t.app.listen({ host: '127.0.0.1', port: env.port });
    await t.sessionStart(t.newSessionId());

    const shown = await gobby(['workflow', 'show', 'reviewed'], env, t.project);
    expect(shown.code).toBe(1);
    expect(shown.stdout).toMatch(/^THE FILE ON DISK DOES NOT LOAD; below is the last version that loaded/);
    expect(shown.stdout).toMatch(new RegExp(`error: ${file}:\\d+:\\d+: invalid YAML`));
    expect(shown.stdout).toContain('allowed: Read, Grep');

    const status = await gobby(['workflow', 'status'], env, t.project);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^workflow {2}reviewed /m);
    expect(status.stdout).toMatch(/^BROKEN {4}the file of reviewed does not load: this session keeps the version it started with/m);
    expect(status.stdout).not.toContain('none — choose one');
  });

  it('`status` names a selection with no good version instead of "none — choose one"', async () => {
    const { t, env } = await runningDaemon();
    const file = writeProjectWorkflow(t.project, 'reviewed.yaml', GOOD);
    await t.setWorkflow('reviewed');
    writeFileSync(file, GOOD.replace('[Read, Grep]', '[Read, Grep'));
    t.daemon.store.db.prepare('DELETE FROM last_good_definitions').run();
    await t.restart();
    await t.app.listen({ host: '127.0.0.1', port: env.port });
    await t.sessionStart(t.newSessionId());

    const status = await gobby(['workflow', 'status'], env, t.project);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^workflow {2}reviewed \(selected\) — NOT RUNNING: no version of it ever loaded; nothing can run: tools are refused \(strict mode\)/m);
    expect(status.stdout).toMatch(new RegExp(`^ {2}error: ${file}:\\d+:\\d+: invalid YAML`, 'm'));
    expect(status.stdout).not.toContain('none — choose one');
  });
});
