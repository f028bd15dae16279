// State lives in SQLite: a daemon restart loses nothing, a running session keeps the
// definition it started with, and the audit log can only grow.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../daemon/package-info.js';
import { listMigrationFiles } from '../../daemon/store/migrate.js';
import { lastDecisionFor, TestDaemon, writeProjectWorkflow, type Json } from './test-daemon.js';

let t: TestDaemon;
afterEach(async () => {
  await t.dispose();
});

/** A project workflow whose plan phase either refuses or allows Bash: easy to tell apart. */
function flowYaml(version: 1 | 2): string {
  return [
    'name: flow',
    `description: Project flow, version ${version}.`,
    'phases:',
    '  - name: plan',
    `    allowed_tools: [Read, Grep${version === 2 ? ', Bash' : ''}]`,
    '    exit_conditions:',
    '      - type: user_approval',
    `        prompt: "${version === 1 ? 'Ready?' : 'Ready to build (v2)?'}"`,
    '  - name: build',
    '    allowed_tools: all',
    '',
  ].join('\n');
}

async function bashDecision(session: string): Promise<string> {
  const reply = await t.preToolUse(session, 'Bash', { command: 'npm test' });
  expect(reply.status).toBe(200);
  return (reply.body as Json).hookSpecificOutput?.permissionDecision ?? 'none';
}

describe('a daemon restart', () => {
  beforeEach(() => {
    t = TestDaemon.create();
  });

  it('keeps the phase, counts, pending approval and audit rows', async () => {
    await t.setWorkflow('plan-execute');
    const session = t.newSessionId();
    await t.sessionStart(session);
    await t.prompt(session, 'Plan the change');
    await t.preToolUse(session, 'Read', { file_path: 'a.ts' });
    await t.postToolUse(session, 'Read', { file_path: 'a.ts' });
    await t.preToolUse(session, 'Write', { file_path: 'a.ts', content: '' });
    await t.stop(session);
    const before = (await t.status()).body;
    const auditBefore = t.auditRows(session);
    expect(before.pending_approval).not.toBeNull();

    await t.restart();

    const after = (await t.status()).body;
    expect(after).toMatchObject({
      session_id: session,
      workflow: 'plan-execute',
      phase: 'plan',
      action_counts: { phase: 1, total: 1, blocked: 1 },
      pending_approval: before.pending_approval,
      definition: before.definition,
      decision_counts: before.decision_counts,
    });
    expect(after.last_decisions).toEqual(before.last_decisions);
    expect(t.auditRows(session)).toEqual(auditBefore);

    // …and the session carries on where it was: the user's "yes" still answers the question.
    const yes = await t.prompt(session, 'yes');
    expect(yes.body.hookSpecificOutput.additionalContext).toContain('EXECUTION phase');
    expect((await t.status()).body.phase).toBe('execute');
    expect(await bashDecision(session)).toBe('none');
  });

  it('keeps the project workflow for sessions that start after it', async () => {
    await t.setWorkflow('plan-execute');
    await t.restart();
    const session = t.newSessionId();
    const start = await t.sessionStart(session);
    expect(start.body.hookSpecificOutput.additionalContext).toContain('PLANNING phase');
    expect(await bashDecision(session)).toBe('deny');
  });

  it('keeps ended sessions ended, and overrides audited', async () => {
    await t.setWorkflow('plan-execute');
    const session = t.newSessionId();
    await t.sessionStart(session);
    await t.api('POST', '/api/sessions/disable', { cwd: t.project, reason: 'pairing session' }, { 'x-gobby-actor': 'carol' });
    await t.hook('SessionEnd', session, { reason: 'other' });
    await t.restart();
    const status = (await t.status()).body;
    expect(status.session).toMatchObject({ end_reason: 'other' });
    expect(status.session.ended_at).not.toBeNull();
    expect(status.disabled).toMatchObject({ reason: 'pairing session' });
    expect(lastDecisionFor(status, 'override:disable')).toMatchObject({ actor: 'cli:carol', reason: 'pairing session' });
    expect((await t.api('GET', '/api/daemon')).body.active_sessions).toBe(0);
  });

  it('records each migration once, however often it opens the file', async () => {
    await t.restart();
    await t.restart();
    const migrations = listMigrationFiles(MIGRATIONS_DIR).map(({ version, name }) => ({ version, name }));
    expect(migrations.slice(0, 2)).toEqual([
      { version: 1, name: 'initial' },
      { version: 2, name: 'workflows_per_session' },
    ]);
    const latest = migrations.at(-1)!.version;
    const rows = t.daemon.store.db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    expect(rows).toEqual(migrations);
    expect(t.daemon.schemaVersion).toBe(latest);
    const info = await t.api('GET', '/api/daemon');
    expect(info.body).toMatchObject({ schema_version: latest, database: t.layout.database });
  });
});

describe('the audit log', () => {
  beforeEach(() => {
    t = TestDaemon.create();
  });

  it('refuses UPDATE and DELETE (append-only triggers), also from another connection', async () => {
    await t.setWorkflow('plan-execute');
    const session = t.newSessionId();
    await t.sessionStart(session);
    await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' });
    const rowsBefore = t.auditRows(session);
    const { db } = t.daemon.store;
    expect(() => db.prepare(`UPDATE audit_log SET decision = 'allow' WHERE decision = 'deny'`).run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);

    const other = new Database(t.layout.database);
    try {
      expect(() => other.prepare('DELETE FROM audit_log WHERE session_id = ?').run(session)).toThrow(/append-only/);
      expect(() => other.prepare(`UPDATE audit_log SET reason = 'nothing happened'`).run()).toThrow(/append-only/);
    } finally {
      other.close();
    }
    expect(t.auditRows(session)).toEqual(rowsBefore);
    expect(rowsBefore.some((row) => row.decision === 'deny')).toBe(true);
  });
});

describe('pinned definitions', () => {
  it('a running session keeps its definition when the project file is edited; new sessions and reset get the new one', async () => {
    t = TestDaemon.create({ watchDefinitions: true });
    const file = writeProjectWorkflow(t.project, 'flow.yaml', flowYaml(1));
    expect((await t.setWorkflow('flow')).body.definition).toEqual({ file, tier: 'project' });
    const first = t.newSessionId();
    await t.sessionStart(first);
    expect(await bashDecision(first)).toBe('deny');
    const pinnedHash = (await t.status(t.project, first)).body.definition.hash as string;

    // Edit the definition (a different size, so even a same-millisecond mtime counts as a
    // change) and wait until the daemon's watcher has seen it.
    const seen = t.nextDefinitionsChange(dirname(file));
    writeFileSync(file, flowYaml(2));
    await seen;

    // A new session gets version 2.
    const second = t.newSessionId();
    await t.sessionStart(second);
    expect(await bashDecision(second)).toBe('none');
    expect((await t.status(t.project, second)).body.definition.hash).not.toBe(pinnedHash);

    // The running session still runs version 1, also across a restart.
    expect(await bashDecision(first)).toBe('deny');
    expect((await t.preToolUse(first, 'Write', { file_path: 'a', content: 'b' })).body.hookSpecificOutput.permissionDecisionReason).toContain(
      'Ready?',
    );
    await t.restart();
    expect(await bashDecision(first)).toBe('deny');
    expect((await t.status(t.project, first)).body.definition.hash).toBe(pinnedHash);

    // Reset reloads: the session now runs version 2.
    const reset = await t.api('POST', '/api/sessions/reset', { cwd: t.project, session: first, reason: 'pick up the new flow' });
    expect(reset.status).toBe(200);
    expect(reset.body.definition_hash).not.toBe(pinnedHash);
    expect(await bashDecision(first)).toBe('none');
    expect(lastDecisionFor((await t.status(t.project, first)).body, 'override:reset').because).toContain(`definition ${pinnedHash} →`);
  });

  it('without file watching, the CLI view (list, set, reset) still sees the edit', async () => {
    t = TestDaemon.create({ watchDefinitions: false });
    const file = writeProjectWorkflow(t.project, 'flow.yaml', flowYaml(1));
    await t.setWorkflow('flow');
    const session = t.newSessionId();
    await t.sessionStart(session);
    expect(await bashDecision(session)).toBe('deny');
    writeFileSync(file, flowYaml(2));
    const list = await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(t.project)}`);
    expect((list.body.workflows as Json[]).find((w) => w.name === 'flow').description).toBe('Project flow, version 2.');
    expect(await bashDecision(session)).toBe('deny');
    await t.api('POST', '/api/sessions/reset', { cwd: t.project, reason: 'reload' });
    expect(await bashDecision(session)).toBe('none');
  });

  it('a running session keeps enforcing when its project file is deleted', async () => {
    t = TestDaemon.create();
    const file = writeProjectWorkflow(t.project, 'flow.yaml', flowYaml(1));
    await t.setWorkflow('flow');
    const session = t.newSessionId();
    await t.sessionStart(session);
    rmSync(file);
    await t.restart();
    expect(await bashDecision(session)).toBe('deny');
    expect((await t.status()).body.workflow).toBe('flow');

    // A new session starts on the last version that loaded, and the user is told the file is gone.
    const fresh = t.newSessionId();
    expect((await t.sessionStart(fresh)).body.systemMessage).toContain(`${file}:1:1: the file is gone`);
    expect(await bashDecision(fresh)).toBe('deny');
    const status = (await t.status(t.project, fresh)).body;
    expect(status.workflow).toBe('flow');
    expect(status.workflow_problem.consequence).toContain('keeps the version it started with');
  });
});

describe('hot reload of project definitions (file watching on)', () => {
  const ONLY_READ = 'name: plan-execute\nphases:\n  - name: only\n    allowed_tools: [Read]\n';

  /** The tier of the definition a new session runs. */
  async function tierOfNewSession(): Promise<string> {
    const session = t.newSessionId();
    await t.sessionStart(session);
    return (await t.status(t.project, session)).body.definition.tier as string;
  }

  it('picks up a copy of a built-in added to an existing .gobby/workflows/', async () => {
    t = TestDaemon.create({ watchDefinitions: true });
    const directory = join(t.project, '.gobby', 'workflows');
    mkdirSync(directory, { recursive: true });
    await t.setWorkflow('plan-execute');
    expect(await tierOfNewSession()).toBe('builtin');
    const seen = t.nextDefinitionsChange(directory);
    writeProjectWorkflow(t.project, 'plan-execute.yaml', ONLY_READ);
    await seen;
    expect(await tierOfNewSession()).toBe('project');
  });

  // The usual case: `gobby workflow set plan-execute`, then the template is copied to a
  // `.gobby/workflows/` that did not exist (nor did `.gobby/`). chokidar cannot watch a
  // folder whose parent is missing, so the catalog looks for it again at every lookup until
  // it appears: the very next session sees it, with no watcher event to wait for.
  it('picks up .gobby/workflows/ created after the first session of a project', async () => {
    t = TestDaemon.create({ watchDefinitions: true });
    await t.setWorkflow('plan-execute');
    expect(await tierOfNewSession()).toBe('builtin');
    writeProjectWorkflow(t.project, 'plan-execute.yaml', ONLY_READ);
    expect(await tierOfNewSession()).toBe('project');
  });

  // gobby's ground knows the definitions the catalog has read: a search that would find one
  // (`find . -name … -delete`) is refused once the file is there, not only after a restart.
  it("protects a definition added while the daemon runs from a search that would delete it", async () => {
    t = TestDaemon.create({ watchDefinitions: true });
    const directory = join(t.project, '.gobby', 'workflows');
    writeProjectWorkflow(t.project, 'free.yaml', 'name: free\nphases:\n  - name: work\n    allowed_tools: all\n');
    await t.setWorkflow('free');
    const session = t.newSessionId();
    await t.sessionStart(session);
    const search = "find . -name 'late*.yaml' -delete";
    const before = (await t.preToolUse(session, 'Bash', { command: search })).body;
    expect(before.hookSpecificOutput?.permissionDecision).not.toBe('deny');
    const seen = t.nextDefinitionsChange(directory);
    writeProjectWorkflow(t.project, 'late-review.yaml', ONLY_READ);
    await seen;
    const after = (await t.preToolUse(session, 'Bash', { command: search })).body;
    expect(after.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(String(after.hookSpecificOutput?.permissionDecisionReason)).toContain("gobby's own ground");
    expect(t.auditRows(session).some((row) => row.event === 'tamper:protected-file')).toBe(true);
  });

  it('picks up a user-tier definition added to $GOBBY_HOME/workflows/', async () => {
    t = TestDaemon.create({ watchDefinitions: true });
    // The daemon creates this folder when it starts (daemon/main.ts), so it is watched.
    mkdirSync(t.layout.userWorkflows, { recursive: true });
    await t.setWorkflow('plan-execute');
    expect(await tierOfNewSession()).toBe('builtin');
    const seen = t.nextDefinitionsChange(t.layout.userWorkflows);
    writeFileSync(join(t.layout.userWorkflows, 'plan-execute.yaml'), ONLY_READ);
    await seen;
    expect(await tierOfNewSession()).toBe('user');
  });
});
