// A project's workflow file that stops loading never switches enforcement off in silence:
// across a daemon restart the last good version keeps running and the user is told; with no
// good version at all, strict sessions are refused their tools and lenient ones are warned.
import { rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookPayload, TestDaemon, writeProjectWorkflow, type Json } from './test-daemon.js';

let t: TestDaemon;
let file: string;
beforeEach(() => {
  t = TestDaemon.create();
});
afterEach(async () => {
  await t.dispose();
});

/** Writes are refused in `plan`; version 2 also allows Bash there. */
function testFirst(version: 1 | 2): string {
  return [
    'name: test-first',
    'phases:',
    '  - name: plan',
    `    allowed_tools: [Read, Grep${version === 2 ? ', Bash' : ''}]`,
    '    exit_conditions:',
    '      - type: user_approval',
    '  - name: build',
    '',
  ].join('\n');
}
/** A YAML mistake: an unclosed flow sequence. */
const BROKEN = testFirst(1).replace('allowed_tools: [Read, Grep]', 'allowed_tools: [Read, Grep');

/** SessionStart as the command client sends it, saying how the hooks were installed. */
function sessionStart(session: string, failureMode?: 'strict' | 'lenient') {
  t.clock.advance(1000);
  return t.inject<Json>({
    method: 'POST',
    url: '/hooks/SessionStart',
    headers: { 'content-type': 'application/json', host: t.hostHeader, ...(failureMode ? { 'x-gobby-failure-mode': failureMode } : {}) },
    payload: hookPayload('SessionStart', session, t.project, { source: 'startup', model: 'claude-sonnet-4-5' }),
  });
}

async function writeDecision(session: string): Promise<{ decision: string; reason: string | undefined }> {
  const reply = await t.preToolUse(session, 'Write', { file_path: 'a.ts', content: '' });
  expect(reply.status).toBe(200);
  const output = reply.body.hookSpecificOutput;
  return { decision: output?.permissionDecision ?? 'none', reason: output?.permissionDecisionReason };
}

function listWorkflows() {
  return t.api('GET', `/api/workflows?cwd=${encodeURIComponent(t.project)}`);
}

async function selectThenBreakAndRestart(): Promise<void> {
  file = writeProjectWorkflow(t.project, 'test-first.yaml', testFirst(1));
  expect((await t.setWorkflow('test-first')).status).toBe(200);
  writeFileSync(file, BROKEN);
  await t.restart();
}

describe('a workflow file broken while the daemon was down', () => {
  it('keeps enforcing its last good version, and says so at session start, on each prompt and in status', async () => {
    await selectThenBreakAndRestart();
    const session = t.newSessionId();
    const started = await sessionStart(session, 'strict');
    expect(started.body.systemMessage).toMatch(new RegExp(`${file}:\\d+:\\d+: invalid YAML`));
    expect(started.body.systemMessage).toContain('runs the last good version of `test-first`');
    // The model still gets the phase's rules: Write is refused by the last good version.
    expect((await writeDecision(session)).decision).toBe('deny');
    expect((await t.prompt(session, 'go on')).body.systemMessage).toMatch(/test-first\.yaml:\d+:\d+: invalid YAML.*keeps the version of `test-first`/);

    const status = (await t.status(t.project, session)).body;
    expect(status).toMatchObject({ workflow: 'test-first', phase: 'plan', project_workflow: 'test-first' });
    expect(status.workflow_problem.errors).toEqual([expect.objectContaining({ file, message: expect.stringContaining('invalid YAML') })]);
    expect(status.workflow_problem.consequence).toContain('keeps the version it started with');

    // The status line says so too, after every message, without re-reading the file.
    const line = await t.api<Json>('GET', `/api/statusline?${new URLSearchParams({ cwd: t.project, session }).toString()}`);
    expect(line.status).toBe(200);
    expect(line.body).toMatchObject({ workflow: 'test-first', phase: 'plan', enforcement: { state: 'on' } });
    expect(line.body.workflow_problem).toEqual({ workflow: 'test-first', error: expect.stringMatching(new RegExp(`^${file}:\\d+:\\d+: invalid YAML`)) });
  });

  it('runs the newest version that loaded, not the one first chosen', async () => {
    file = writeProjectWorkflow(t.project, 'test-first.yaml', testFirst(1));
    await t.setWorkflow('test-first');
    writeFileSync(file, testFirst(2));
    await listWorkflows(); // the CLI's view re-reads the folder, as the watcher would
    await sessionStart(t.newSessionId()); // a session starts on version 2: it is recorded
    writeFileSync(file, BROKEN);
    await t.restart();

    const session = t.newSessionId();
    await sessionStart(session);
    const bash = await t.preToolUse(session, 'Bash', { command: 'npm test' });
    expect(bash.body.hookSpecificOutput?.permissionDecision).toBeUndefined();
  });

  it('tells a running session that its file broke, while it keeps the version it started with', async () => {
    file = writeProjectWorkflow(t.project, 'test-first.yaml', testFirst(1));
    await t.setWorkflow('test-first');
    const session = t.newSessionId();
    await sessionStart(session);
    writeFileSync(file, BROKEN);
    const status = (await t.status(t.project, session)).body;
    expect(status.workflow_problem.consequence).toMatch(/keeps the version it started with .*new sessions get the last good version/);
    const prompt = await t.prompt(session, 'continue');
    expect(prompt.body.systemMessage).toContain('This session keeps the version of `test-first` it started with');
    expect((await writeDecision(session)).decision).toBe('deny');
  });
});

describe('a selected workflow with no good version at all', () => {
  /** A database from before last good versions were kept, whose sessions never ran the workflow. */
  async function withNoGoodVersion(): Promise<void> {
    await selectThenBreakAndRestart();
    t.daemon.store.db.prepare('DELETE FROM last_good_definitions').run();
    await t.restart();
  }

  it('strict mode refuses every tool with a reason that names the file, line and error', async () => {
    await withNoGoodVersion();
    const session = t.newSessionId();
    const started = await sessionStart(session, 'strict');
    expect(started.body.systemMessage).toMatch(/Strict mode: every tool is refused until it loads/);
    const write = await writeDecision(session);
    expect(write.decision).toBe('deny');
    expect(write.reason).toMatch(new RegExp(`^Workflow rule \\(test-first, no version loads\\): no tool may run, because the project's workflow \`test-first\` does not load: ${file}:\\d+:\\d+: invalid YAML`));
    expect((await t.preToolUse(session, 'Read', { file_path: 'a.ts' })).body.hookSpecificOutput.permissionDecision).toBe('deny');

    // Status does not say "none — choose one": it names the selection and why it does not run.
    const status = (await t.status(t.project, session)).body;
    expect(status).toMatchObject({ workflow: null, project_workflow: 'test-first', failure_mode: 'strict' });
    expect(status.workflow_problem).toMatchObject({ workflow: 'test-first', errors: [expect.objectContaining({ file })] });
    expect(status.workflow_problem.consequence).toContain('tools are refused (strict mode)');
  });

  it('a session whose client never said its mode is strict', async () => {
    await withNoGoodVersion();
    const session = t.newSessionId();
    await t.sessionStart(session);
    expect((await writeDecision(session)).decision).toBe('deny');
  });

  it('lenient mode lets tools through and tells the user, every session and every prompt', async () => {
    await withNoGoodVersion();
    for (const session of [t.newSessionId(), t.newSessionId()]) {
      const started = await sessionStart(session, 'lenient');
      expect(started.body.systemMessage).toMatch(/does not load: .*Lenient mode: tools run WITHOUT workflow enforcement/);
      expect((await writeDecision(session)).decision).toBe('none');
      expect((await t.prompt(session, 'hi')).body.systemMessage).toContain('Lenient mode');
      // The mode is remembered for the session's http hooks, which do not say it.
      expect((await t.status(t.project, session)).body.failure_mode).toBe('lenient');
      // …and the audit log says why the Write ran.
      expect(t.auditRows(session).find((row) => row.event === 'PreToolUse')).toMatchObject({
        decision: 'allow',
        because: 'no good version of workflow test-first: lenient mode lets tools run unchecked',
      });
    }
  });

  it('a fixed file is picked up by the next session', async () => {
    await withNoGoodVersion();
    writeFileSync(file, testFirst(1));
    await listWorkflows(); // re-read, as the watcher would
    const session = t.newSessionId();
    expect((await sessionStart(session)).body.systemMessage).toBeUndefined();
    expect((await t.status(t.project, session)).body).toMatchObject({ workflow: 'test-first', workflow_problem: null });
  });
});

describe('load errors where the user looks', () => {
  it('`show` puts the load error above the last good version, and refuses when there is none', async () => {
    await selectThenBreakAndRestart();
    const url = `/api/workflows/test-first?cwd=${encodeURIComponent(t.project)}`;
    const shown = await t.api('GET', url);
    expect(shown.status).toBe(200);
    expect(shown.body.load_errors).toEqual([expect.objectContaining({ file, message: expect.stringContaining('invalid YAML') })]);
    expect(shown.body.phases[0].allowed_tools).toEqual(['Read', 'Grep']);

    writeProjectWorkflow(t.project, 'other.yaml', 'name: other\nphases:\n  - name: a\n    blocked_tools: [Wirte]\n');
    const refused = await t.api('GET', `/api/workflows/other?cwd=${encodeURIComponent(t.project)}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('GOBBY_ERR_WORKFLOW_INVALID');
    expect(refused.body.error.message).toMatch(/other\.yaml:4:\d+: phases\.0\.blocked_tools: unknown tool `Wirte` \(did you mean `Write`\?\)/);
  });

  it('`set` on a misspelled tool name says where and what was meant, instead of "no workflow named"', async () => {
    const typo = writeProjectWorkflow(t.project, 'typo-flow.yaml', 'name: typo-flow\nphases:\n  - name: a\n    blocked_tools: [Read, bash]\n');
    const refused = await t.setWorkflow('typo-flow');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'GOBBY_ERR_WORKFLOW_INVALID' });
    expect(refused.body.error.message).toContain(`${typo}:4:27: phases.0.blocked_tools: unknown tool \`bash\` (did you mean \`Bash\`?)`);
  });

  it('`reset` records the version it loads as the last good one: new sessions fall back on it when the file goes', async () => {
    file = writeProjectWorkflow(t.project, 'test-first.yaml', testFirst(1));
    await t.setWorkflow('test-first');
    const session = t.newSessionId();
    await sessionStart(session);
    writeFileSync(file, testFirst(2));
    expect((await t.api('POST', '/api/sessions/reset', { cwd: t.project, session, reason: 'version 2' })).status).toBe(200);
    rmSync(file);
    await t.restart();

    const next = t.newSessionId();
    await sessionStart(next);
    // Version 2 allows Bash in plan; version 1 would refuse it.
    const bash = await t.preToolUse(next, 'Bash', { command: 'npm test' });
    expect(bash.body.hookSpecificOutput?.permissionDecision).toBeUndefined();
  });

  it('`list` names a chosen workflow whose file is gone, and what new sessions run instead', async () => {
    file = writeProjectWorkflow(t.project, 'test-first.yaml', testFirst(1));
    await t.setWorkflow('test-first');
    rmSync(file);
    const listed = (await listWorkflows()).body;
    expect(listed.project_workflow).toBe('test-first');
    expect(listed.workflows.map((w: Json) => w.name)).not.toContain('test-first');
    expect(listed.project_workflow_problem).toMatch(/^the project's workflow `test-first`: .*the file is gone.*new sessions start on its last good version \(definition \w+/);
  });

  it('`list` says nothing more of a chosen workflow whose file loads', async () => {
    writeProjectWorkflow(t.project, 'test-first.yaml', testFirst(1));
    await t.setWorkflow('test-first');
    expect((await listWorkflows()).body.project_workflow_problem).toBeNull();
  });

  it('`reset` reloads from disk, so a broken file is refused with its error', async () => {
    file = writeProjectWorkflow(t.project, 'test-first.yaml', testFirst(1));
    await t.setWorkflow('test-first');
    const session = t.newSessionId();
    await sessionStart(session);
    writeFileSync(file, BROKEN);
    const reset = await t.api('POST', '/api/sessions/reset', { cwd: t.project, session, reason: 'reload' });
    expect(reset.status).toBe(409);
    expect(reset.body.error.message).toMatch(/test-first\.yaml:\d+:\d+: invalid YAML/);
  });
});
