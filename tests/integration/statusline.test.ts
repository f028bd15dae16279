// What `gobby statusline` reads (GET /api/statusline) as a session moves through
// plan-execute, and the systemMessage notices the hook answers carry on the way.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusLineAnswer } from '../../daemon/contracts/statusline-answer.js';
import { TestDaemon, TOKEN, type Reply } from './test-daemon.js';

let t: TestDaemon;
beforeEach(() => {
  t = TestDaemon.create();
});
afterEach(async () => {
  await t.dispose();
});

function statusLine(session?: string, cwd = t.project): Promise<Reply<StatusLineAnswer>> {
  const query = new URLSearchParams({ cwd, ...(session ? { session } : {}) });
  return t.api<StatusLineAnswer>('GET', `/api/statusline?${query.toString()}`);
}

async function line(session?: string): Promise<StatusLineAnswer> {
  const reply = await statusLine(session);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

describe('GET /api/statusline', () => {
  it('a session in plan: workflow, phase and its place, enforcement on, nothing refused', async () => {
    const session = await t.planningSession();
    expect(await line(session)).toEqual({
      project: expect.any(String),
      session_id: session,
      session_known: true,
      workflow: 'plan-execute',
      phase: 'plan',
      phase_number: 1,
      phase_count: 2,
      pending_approval: null,
      blocked_this_turn: 0,
      enforcement: { state: 'on' },
      workflow_problem: null,
    });
  });

  it("counts this turn's refusals, and starts over at the next prompt", async () => {
    const session = await t.planningSession();
    await t.preToolUse(session, 'Write', { file_path: 'a.ts', content: 'x' });
    await t.preToolUse(session, 'Bash', { command: 'touch a.ts' });
    await t.preToolUse(session, 'Read', { file_path: 'a.ts' });
    expect((await line(session)).blocked_this_turn).toBe(2);
    await t.prompt(session, 'just plan, please');
    expect((await line(session)).blocked_this_turn).toBe(0);
  });

  it('an approval pending: the question and the words that answer it; the Stop that asked told the user', async () => {
    const session = await t.planningSession();
    const stopped = await t.stop(session, { askedApproval: true });
    expect(stopped.body.systemMessage).toContain('gobby: plan-execute waits for your approval to leave `plan` for `execute`.');
    expect(stopped.body.systemMessage).toContain('Start your reply with "yes"');
    expect((await line(session)).pending_approval).toEqual({
      prompt: 'Plan complete. Ready to implement?',
      next_phase: 'execute',
      approve_words: expect.arrayContaining(['yes', 'approve', 'lgtm']),
      reject_words: expect.arrayContaining(['no', 'reject']),
    });

    const approved = await t.prompt(session, 'yes');
    expect(approved.body.systemMessage).toBe('gobby: plan-execute moved from phase `plan` to `execute`: you approved.');
    // The notice is for the user: the model's context does not carry it.
    expect(approved.body.hookSpecificOutput.additionalContext).not.toContain('moved from phase');
    expect(await line(session)).toMatchObject({ phase: 'execute', phase_number: 2, pending_approval: null });
  });

  it('a "yes" after a clarifying question: the user is told why nothing moved, and what to do', async () => {
    const session = await t.planningSession();
    await t.stop(session, { askedApproval: false });
    const yes = await t.prompt(session, 'yes');
    expect(yes.body.systemMessage).toContain("gobby: your reply was not taken as approval to leave `plan`: the agent's last message did not ask");
    expect(yes.body.systemMessage).toContain('gobby workflow phase execute');
    expect((await line(session)).phase).toBe('plan');
  });

  it('enforcement disabled, then paused for a while, each with its reason', async () => {
    const session = await t.planningSession();
    expect((await t.api('POST', '/api/sessions/disable', { cwd: t.project, session, reason: 'hotfix by hand' })).status).toBe(200);
    expect((await line(session)).enforcement).toEqual({ state: 'disabled', reason: 'hotfix by hand' });
    const prompt = await t.prompt(session, 'fix it');
    expect(prompt.body.systemMessage).toContain('gobby: enforcement is OFF for this session');

    expect((await t.api('POST', '/api/sessions/disable', { cwd: t.project, session, reason: 'demo', for: '30m' })).status).toBe(200);
    expect((await line(session)).enforcement).toEqual({ state: 'paused', reason: 'demo', until: expect.any(String), seconds_left: 1800 });
    t.clock.advance(31 * 60_000);
    expect((await line(session)).enforcement).toEqual({ state: 'on' });
  });

  it("a human's phase override reaches the user with the session's next hook answer", async () => {
    const session = await t.planningSession();
    expect((await t.api('POST', '/api/sessions/phase', { cwd: t.project, session, phase: 'execute', reason: 'agreed on the phone' })).status).toBe(200);
    expect((await line(session)).phase).toBe('execute');
    const next = await t.preToolUse(session, 'Read', { file_path: 'a.ts' });
    expect(next.body.systemMessage).toMatch(/^gobby: plan-execute moved from phase `plan` to `execute`: by an override \(moved by cli:tester.*agreed on the phone\)\.$/);
    expect((await t.preToolUse(session, 'Read', { file_path: 'b.ts' })).body).toEqual({});
  });

  it('without a session: the project\'s latest one', async () => {
    const session = await t.planningSession();
    expect(await line()).toMatchObject({ session_id: session, session_known: true, phase: 'plan' });
  });

  it('a session gobby has not heard from: the project\'s workflow, and why nothing is enforced yet', async () => {
    expect((await t.setWorkflow('plan-execute')).status).toBe(200);
    expect(await line('11111111-1111-4111-8111-111111111111')).toMatchObject({
      session_known: false,
      workflow: 'plan-execute',
      phase: null,
      enforcement: { state: 'off', why: 'this session has not reported to gobby yet' },
    });
  });

  it('a session without a workflow: off, and how to choose one', async () => {
    const session = t.newSessionId();
    await t.sessionStart(session);
    expect(await line(session)).toMatchObject({
      session_known: true,
      workflow: null,
      enforcement: { state: 'off', why: 'no workflow chosen for this project (gobby workflow set <name>)' },
    });
  });

  it('needs the token, like the rest of the control API', async () => {
    const url = `/api/statusline?cwd=${encodeURIComponent(t.project)}`;
    const none = await t.inject({ method: 'GET', url, headers: { host: t.hostHeader } });
    expect(none.status).toBe(403);
    const right = await t.inject({ method: 'GET', url, headers: { host: t.hostHeader, authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
  });
});
