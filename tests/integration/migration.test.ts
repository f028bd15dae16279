// Migrations run forward on a database that an earlier gobby wrote, without loss. The
// database here is built by applying only 001_initial.sql and inserting rows the way the
// daemon of schema 1 wrote them (same columns, same JSON); then today's daemon opens it.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeDaemon, type ComposedDaemon } from '../../daemon/compose.js';
import { homeLayout, type HomeLayout } from '../../daemon/home-layout.js';
import { MIGRATIONS_DIR } from '../../daemon/package-info.js';
import { applyMigrations, listMigrationFiles } from '../../daemon/store/migrate.js';
import { AUTH, createTestClock, hookPayload, makeProject, TOKEN, writeProjectWorkflow, type Json } from './test-daemon.js';

const HOUR = 3_600_000;
/** When the old daemon wrote its rows: the day before the test clock starts. */
const T0 = Date.UTC(2025, 11, 31, 9);
const APPLIED_001_AT = T0 - 24 * HOUR;

const FLOW_YAML = [
  'name: flow',
  'description: Project flow, version 1.',
  'phases:',
  '  - name: plan',
  '    allowed_tools: [Read, Grep]',
  '    exit_conditions:',
  '      - type: user_approval',
  '        prompt: "Ready?"',
  '  - name: build',
  '    allowed_tools: all',
  '',
].join('\n');
const FLOW_HASH = createHash('sha256').update(FLOW_YAML).digest('hex').slice(0, 16);

const SESSION_PLANNING = '11111111-1111-4111-8111-111111111111';
const SESSION_ENDED = '22222222-2222-4222-8222-222222222222';
const SESSION_ELSEWHERE = '33333333-3333-4333-8333-333333333333';

let home: string;
let project: string;
let otherProject: string;
let layout: HomeLayout;
let daemon: ComposedDaemon | undefined;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'gobby-it-home-'));
  project = makeProject();
  otherProject = makeProject();
  layout = homeLayout(home);
});

afterEach(async () => {
  await daemon?.close();
  daemon = undefined;
  for (const directory of [home, project, otherProject]) rmSync(directory, { recursive: true, force: true });
});

/** A database as gobby with schema 1 left it: two projects, three sessions, states and an audit trail. */
function writeSchemaOneDatabase(): void {
  const onlyFirst = mkdtempSync(join(tmpdir(), 'gobby-it-migrations-'));
  try {
    copyFileSync(join(MIGRATIONS_DIR, '001_initial.sql'), join(onlyFirst, '001_initial.sql'));
    mkdirSync(home, { recursive: true });
    const db = new Database(layout.database);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    applyMigrations(db, onlyFirst, APPLIED_001_AT);
    seedRows(db);
    db.close();
  } finally {
    rmSync(onlyFirst, { recursive: true, force: true });
  }
}

function seedRows(db: Database.Database): void {
  const flowFile = join(project, '.gobby', 'workflows', 'flow.yaml');
  db.prepare('INSERT INTO projects (id, root, workflow, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(1, project, 'flow', T0, T0 + HOUR);
  db.prepare('INSERT INTO projects (id, root, workflow, created_at, updated_at) VALUES (?, ?, NULL, ?, ?)').run(2, otherProject, T0, T0);

  const session = db.prepare(`INSERT INTO sessions (id, project_id, cwd, transcript_path, started_at, last_event_at, ended_at, end_reason)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  session.run(SESSION_ENDED, 1, project, `/home/user/.claude/projects/p/${SESSION_ENDED}.jsonl`, T0, T0 + 2 * HOUR, T0 + 3 * HOUR, 'clear');
  session.run(SESSION_PLANNING, 1, join(project, 'src'), `/home/user/.claude/projects/p/${SESSION_PLANNING}.jsonl`, T0 + HOUR, T0 + 4 * HOUR, null, null);
  session.run(SESSION_ELSEWHERE, 2, otherProject, null, T0, T0 + 10_000, null, null);

  const state = db.prepare(`INSERT INTO workflow_states
      (session_id, workflow, definition_hash, definition_file, definition_tier, definition_text, state_json, updated_at)
    VALUES (?, 'flow', ?, ?, 'project', ?, ?, ?)`);
  // Waiting in plan for the user's "yes", with one blocked call behind it.
  state.run(SESSION_PLANNING, FLOW_HASH, flowFile, FLOW_YAML, JSON.stringify({
    workflow: 'flow',
    definitionHash: FLOW_HASH,
    phase: 'plan',
    phaseEnteredAt: T0 + HOUR,
    phaseActionCount: 2,
    totalActionCount: 2,
    blockedCount: 1,
    variables: {},
    pendingApproval: { phase: 'plan', prompt: 'Ready?', askedAt: T0 + 4 * HOUR },
    pendingMessages: [],
    disabled: null,
  }), T0 + 4 * HOUR);
  // Forced into build by a human, then disabled: both show in its status.
  state.run(SESSION_ENDED, FLOW_HASH, flowFile, FLOW_YAML, JSON.stringify({
    workflow: 'flow',
    definitionHash: FLOW_HASH,
    phase: 'build',
    phaseEnteredAt: T0 + 2 * HOUR,
    phaseActionCount: 0,
    totalActionCount: 5,
    blockedCount: 2,
    variables: { ticket: 'GOB-7' },
    pendingApproval: null,
    pendingMessages: ['You are now in phase build.'],
    disabled: { reason: 'pairing session', at: T0 + 2 * HOUR + 60_000 },
  }), T0 + 2 * HOUR + 60_000);

  const audit = db.prepare(`INSERT INTO audit_log
      (at, session_id, event, tool_name, tool_use_id, decision, workflow, phase, because, reason, actor, detail_json)
    VALUES (@at, @sessionId, @event, @toolName, @toolUseId, @decision, @workflow, @phase, @because, @reason, @actor, @detail)`);
  const row = (fields: Record<string, unknown>) =>
    audit.run({ toolName: null, toolUseId: null, workflow: 'flow', phase: 'plan', reason: null, actor: 'claude-code', detail: null, ...fields });
  row({ at: T0, sessionId: SESSION_ENDED, event: 'phase_changed', decision: 'none', because: '(start) → plan: workflow started',
    detail: JSON.stringify({ type: 'phase_changed', from: null, to: 'plan', cause: 'workflow started' }) });
  row({ at: T0, sessionId: SESSION_ENDED, event: 'SessionStart', decision: 'context', because: 'phase plan', reason: 'You are in phase plan.',
    detail: JSON.stringify({ source: 'startup' }) });
  row({ at: T0 + 1000, sessionId: SESSION_ENDED, event: 'PreToolUse', toolName: 'Write', toolUseId: 'toolu_01AAAAAAAAAAAAAAAAAAAAAAAA', decision: 'deny',
    because: 'phase plan: Write is not allowed', reason: 'gobby: Write is not allowed in phase plan.',
    detail: JSON.stringify({ file_path: 'src/a.ts', permission_mode: 'default' }) });
  row({ at: T0 + 2 * HOUR, sessionId: SESSION_ENDED, event: 'override:phase', decision: 'none', because: 'forced plan → build',
    reason: 'the plan was agreed on a call', actor: 'cli:alice@laptop' });
  row({ at: T0 + 2 * HOUR, sessionId: SESSION_ENDED, event: 'phase_changed', phase: 'build', decision: 'none',
    because: 'plan → build: forced by cli:alice@laptop: the plan was agreed on a call', actor: 'cli:alice@laptop',
    detail: JSON.stringify({ type: 'phase_changed', from: 'plan', to: 'build', cause: 'forced by cli:alice@laptop: the plan was agreed on a call' }) });
  row({ at: T0 + 2 * HOUR + 60_000, sessionId: SESSION_ENDED, event: 'override:disable', phase: 'build', decision: 'none',
    because: 'enforcement disabled', reason: 'pairing session', actor: 'cli:bob' });
  row({ at: T0 + 3 * HOUR, sessionId: SESSION_ENDED, event: 'SessionEnd', phase: 'build', decision: 'allow', because: 'workflow disabled: pairing session',
    detail: JSON.stringify({ permission_mode: 'default' }) });
  row({ at: T0 + HOUR, sessionId: SESSION_PLANNING, event: 'PreToolUse', toolName: 'Bash', toolUseId: 'toolu_01BBBBBBBBBBBBBBBBBBBBBBBB', decision: 'deny',
    because: 'phase plan: Bash is not allowed', reason: 'gobby: Bash is not allowed in phase plan.', detail: JSON.stringify({ command: 'npm test' }) });
  row({ at: T0 + 4 * HOUR, sessionId: SESSION_PLANNING, event: 'approval_requested', decision: 'none', because: "waiting for the user's approval: Ready?",
    detail: JSON.stringify({ type: 'approval_requested', phase: 'plan', prompt: 'Ready?' }) });
  row({ at: T0 + 10_000, sessionId: SESSION_ELSEWHERE, event: 'PreToolUse', toolName: 'Read', decision: 'none', workflow: null, phase: null,
    because: 'no workflow for this session' });
}

type Rows = Record<string, unknown>[];

function readTables(db: Database.Database) {
  return {
    projects: db.prepare('SELECT * FROM projects ORDER BY id').all() as Rows,
    sessions: db.prepare('SELECT * FROM sessions ORDER BY id').all() as Rows,
    workflowStates: db.prepare('SELECT * FROM workflow_states ORDER BY session_id').all() as Rows,
    audit: db.prepare('SELECT * FROM audit_log ORDER BY id').all() as Rows,
  };
}

function readSchemaOneTables() {
  const db = new Database(layout.database, { readonly: true });
  try {
    return readTables(db);
  } finally {
    db.close();
  }
}

function startDaemon(): ComposedDaemon {
  // The project file the sessions were pinned to is still there, as it would be.
  writeProjectWorkflow(project, 'flow.yaml', FLOW_YAML);
  daemon = composeDaemon({ layout, token: TOKEN, logger: false, bodyLimitBytes: 1024 * 1024, watchDefinitions: false, clock: createTestClock() });
  return daemon;
}

async function api(method: 'GET' | 'POST', url: string, body?: Record<string, unknown>, actor = 'tester'): Promise<{ status: number; body: Json }> {
  const reply = await daemon!.app.inject({
    method,
    url,
    headers: { ...AUTH, host: '127.0.0.1:4517', 'x-gobby-actor': actor },
    ...(body ? { payload: body } : {}),
  });
  return { status: reply.statusCode, body: reply.json() };
}

async function hook(event: string, sessionId: string, fields: Record<string, unknown>, cwd = project): Promise<Json> {
  const reply = await daemon!.app.inject({
    method: 'POST',
    url: `/hooks/${event}`,
    headers: { 'content-type': 'application/json', host: '127.0.0.1:4517' },
    payload: hookPayload(event, sessionId, cwd, fields),
  });
  expect(reply.statusCode).toBe(200);
  return reply.json();
}

const status = (session: string) => api('GET', `/api/status?cwd=${encodeURIComponent(project)}&session=${session}`);

describe('migrating a database written by schema 1', () => {
  it('keeps every project, session, workflow state and audit row', () => {
    writeSchemaOneDatabase();
    const before = readSchemaOneTables();
    expect(before.audit).toHaveLength(10);

    const { store, schemaVersion } = startDaemon();
    const after = readTables(store.db);
    const versions = listMigrationFiles(MIGRATIONS_DIR).map((m) => m.version);
    expect(schemaVersion).toBe(Math.max(...versions));
    expect(store.db.prepare('SELECT version, applied_at AS appliedAt FROM schema_migrations ORDER BY version').all()).toEqual(
      versions.map((version) => ({ version, appliedAt: version === 1 ? APPLIED_001_AT : expect.any(Number) })),
    );

    // Sessions gained failure_mode (migration 005), unknown for sessions that started before it.
    expect(after.sessions).toEqual(before.sessions.map((row) => ({ ...row, failure_mode: null })));
    // projects.workflow moved to project_workflows, as the project's phase workflow.
    expect(after.projects).toEqual(before.projects.map(({ workflow: _moved, ...rest }) => rest));
    expect(store.db.prepare('SELECT project_id, workflow, kind FROM project_workflows ORDER BY project_id').all()).toEqual([
      { project_id: 1, workflow: 'flow', kind: 'phase' },
    ]);
    expect(store.projects.find(project)).toEqual({ id: 1, root: project, workflow: 'flow' });
    expect(store.projects.find(otherProject)).toEqual({ id: 2, root: otherProject, workflow: null });
    // Each session's one workflow became its phase workflow, definition text and state intact.
    expect(after.workflowStates).toEqual(before.workflowStates.map((row) => ({ ...row, kind: 'phase' })));
    // Audit rows keep their ids (the order of the log) and belong to their sessions.
    expect(after.audit).toEqual(before.audit.map((row) => ({ ...row, project_id: null })));
    // The selected workflow's newest pinned definition became its last good version, so a
    // file broken before the first start of this gobby still has a version to run.
    const newestPinned = [...before.workflowStates]
      .filter((row) => row.workflow === 'flow')
      .sort((a, b) => Number(b.updated_at) - Number(a.updated_at))[0]!;
    expect(store.lastGood.get(1, 'flow')).toMatchObject({
      definitionHash: newestPinned.definition_hash,
      definition: { file: newestPinned.definition_file, text: newestPinned.definition_text },
    });
    expect(store.lastGood.get(2, 'flow')).toBeUndefined();
  });

  it('runs the migrated sessions where they were: a hook event keeps the phase, a "yes" answers the pending question', async () => {
    writeSchemaOneDatabase();
    startDaemon();

    const planning = (await status(SESSION_PLANNING)).body;
    expect(planning).toMatchObject({
      session_id: SESSION_PLANNING,
      project_workflow: 'flow',
      workflow: 'flow',
      phase: 'plan',
      definition: { tier: 'project', hash: FLOW_HASH },
      action_counts: { phase: 2, total: 2, blocked: 1 },
      pending_approval: { phase: 'plan', prompt: 'Ready?' },
      decision_counts: { deny: 1, none: 1 },
    });

    const bash = await hook('PreToolUse', SESSION_PLANNING, { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_01CCCCCCCCCCCCCCCCCCCCCCCC' });
    expect(bash.hookSpecificOutput.permissionDecision).toBe('deny');
    const held = (await status(SESSION_PLANNING)).body;
    expect(held).toMatchObject({ phase: 'plan', action_counts: { blocked: 2 }, pending_approval: { prompt: 'Ready?' } });
    expect(held.last_decisions[0]).toMatchObject({ event: 'PreToolUse', tool: 'Bash', decision: 'deny', phase: 'plan' });

    await hook('UserPromptSubmit', SESSION_PLANNING, { prompt: 'yes', prompt_id: 'p-1' });
    expect((await status(SESSION_PLANNING)).body.phase).toBe('build');

    // The ended session reads as it did: forced into build by alice, disabled by bob.
    const ended = (await status(SESSION_ENDED)).body;
    expect(ended).toMatchObject({
      phase: 'build',
      variables: { ticket: 'GOB-7' },
      disabled: { reason: 'pairing session' },
      session: { end_reason: 'clear' },
    });
    expect(ended.last_decisions.find((row: Json) => row.event === 'override:phase')).toMatchObject({
      actor: 'cli:alice@laptop',
      reason: 'the plan was agreed on a call',
    });

    // The project's workflow still reaches new sessions, and clearing it is now audited.
    const fresh = '44444444-4444-4444-8444-444444444444';
    await hook('SessionStart', fresh, { source: 'startup', model: 'claude-sonnet-4-5' });
    expect((await status(fresh)).body).toMatchObject({ workflow: 'flow', phase: 'plan' });
    const cleared = await api('POST', '/api/projects/workflow/clear', { cwd: project, reason: 'done with the flow' }, 'carol');
    expect(cleared.body).toEqual({ project, previous_workflow: 'flow' });
    const listing = (await api('GET', `/api/workflows?cwd=${encodeURIComponent(project)}`)).body;
    expect(listing.project_workflow).toBeNull();
    expect(listing.project_events[0]).toMatchObject({ event: 'workflow:clear', workflow: 'flow', actor: 'cli:carol', reason: 'done with the flow' });
  });

  it('keeps the audit log append-only', async () => {
    writeSchemaOneDatabase();
    const { store } = startDaemon();
    await api('POST', '/api/projects/workflow/clear', { cwd: project, reason: 'a project-level row too' });
    const rows = store.db.prepare('SELECT * FROM audit_log ORDER BY id').all();
    expect(rows).toHaveLength(11);

    const triggers = store.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log' ORDER BY name`).all();
    expect(triggers).toEqual([{ name: 'audit_log_is_append_only_delete' }, { name: 'audit_log_is_append_only_update' }]);
    expect(() => store.db.prepare(`UPDATE audit_log SET decision = 'allow' WHERE decision = 'deny'`).run()).toThrow(/append-only/);
    expect(() => store.db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    const other = new Database(layout.database);
    try {
      expect(() => other.prepare('DELETE FROM audit_log WHERE session_id IS NULL').run()).toThrow(/append-only/);
      expect(() => other.prepare(`UPDATE audit_log SET actor = 'nobody'`).run()).toThrow(/append-only/);
    } finally {
      other.close();
    }
    expect(store.db.prepare('SELECT * FROM audit_log ORDER BY id').all()).toEqual(rows);
  });
});
