// The control API as the gobby CLI uses it: the security guard in front of it, status,
// choosing a workflow, and the human overrides with their audit trail.
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTH, lastDecisionFor, makeProject, TestDaemon, TOKEN, type Json } from './test-daemon.js';

let t: TestDaemon;
beforeEach(() => {
  t = TestDaemon.create();
});
afterEach(async () => {
  await t.dispose();
});

const statusUrl = () => `/api/status?cwd=${encodeURIComponent(t.project)}`;

async function startSession(workflow: string | null = 'plan-execute'): Promise<string> {
  if (workflow) expect((await t.setWorkflow(workflow)).status).toBe(200);
  const session = t.newSessionId();
  expect((await t.sessionStart(session)).status).toBe(200);
  return session;
}

function expectError(reply: { status: number; body: Json }, status: number, code: string): string {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({ error: { code, message: expect.any(String) } });
  return reply.body.error.message as string;
}

describe('request guard', () => {
  it('refuses the control API without the token, or with a wrong one', async () => {
    await startSession();
    const none = await t.inject({ method: 'GET', url: statusUrl(), headers: { host: '127.0.0.1:4517' } });
    expect(expectError(none, 403, 'GOBBY_ERR_HTTP_FORBIDDEN')).toContain('token');
    for (const authorization of [`Bearer ${'y'.repeat(64)}`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN} `]) {
      const wrong = await t.inject({ method: 'GET', url: statusUrl(), headers: { host: '127.0.0.1:4517', authorization } });
      expectError(wrong, 403, 'GOBBY_ERR_HTTP_FORBIDDEN');
    }
    const disable = await t.inject({
      method: 'POST',
      url: '/api/sessions/disable',
      headers: { host: '127.0.0.1:4517' },
      payload: { cwd: t.project, reason: 'let me write' },
    });
    expectError(disable, 403, 'GOBBY_ERR_HTTP_FORBIDDEN');
    expect((await t.status()).body.disabled).toBeNull();
  });

  it('accepts the right token on every loopback spelling of Host', async () => {
    await startSession();
    for (const host of ['127.0.0.1:4517', 'localhost:4517', '[::1]:4517', 'localhost']) {
      const reply = await t.inject({ method: 'GET', url: statusUrl(), headers: { ...AUTH, host } });
      expect(reply.status, host).toBe(200);
    }
  });

  it('refuses a non-loopback Host (DNS rebinding), on hooks and the API alike', async () => {
    const session = await startSession();
    for (const host of ['evil.example:1234', '127.0.0.1.evil.example:4517', 'evil.example']) {
      const api = await t.inject({ method: 'GET', url: statusUrl(), headers: { ...AUTH, host } });
      expect(expectError(api, 403, 'GOBBY_ERR_HTTP_FORBIDDEN')).toContain('loopback');
      const hook = await t.inject({
        method: 'POST',
        url: '/hooks/PreToolUse',
        headers: { host },
        payload: { session_id: session, cwd: t.project, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: {} },
      });
      expectError(hook, 403, 'GOBBY_ERR_HTTP_FORBIDDEN');
    }
  });

  it('refuses any request with an Origin header (a browser)', async () => {
    const session = await startSession();
    for (const origin of ['https://evil.example', 'http://127.0.0.1:4517', 'null']) {
      const api = await t.inject({ method: 'GET', url: statusUrl(), headers: { ...AUTH, host: '127.0.0.1:4517', origin } });
      expect(expectError(api, 403, 'GOBBY_ERR_HTTP_FORBIDDEN')).toContain('Origin');
      const hook = await t.inject({
        method: 'POST',
        url: '/hooks/Stop',
        headers: { host: '127.0.0.1:4517', origin },
        payload: { session_id: session, cwd: t.project, hook_event_name: 'Stop' },
      });
      expectError(hook, 403, 'GOBBY_ERR_HTTP_FORBIDDEN');
    }
    const health = await t.inject({ method: 'GET', url: '/api/health', headers: { host: '127.0.0.1:4517', origin: 'https://evil.example' } });
    expectError(health, 403, 'GOBBY_ERR_HTTP_FORBIDDEN');
  });

  it('serves /api/health without a token', async () => {
    const reply = await t.inject({ method: 'GET', url: '/api/health', headers: { host: '127.0.0.1:4517' } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: true, name: 'gobby', home: t.home });
    // …but nothing else about the daemon.
    expectError(await t.inject({ method: 'GET', url: '/api/daemon', headers: { host: '127.0.0.1:4517' } }), 403, 'GOBBY_ERR_HTTP_FORBIDDEN');
  });

  it('answers an unknown route with a 404 in the error shape', async () => {
    expectError(await t.api('GET', '/api/nothing-here'), 404, 'GOBBY_ERR_HTTP_NOT_FOUND');
  });

  // The router matches the percent-decoded path, so the guard must decide on the matched
  // route: otherwise an agent allowed to run Bash could `curl …/%61pi/sessions/disable`.
  it('cannot be bypassed with a percent-encoded path (token required on /%61pi/...)', async () => {
    await startSession();
    const status = await t.inject({ method: 'GET', url: `/%61pi/status?cwd=${encodeURIComponent(t.project)}`, headers: { host: '127.0.0.1:4517' } });
    expect(status.status).not.toBe(200);
    const disable = await t.inject({
      method: 'POST',
      url: '/%61pi/sessions/disable',
      headers: { host: '127.0.0.1:4517', 'content-type': 'application/json' },
      payload: { cwd: t.project, reason: 'agent turned gobby off' },
    });
    expect(disable.status).not.toBe(200);
    expect((await t.status()).body.disabled).toBeNull();
  });
});

describe('status', () => {
  it('reports the phase, definition, tools and way on of the session', async () => {
    const session = await startSession();
    const reply = await t.status();
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      session_id: session,
      project: t.project,
      project_workflow: 'plan-execute',
      cwd: t.project,
      workflow: 'plan-execute',
      phase: 'plan',
      phases: ['plan', 'execute'],
      definition: { tier: 'builtin' },
      action_counts: { phase: 0, total: 0, blocked: 0 },
      blocked_tools: ['Write', 'Edit', 'NotebookEdit', 'Bash'],
      pending_approval: null,
      disabled: null,
    });
    expect(reply.body.definition.file).toMatch(/templates[/\\]plan-execute\.yaml$/);
    expect(reply.body.allowed_tools).toContain('Read');
    expect(reply.body.way_out).toContain('Plan complete. Ready to implement?');
  });

  it('answers 404 GOBBY_ERR_SESSION_NONE_IN_PROJECT for a project no session reported from', async () => {
    const message = expectError(await t.status(), 404, 'GOBBY_ERR_SESSION_NONE_IN_PROJECT');
    expect(message).toContain(t.project);
    await t.setWorkflow('plan-execute');
    expectError(await t.status(), 404, 'GOBBY_ERR_SESSION_NONE_IN_PROJECT');
  });

  it('answers 404 for an unknown --session', async () => {
    await startSession();
    expectError(await t.status(t.project, 'no-such-session'), 404, 'GOBBY_ERR_SESSION_NOT_FOUND');
  });

  it('answers 400 without a cwd', async () => {
    expectError(await t.api('GET', '/api/status'), 400, 'GOBBY_ERR_HTTP_BAD_REQUEST');
  });

  it('picks the most recently active session of the project, or the one --session names', async () => {
    await t.setWorkflow('plan-execute');
    const first = t.newSessionId();
    const second = t.newSessionId();
    await t.sessionStart(first);
    await t.sessionStart(second);
    expect((await t.status()).body.session_id).toBe(second);

    // The first session acts again: it is now the most recent.
    await t.preToolUse(first, 'Write', { file_path: 'a', content: 'b' });
    let status = (await t.status()).body;
    expect(status.session_id).toBe(first);
    expect(status.action_counts.blocked).toBe(1);

    status = (await t.status(t.project, second)).body;
    expect(status.session_id).toBe(second);
    expect(status.action_counts.blocked).toBe(0);

    // Overrides follow the same selection.
    const moved = await t.api('POST', '/api/sessions/phase', { cwd: t.project, session: second, phase: 'execute' });
    expect(moved.body).toMatchObject({ session_id: second, from: 'plan', to: 'execute' });
    expect((await t.status(t.project, second)).body.phase).toBe('execute');
    expect((await t.status(t.project, first)).body.phase).toBe('plan');
  });

  it('does not mix sessions of different projects', async () => {
    const session = await startSession();
    const other = makeProject();
    try {
      expectError(await t.status(other), 404, 'GOBBY_ERR_SESSION_NONE_IN_PROJECT');
      const otherSession = t.newSessionId();
      await t.sessionStart(otherSession, other);
      expect((await t.status(other)).body).toMatchObject({ session_id: otherSession, workflow: null });
      expect((await t.status()).body.session_id).toBe(session);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('workflow set / list / show', () => {
  it('answers 404 for an unknown workflow and lists the available ones', async () => {
    const reply = await t.setWorkflow('plan-exec');
    const message = expectError(reply, 404, 'GOBBY_ERR_WORKFLOW_NOT_FOUND');
    expect(message).toContain('plan-exec');
    expect(message).toContain('available: ');
    expect(message).toContain('plan-execute');
    // Nothing was set.
    const list = await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(t.project)}`);
    expect(list.body.project_workflow).toBeNull();
  });

  it('lists the built-in workflows and shows one', async () => {
    const list = await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(t.project)}`);
    expect(list.status).toBe(200);
    expect(list.body.errors).toEqual([]);
    expect(list.body.workflows).toContainEqual(expect.objectContaining({ name: 'plan-execute', tier: 'builtin', shadowed_by: null, phase_names: ['plan', 'execute'] }));
    const show = await t.api('GET', `/api/workflows/plan-execute?cwd=${encodeURIComponent(t.project)}`);
    expect(show.status).toBe(200);
    expect(show.body.phases.map((p: Json) => p.name)).toEqual(['plan', 'execute']);
    expect(show.body.phases[0].approval_prompt).toBe('Plan complete. Ready to implement?');
    expectError(await t.api('GET', `/api/workflows/nope?cwd=${encodeURIComponent(t.project)}`), 404, 'GOBBY_ERR_WORKFLOW_NOT_FOUND');
  });

  it('clear stops new sessions from getting the workflow', async () => {
    await t.setWorkflow('plan-execute');
    const cleared = await t.api('POST', '/api/projects/workflow/clear', { cwd: t.project, reason: 'trying without a workflow' });
    expect(cleared.body).toEqual({ project: t.project, previous_workflow: 'plan-execute' });
    const session = t.newSessionId();
    expect((await t.sessionStart(session)).body).toEqual({});
    expect((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body).toEqual({});
  });
});

describe('workflow set / clear, audited on the project', () => {
  const listUrl = () => `/api/workflows?cwd=${encodeURIComponent(t.project)}`;

  it('records who set the workflow and why, and who replaced it', async () => {
    await t.api('PUT', '/api/projects/workflow', { cwd: t.project, workflow: 'plan-execute', reason: 'team agreed to plan first' }, { 'x-gobby-actor': 'alice' });
    let events = (await t.api('GET', listUrl())).body.project_events;
    expect(events).toEqual([
      {
        at: expect.any(String),
        event: 'workflow:set',
        workflow: 'plan-execute',
        because: expect.stringContaining('plan-execute (builtin:'),
        reason: 'team agreed to plan first',
        actor: 'cli:alice',
      },
    ]);
    // Without --reason it is still recorded: setting a workflow is no escape hatch.
    await t.setWorkflow('plan-execute');
    events = (await t.api('GET', listUrl())).body.project_events;
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ event: 'workflow:set', reason: null, actor: 'cli:tester' });
  });

  it('clear needs a reason and records it; the running session keeps its workflow and its own log', async () => {
    const session = await startSession();
    for (const body of [{ cwd: t.project }, { cwd: t.project, reason: '  ' }]) {
      const refused = await t.api('POST', '/api/projects/workflow/clear', body);
      expect(expectError(refused, 400, 'GOBBY_ERR_OVERRIDE_REASON_REQUIRED')).toContain('--reason');
    }
    expect((await t.api('GET', listUrl())).body.project_workflow).toBe('plan-execute');

    const cleared = await t.api('POST', '/api/projects/workflow/clear', { cwd: t.project, reason: 'spike, no planning' }, { 'x-gobby-actor': 'bob' });
    expect(cleared.body).toEqual({ project: t.project, previous_workflow: 'plan-execute' });
    const listing = (await t.api('GET', listUrl())).body;
    expect(listing.project_workflow).toBeNull();
    expect(listing.project_events[0]).toMatchObject({
      event: 'workflow:clear',
      workflow: 'plan-execute',
      reason: 'spike, no planning',
      actor: 'cli:bob',
    });
    expect(listing.project_events[0].because).toContain('new sessions run without one');

    const status = (await t.status(t.project, session)).body;
    expect(status.workflow).toBe('plan-execute');
    expect(lastDecisionFor(status, 'workflow:clear')).toBeUndefined();
    expect(t.auditRows(session).some((row) => row.event.startsWith('workflow:'))).toBe(false);
  });

  it('a clear with nothing set records nothing', async () => {
    await startSession(null);
    const cleared = await t.api('POST', '/api/projects/workflow/clear', { cwd: t.project, reason: 'just in case' });
    expect(cleared.body).toEqual({ project: t.project, previous_workflow: null });
    expect((await t.api('GET', listUrl())).body.project_events).toEqual([]);
  });

  it('keeps project events to their project', async () => {
    await t.api('PUT', '/api/projects/workflow', { cwd: t.project, workflow: 'plan-execute', reason: 'here' });
    const other = makeProject();
    try {
      const listing = (await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(other)}`)).body;
      expect(listing.project_events).toEqual([]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('phase overrides', () => {
  it('moves plan → execute without --force when the definition allows it (the user is the approver)', async () => {
    const session = await startSession();
    const moved = await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'execute' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ session_id: session, workflow: 'plan-execute', from: 'plan', to: 'execute', forced: false });
    // The agent learns of it with its next tool result or prompt.
    const post = await t.postToolUse(session, 'Read', { file_path: 'a' });
    expect(post.body.hookSpecificOutput.additionalContext).toContain('EXECUTION phase');
    expect((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body).toEqual({});
  });

  it('refuses a move the definition does not allow with 409, naming --force', async () => {
    await startSession();
    await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'execute' });
    const back = await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'plan' });
    const message = expectError(back, 409, 'GOBBY_ERR_PHASE_NOT_ALLOWED');
    expect(message).toContain('execute → plan');
    expect(message).toContain('--force');
    expect((await t.status()).body.phase).toBe('execute');
  });

  it('needs a reason for --force', async () => {
    await startSession();
    await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'execute' });
    for (const body of [
      { cwd: t.project, phase: 'plan', force: true },
      { cwd: t.project, phase: 'plan', force: true, reason: '   ' },
    ]) {
      const reply = await t.api('POST', '/api/sessions/phase', body);
      expect(expectError(reply, 400, 'GOBBY_ERR_OVERRIDE_REASON_REQUIRED')).toContain('--reason');
    }
    expect((await t.status()).body.phase).toBe('execute');
  });

  it('moves with --force and a reason, audited with who and why', async () => {
    const session = await startSession();
    await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'execute' });
    const forced = await t.api(
      'POST',
      '/api/sessions/phase',
      { cwd: t.project, phase: 'plan', force: true, reason: 'the plan missed the migration' },
      { 'x-gobby-actor': 'alice@laptop' },
    );
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ from: 'execute', to: 'plan', forced: true, reason: 'the plan missed the migration' });
    const status = (await t.status()).body;
    expect(status.phase).toBe('plan');
    const row = lastDecisionFor(status, 'override:phase');
    expect(row).toMatchObject({ actor: 'cli:alice@laptop', reason: 'the plan missed the migration', because: 'forced execute → plan' });
    const change = t.auditRows(session).filter((r) => r.event === 'phase_changed').at(-1);
    expect(change).toMatchObject({ phase: 'plan', actor: 'cli:alice@laptop' });
    expect(change?.because).toContain('the plan missed the migration');
    // Enforcement follows the new phase.
    expect((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('answers 400 for a phase the workflow does not have, listing the phases', async () => {
    await startSession();
    for (const force of [false, true]) {
      const reply = await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'review', force, reason: 'r' });
      const message = expectError(reply, 400, 'GOBBY_ERR_PHASE_NOT_FOUND');
      expect(message).toContain('plan, execute');
    }
  });

  it('answers 409 GOBBY_ERR_SESSION_NO_WORKFLOW for a session without a workflow', async () => {
    await startSession(null);
    expectError(await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'execute' }), 409, 'GOBBY_ERR_SESSION_NO_WORKFLOW');
    expectError(await t.api('POST', '/api/sessions/disable', { cwd: t.project, reason: 'r' }), 409, 'GOBBY_ERR_SESSION_NO_WORKFLOW');
  });
});

describe('reset, disable, enable', () => {
  it('reset needs a reason, returns to the first phase and clears counts', async () => {
    const session = await startSession();
    await t.postToolUse(session, 'Read', { file_path: 'a' });
    await t.stop(session);
    await t.prompt(session, 'yes');
    expect((await t.status()).body.phase).toBe('execute');

    expectError(await t.api('POST', '/api/sessions/reset', { cwd: t.project }), 400, 'GOBBY_ERR_OVERRIDE_REASON_REQUIRED');
    const reset = await t.api('POST', '/api/sessions/reset', { cwd: t.project, reason: 'new task' });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ session_id: session, workflow: 'plan-execute', phase: 'plan', previous_phase: 'execute' });
    const status = (await t.status()).body;
    expect(status.phase).toBe('plan');
    expect(status.action_counts).toEqual({ phase: 0, total: 0, blocked: 0 });
    expect(lastDecisionFor(status, 'override:reset')).toMatchObject({ actor: 'cli:tester', reason: 'new task' });
    expect((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body.hookSpecificOutput.permissionDecision).toBe('deny');
    // The re-entered phase's message reaches the agent with its next prompt.
    expect((await t.prompt(session, 'ok')).body.hookSpecificOutput.additionalContext).toContain('PLANNING phase');
  });

  it('disable lets everything through (audited); enable enforces again', async () => {
    const session = await startSession();
    expectError(await t.api('POST', '/api/sessions/disable', { cwd: t.project }), 400, 'GOBBY_ERR_OVERRIDE_REASON_REQUIRED');

    const disabled = await t.api('POST', '/api/sessions/disable', { cwd: t.project, reason: 'hotfix, no time to plan' }, { 'x-gobby-actor': 'bob' });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ session_id: session, phase: 'plan', disabled: true, reason: 'hotfix, no time to plan' });
    let status = (await t.status()).body;
    expect(status.disabled).toMatchObject({ reason: 'hotfix, no time to plan' });
    expect(lastDecisionFor(status, 'override:disable')).toMatchObject({ actor: 'cli:bob', reason: 'hotfix, no time to plan' });

    const write = await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' });
    expect(write.body).toEqual({});
    status = (await t.status()).body;
    expect(lastDecisionFor(status, 'PreToolUse')).toMatchObject({
      tool: 'Write',
      decision: 'allow',
      because: 'workflow disabled: hotfix, no time to plan',
    });

    const enabled = await t.api('POST', '/api/sessions/enable', { cwd: t.project });
    expect(enabled.body).toMatchObject({ disabled: false });
    status = (await t.status()).body;
    expect(status.disabled).toBeNull();
    expect(lastDecisionFor(status, 'override:enable')).toMatchObject({ actor: 'cli:tester' });
    expect((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('rejects a malformed override body with 400', async () => {
    await startSession();
    expectError(await t.api('POST', '/api/sessions/phase', { cwd: t.project }), 400, 'GOBBY_ERR_HTTP_BAD_REQUEST');
    expectError(await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'execute', force: 'yes' }), 400, 'GOBBY_ERR_HTTP_BAD_REQUEST');
    expectError(await t.api('PUT', '/api/projects/workflow', { workflow: 'plan-execute' }), 400, 'GOBBY_ERR_HTTP_BAD_REQUEST');
  });
});
