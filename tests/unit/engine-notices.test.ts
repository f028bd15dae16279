// What the user is told in Claude Code's terminal (systemMessage), event by event: a phase
// change and why, an approval pending with the words that answer it, a "yes" that did not
// approve and what to do, and enforcement off or paused. Never in what the model is told.
import { describe, expect, it } from 'vitest';
import { renderHookAnswer } from '../../hooks/render.js';
import { joinNotices, movePhase, type Evaluation } from '../../workflows/index.js';
import { describeTimeLeft } from '../../workflows/notices.js';
import { compile, contextOf, loadTemplate, post, pre, say, Session, sessionStart, stop, T0 } from './engine-test-helpers.js';

const QUESTION = 'Plan complete. Ready to implement?';

function noticeOf(evaluation: Evaluation): string | undefined {
  return evaluation.decision.notice;
}

function planExecute(): Session {
  const session = new Session(loadTemplate('plan-execute'));
  session.send(sessionStart());
  session.send(say('add a --verbose flag'));
  return session;
}

const stopSaying = (text: string) => ({ name: 'Stop' as const, stopHookActive: false, lastAssistantMessage: text });

describe('an approval pending', () => {
  it('the Stop that asked tells the user the words that approve and reject', () => {
    const session = planExecute();
    const asked = session.send(stopSaying(`1. add the flag\n2. test it\n\n${QUESTION}`));
    expect(noticeOf(asked)).toBe(
      'gobby: plan-execute waits for your approval to leave `plan` for `execute`. ' +
        'Start your reply with "yes" (or y, approve, approved, proceed, continue, lgtm) to approve, ' +
        'or "no" (or n, reject, rejected, stop, cancel) to stay in `plan`.',
    );
    // Once: a later Stop while it is still pending says nothing new.
    session.send(say('what about tests'));
    expect(noticeOf(session.send(stopSaying(QUESTION)))).toBeUndefined();
  });

  it('the approving reply tells the user the phase moved, from what to what and why', () => {
    const session = planExecute();
    session.send(stopSaying(QUESTION));
    const approved = session.send(say('yes, go'));
    expect(approved.state.phase).toBe('execute');
    expect(noticeOf(approved)).toBe('gobby: plan-execute moved from phase `plan` to `execute`: you approved.');
    // The notice is the user's; the model's context says nothing of it.
    expect(contextOf(approved)).not.toContain('gobby: plan-execute moved');
  });

  it('a declining reply says the workflow stays', () => {
    const session = planExecute();
    session.send(stopSaying(QUESTION));
    const declined = session.send(say('no, use a config file instead'));
    expect(declined.state.phase).toBe('plan');
    expect(noticeOf(declined)).toBe(
      'gobby: not approved; plan-execute stays in `plan`, and the agent is told to address your reply and ask again.',
    );
  });
});

describe('a "yes" that is not an approval', () => {
  it('after a clarifying question: says the approval question was not asked, and how to move on', () => {
    const session = planExecute();
    session.send(stopSaying('Should the flag also cover the config file?'));
    const reply = session.send(say('yes'));
    expect(reply.state.phase).toBe('plan');
    expect(noticeOf(reply)).toBe(
      'gobby: your reply was not taken as approval to leave `plan`: the agent\'s last message did not ask ' +
        `the approval question ("${QUESTION}"). The agent got it as an ordinary reply. ` +
        'To approve, ask the agent to end its turn with that question and answer it, or move on yourself: gobby workflow phase execute',
    );
  });

  it('when the exit conditions do not hold: names them, and the forced move', () => {
    const session = new Session(
      compile(`
name: reviewed
variables:
  plan_written:
phases:
  - name: plan
    exit_conditions:
      - type: variable_set
        variable: plan_written
      - type: user_approval
        prompt: "Ready?"
  - name: build
`),
    );
    session.send(stopSaying('Ready?'));
    const reply = session.send(say('approve'));
    expect(reply.state.phase).toBe('plan');
    expect(noticeOf(reply)).toContain("your reply was not taken as approval to leave `plan`: the phase's exit conditions do not hold yet (");
    expect(noticeOf(reply)).toContain('plan_written');
    expect(noticeOf(reply)).toContain('gobby workflow phase build --force --reason');
  });

  it('an ordinary prompt, or a "yes" in a phase with no approval, says nothing', () => {
    const session = planExecute();
    expect(noticeOf(session.send(say('look at src/cli.ts first')))).toBeUndefined();
    session.send(stopSaying(QUESTION));
    session.send(say('yes'));
    expect(session.state.phase).toBe('execute');
    expect(noticeOf(session.send(say('yes')))).toBeUndefined();
  });
});

describe('a phase change the user did not type', () => {
  const LOOP = `
name: act-reflect
phases:
  - name: act
    transitions:
      - to: reflect
        when: "phase_action_count >= 2"
  - name: reflect
    exit_conditions:
      - type: expression
        when: "phase_action_count >= 1"
  - name: done
`;

  it('a transition after a tool result names the condition and the tool', () => {
    const session = new Session(compile(LOOP));
    expect(noticeOf(session.send(post('Read')))).toBeUndefined();
    const moved = session.send(post('Bash', { command: 'npm test' }));
    expect(moved.state.phase).toBe('reflect');
    expect(noticeOf(moved)).toBe('gobby: act-reflect moved from phase `act` to `reflect`: its transition condition `phase_action_count >= 2` held after the Bash call.');
    const exited = session.send(post('Read'));
    expect(exited.state.phase).toBe('done');
    expect(noticeOf(exited)).toBe('gobby: act-reflect moved from phase `reflect` to `done`: its exit conditions were met after the Read call.');
  });

  it("a human's override from the CLI is told with the session's next hook answer, once", () => {
    const session = planExecute();
    const moved = movePhase(session.workflow, session.state, 'execute', 'moved by cli:ana@laptop: plan agreed on the phone', { now: T0 });
    session.state = moved.state;
    const next = session.send(pre('Read', { file_path: 'a.ts' }));
    expect(noticeOf(next)).toBe(
      'gobby: plan-execute moved from phase `plan` to `execute`: by an override (moved by cli:ana@laptop: plan agreed on the phone).',
    );
    expect(renderHookAnswer('PreToolUse', next.decision)).toEqual({ systemMessage: noticeOf(next) });
    expect(noticeOf(session.send(pre('Read', { file_path: 'b.ts' })))).toBeUndefined();
  });

  it('notices of one event share one answer, one per line, oldest first', () => {
    const session = planExecute();
    session.state = movePhase(session.workflow, session.state, 'execute', 'moved by cli', { now: T0 }).state;
    session.state = movePhase(session.workflow, session.state, 'plan', 'moved back by cli', { now: T0 }).state;
    const asked = session.send(stopSaying(QUESTION));
    expect(noticeOf(asked)?.split('\n')).toEqual([
      'gobby: plan-execute moved from phase `plan` to `execute`: by an override (moved by cli).',
      'gobby: plan-execute moved from phase `execute` to `plan`: by an override (moved back by cli).',
      expect.stringMatching(/^gobby: plan-execute waits for your approval/),
    ]);
    expect(joinNotices(undefined, '', 'a', undefined, 'b')).toBe('a\nb');
    expect(joinNotices(undefined)).toBeUndefined();
  });
});

describe('enforcement off or paused', () => {
  it('disabled: said at the session start and every prompt, not on each tool call', () => {
    const session = planExecute();
    session.state = { ...session.state, disabled: { reason: 'hotfix by hand', at: T0, until: null } };
    const off =
      'gobby: enforcement is OFF for this session: plan-execute was disabled ("hotfix by hand"). ' +
      'Every tool is allowed and still audited. Turn it back on: gobby workflow enable';
    expect(noticeOf(session.send(sessionStart('resume')))).toBe(off);
    expect(noticeOf(session.send(say('fix it')))).toBe(off);
    expect(noticeOf(session.send(pre('Write', { file_path: 'a.ts' })))).toBeUndefined();
    expect(noticeOf(session.send(stop))).toBeUndefined();
  });

  it('paused with `disable --for`: the time left, then that it is back on', () => {
    const session = planExecute();
    session.state = { ...session.state, disabled: { reason: 'demo', at: T0, until: T0 + 30 * 60_000 } };
    const paused = session.send(say('go'), T0 + 60_000);
    expect(noticeOf(paused)).toBe(
      'gobby: enforcement is paused for this session for another 29 min ("demo"): every tool is allowed until then, ' +
        'then plan-execute holds the session to phase `plan` again. Resume now: gobby workflow enable',
    );
    const back = session.send(pre('Write', { file_path: 'a.ts' }), T0 + 31 * 60_000);
    expect(back.decision.kind).toBe('deny');
    expect(noticeOf(back)).toBe('gobby: enforcement is back on: the `disable --for` ran out, and plan-execute holds the session to phase `plan` again.');
  });

  it.each([
    [40_000, '40 s'],
    [89_000, '89 s'],
    [90_000, '2 min'],
    [29 * 60_000, '29 min'],
    [2 * 3_600_000, '2 h'],
    [2 * 3_600_000 + 5 * 60_000, '2 h 5 min'],
  ])('%d ms left reads as %s', (ms, text) => {
    expect(describeTimeLeft(ms)).toBe(text);
  });
});

describe("the turn's blocks", () => {
  it('count every refusal since the last prompt, and start over with the next one', () => {
    const session = planExecute();
    session.send(pre('Write', { file_path: 'a.ts' }));
    session.send(pre('Bash', { command: 'rm a.ts' }));
    session.send(pre('Read', { file_path: 'a.ts' }));
    expect(session.state).toMatchObject({ blockedThisTurn: 2, blockedCount: 2 });
    session.send(say('please just plan'));
    expect(session.state).toMatchObject({ blockedThisTurn: 0, blockedCount: 2 });
  });

  it('start over with a prompt while enforcement is off, too', () => {
    const session = planExecute();
    session.send(pre('Write', { file_path: 'a.ts' }));
    session.state = { ...session.state, disabled: { reason: 'hotfix', at: T0, until: null } };
    session.send(say('now fix it by hand'));
    expect(session.state.blockedThisTurn).toBe(0);
  });
});
