// Effects run after the hook event's transaction commits (daemon/effects/): durable ones
// through the outbox, so a crash between the commit and the run loses nothing, and a
// failing effect never changes what Claude Code is told.
import { afterEach, describe, expect, it } from 'vitest';
import type { EffectEnvelope, EffectHandler } from '../../daemon/effects/effect-runner.js';
import { createEffectRunner } from '../../daemon/effects/effect-runner.js';
import { TestDaemon, writeProjectWorkflow, type Json } from './test-daemon.js';

let t: TestDaemon;
afterEach(async () => t?.dispose());

function outboxRows(daemon: TestDaemon): Json[] {
  return daemon.daemon.store.db.prepare('SELECT handler, attempts, last_error, given_up_at FROM effect_outbox ORDER BY id').all();
}

/** plan-execute, asked for approval and answered yes: one phase change plan → execute. */
async function approvePlan(daemon: TestDaemon, sessionId: string): Promise<Json> {
  await daemon.setWorkflow('plan-execute');
  await daemon.sessionStart(sessionId);
  await daemon.stop(sessionId);
  return daemon.prompt(sessionId, 'yes');
}

describe('effects after the commit', () => {
  it('writes the phase change to the audit log and leaves the outbox empty', async () => {
    t = TestDaemon.create();
    const session = t.newSessionId();
    const reply = await approvePlan(t, session);
    expect(reply.body.hookSpecificOutput.additionalContext).toContain('phase `execute`');
    const changes = t.auditRows(session).filter((row) => row.event === 'phase_changed');
    expect(changes.map((row) => row.because)).toEqual(['(start) → plan: workflow started', 'plan → execute: user approved']);
    expect(outboxRows(t)).toEqual([]);
  });

  it('a failing effect leaves the hook answer as it was, is recorded, and is retried by the next daemon', async () => {
    let calls = 0;
    const flaky: EffectHandler = {
      name: 'flaky',
      durable: true,
      accepts: (effect) => effect.type === 'phase_changed' && effect.to === 'execute',
      run: () => {
        calls += 1;
        if (calls === 1) throw new Error('the notifier is down');
      },
    };
    t = TestDaemon.create({ extraEffectHandlers: [flaky] });
    const session = t.newSessionId();
    const reply = await approvePlan(t, session);

    expect(reply.status).toBe(200);
    expect(reply.body.hookSpecificOutput.additionalContext).toContain('phase `execute`');
    expect((await t.status()).body.phase).toBe('execute');
    // The audit handler is independent of the failing one: its row is there.
    expect(t.auditRows(session).some((row) => row.because === 'plan → execute: user approved')).toBe(true);
    expect(outboxRows(t)).toEqual([{ handler: 'flaky', attempts: 1, last_error: 'the notifier is down', given_up_at: null }]);

    await t.restart();
    expect(calls).toBe(2);
    expect(outboxRows(t)).toEqual([]);
  });

  it('a daemon that starts finds the effects a crash left in the outbox and runs them', async () => {
    t = TestDaemon.create();
    const session = t.newSessionId();
    await t.setWorkflow('plan-execute');
    await t.sessionStart(session);
    // What a kill -9 right after the commit leaves behind: the outbox row, not its audit row.
    const envelope: EffectEnvelope = {
      effect: { type: 'phase_changed', from: 'plan', to: 'execute', cause: 'user approved' },
      sessionId: session,
      workflow: 'plan-execute',
      actor: 'claude-code',
      at: t.clock(),
    };
    t.daemon.store.outbox.add('audit', JSON.stringify(envelope), envelope.at);
    expect(t.auditRows(session).some((row) => row.because === 'plan → execute: user approved')).toBe(false);

    await t.restart();
    expect(t.auditRows(session).filter((row) => row.because === 'plan → execute: user approved')).toHaveLength(1);
    expect(outboxRows(t)).toEqual([]);
  });

  it('a rolled-back transaction leaves no outbox row and runs nothing', () => {
    t = TestDaemon.create();
    const { store } = t.daemon;
    const ran: string[] = [];
    const runner = createEffectRunner({
      store,
      clock: t.clock,
      handlers: [{ name: 'spy', durable: true, accepts: () => true, run: ({ effect }) => void ran.push(effect.type) }],
      onError: () => undefined,
    });
    const envelope: EffectEnvelope = {
      effect: { type: 'approval_declined', phase: 'plan' },
      sessionId: 's',
      workflow: 'w',
      actor: 'claude-code',
      at: 0,
    };
    expect(() =>
      runner.commitThenRun(() => {
        store.outbox.add('spy', JSON.stringify(envelope), 0);
        throw new Error('the event failed half-way');
      }),
    ).toThrow('the event failed half-way');
    expect(outboxRows(t)).toEqual([]);
    expect(runner.resume()).toBe(0);
    expect(ran).toEqual([]);
  });

  it('a transient effect that rejects is reported and changes nothing', async () => {
    const failures: string[] = [];
    t = TestDaemon.create();
    const { store } = t.daemon;
    const runner = createEffectRunner({
      store,
      clock: t.clock,
      handlers: [{ name: 'notify', durable: false, accepts: () => true, run: async () => Promise.reject(new Error('offline')) }],
      onError: ({ handler, error }) => void failures.push(`${handler}: ${error.message}`),
    });
    const { result } = runner.commitThenRun(() => ({
      result: 'answered',
      effects: [{ effect: { type: 'approval_declined', phase: 'plan' }, sessionId: 's', workflow: 'w', actor: 'x', at: 0 }],
    }));
    expect(result).toBe('answered');
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual(['notify: offline']);
    expect(outboxRows(t)).toEqual([]);
  });
});

describe('a message queued on Stop', () => {
  const STOP_FLOW = `
name: stop-flow
phases:
  - name: work
    allowed_tools: all
    transitions:
      - to: review
        when: "event == 'Stop'"
  - name: review
    allowed_tools: all
    on_enter:
      - action: inject_message
        content: "[gobby] REVIEW: read your own diff before anything else."
`;

  it('is not attached to the Stop answer and reaches the model with the next prompt', async () => {
    t = TestDaemon.create();
    writeProjectWorkflow(t.project, 'stop-flow.yaml', STOP_FLOW);
    await t.setWorkflow('stop-flow');
    const session = t.newSessionId();
    await t.sessionStart(session);

    const stopped = await t.stop(session);
    // Context on a Stop answer makes Claude Code continue the turn; the message waits. The
    // user's notice of the move is no context: it is shown, and the turn ends.
    expect(stopped.body).toEqual({
      systemMessage: "gobby: stop-flow moved from phase `work` to `review`: its transition condition `event == 'Stop'` held when the agent ended its turn.",
    });
    expect((await t.status()).body.phase).toBe('review');

    const next = await t.prompt(session, 'what now?');
    const context: string = next.body.hookSpecificOutput.additionalContext;
    expect(context).toContain('[gobby] REVIEW: read your own diff before anything else.');
    expect(context.indexOf('REVIEW: read your own diff')).toBeLessThan(context.indexOf('phase `review`'));

    // Delivered once.
    const after = await t.prompt(session, 'and then?');
    expect(after.body.hookSpecificOutput.additionalContext).not.toContain('REVIEW: read your own diff');
  });
});
