// A "yes" approves only what the model asked: the harness ends a turn with or without
// plan-execute's approval question, and only the asked one leaves plan.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestDaemon } from './test-daemon.js';

let t: TestDaemon;
beforeEach(() => {
  t = TestDaemon.create();
});
afterEach(async () => {
  await t.dispose();
});

describe('approval in plan-execute', () => {
  it('a yes after a turn that did not ask the approval question stays in plan', async () => {
    const session = await t.planningSession();
    expect((await t.stop(session, { askedApproval: false })).body).toEqual({});
    expect((await t.status()).body.pending_approval).toBeNull();

    const yes = await t.prompt(session, 'yes');
    const context = yes.body.hookSpecificOutput.additionalContext as string;
    expect(context).toContain('phase `plan`');
    expect(context).not.toContain('EXECUTION phase');
    expect((await t.status()).body.phase).toBe('plan');
    expect(t.auditRows(session).some((row) => row.event === 'phase_changed' && row.phase === 'execute')).toBe(false);
  });

  it('the same yes after the model asked moves to execute', async () => {
    const session = await t.planningSession();
    await t.stop(session, { askedApproval: true });
    expect((await t.status()).body.pending_approval).toMatchObject({ prompt: 'Plan complete. Ready to implement?' });

    const yes = await t.prompt(session, 'yes');
    expect(yes.body.hookSpecificOutput.additionalContext).toContain('EXECUTION phase');
    expect((await t.status()).body.phase).toBe('execute');
  });
});
