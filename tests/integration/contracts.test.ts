// Every control API answer of the composed daemon parses with its contract schema, and the
// schema declares every field the daemon sends: schemas strip undeclared fields, so a parse
// that equals the answer means nothing the CLI prints with --json was dropped. A field added
// to a service view without its schema fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_API, type ControlEndpointName } from '../../daemon/contracts/control-api.js';
import { errorAnswer } from '../../daemon/contracts/error-answer.js';
import { TestDaemon, type Json } from './test-daemon.js';

let t: TestDaemon;
let session: string;
beforeAll(async () => {
  t = TestDaemon.create();
});
afterAll(async () => {
  await t.dispose();
});

const answers = new Map<string, Json[]>();

/** Calls an endpoint as the CLI does, checks the answer is a success, and keeps it. */
async function call(name: ControlEndpointName, url: string, body?: unknown): Promise<Json> {
  const reply = await t.api(CONTROL_API[name].method, url, body);
  expect(reply.status, `${name}: ${reply.text}`).toBe(200);
  answers.set(name, [...(answers.get(name) ?? []), reply.body]);
  return reply.body;
}

const cwd = () => encodeURIComponent(t.project);

describe('the contract table', () => {
  // One walk through a session's life, so each endpoint answers in its interesting states.
  beforeAll(async () => {
    await call('health', '/api/health');
    await call('identity', '/api/identity');
    await call('daemon', '/api/daemon');
    await call('listWorkflows', `/api/workflows?cwd=${cwd()}`);
    await call('showWorkflow', `/api/workflows/plan-execute?cwd=${cwd()}`);
    session = t.newSessionId();
    await t.sessionStart(session);
    await call('status', `/api/status?cwd=${cwd()}`); // a session without a workflow
    await call('statusLine', `/api/statusline?cwd=${cwd()}&session=${session}`);
    await call('statusLine', `/api/statusline?cwd=${cwd()}&session=not-seen-yet`);
    await call('setWorkflow', '/api/projects/workflow', { cwd: t.project, workflow: 'plan-execute' });
    await t.prompt(session, 'Add a --verbose flag');
    await t.preToolUse(session, 'Write', { file_path: 'a.ts', content: '' });
    await t.stop(session);
    const waiting = await call('status', `/api/status?cwd=${cwd()}`);
    expect(waiting.pending_approval).toMatchObject({ phase: 'plan' });
    const line = await call('statusLine', `/api/statusline?cwd=${cwd()}`);
    expect(line).toMatchObject({ phase: 'plan', blocked_this_turn: 1, pending_approval: { next_phase: 'execute' } });
    await call('disable', '/api/sessions/disable', { cwd: t.project, reason: 'contract test', for: '30m' });
    const disabled = await call('status', `/api/status?cwd=${cwd()}`);
    expect(disabled.disabled).toMatchObject({ reason: 'contract test' });
    expect((await call('statusLine', `/api/statusline?cwd=${cwd()}`)).enforcement).toMatchObject({ state: 'paused', reason: 'contract test' });
    await call('enable', '/api/sessions/enable', { cwd: t.project });
    await call('changePhase', '/api/sessions/phase', { cwd: t.project, phase: 'execute', force: true, reason: 'contract test' });
    await call('reset', '/api/sessions/reset', { cwd: t.project, reason: 'contract test' });
    const audit = await call('audit', `/api/audit?cwd=${cwd()}&limit=5`);
    expect(audit.rows.map((row: Json) => row.event)).toEqual(['phase_changed', 'override:reset', 'phase_changed', 'override:phase', 'override:enable']);
    await call('audit', `/api/audit?cwd=${cwd()}&session=${session}&tamper=true`);
    await call('clearWorkflow', '/api/projects/workflow/clear', { cwd: t.project, reason: 'the contract walk ends here' });
    await call('shutdown', '/api/shutdown');
  });

  it('was exercised on every endpoint', () => {
    expect([...answers.keys()].sort()).toEqual(Object.keys(CONTROL_API).sort());
  });

  it.each(Object.keys(CONTROL_API) as ControlEndpointName[])('%s: every answer parses and the schema declares every field', (name) => {
    for (const body of answers.get(name) ?? []) {
      const parsed = CONTROL_API[name].answer.safeParse(body);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(parsed.data).toEqual(body);
    }
  });

  it('covers the status of a session with and without a workflow', () => {
    const workflows = (answers.get('status') ?? []).map((body: Json) => body.workflow);
    expect(workflows).toContain(null);
    expect(workflows).toContain('plan-execute');
  });

  it('rejects an answer that drifted, such as an approval without its phase', () => {
    const waiting = (answers.get('status') ?? []).find((body: Json) => body.pending_approval);
    const { phase: _phase, ...withoutPhase } = waiting.pending_approval;
    const drifted = { ...waiting, pending_approval: withoutPhase };
    expect(CONTROL_API.status.answer.safeParse(drifted).success).toBe(false);
  });

  it('parses an error answer of the daemon', async () => {
    const reply = await t.api('GET', `/api/status?cwd=${cwd()}&session=nope`);
    expect(errorAnswer.parse(reply.body)).toEqual({ error: { code: 'GOBBY_ERR_SESSION_NOT_FOUND', message: expect.any(String) } });
  });
});
