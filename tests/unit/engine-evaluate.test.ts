// The engine as a state machine: tables of "event in → decision out" (Temporal/XState
// style). Each table drives a session held in memory through evaluateEvent and checks the
// decision, the effects and the phase after every event.
import { describe, expect, it } from 'vitest';
import {
  evaluateEvent,
  findOverrideCommand,
  movePhase,
  reachablePhases,
  renderCurrentPhaseContext,
  startWorkflow,
  type EngineEvent,
  type WorkflowState,
} from '../../workflows/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compile,
  contextOf,
  FIXTURES_DIR,
  failed,
  loadTemplate,
  post,
  pre,
  reasonOf,
  say,
  Session,
  sessionStart,
  stop,
  T0,
  type Step,
} from './engine-test-helpers.js';

const PLAN_ENTER = '[gobby] PLANNING phase. Analyse the request and present a plan.';
const EXECUTE_ENTER = '[gobby] EXECUTION phase: the user approved the plan.';
const PLAN_HEADER = '[gobby] Workflow `plan-execute` is in phase `plan` (1 of 2): Understand the request and write a plan.';
const EXECUTE_HEADER = '[gobby] Workflow `plan-execute` is in phase `execute` (2 of 2): Implement the approved plan and verify it.';
const PLAN_INSTRUCTIONS = 'reply with a concise, numbered implementation plan';
const APPROVAL_QUESTION = 'Plan complete. Ready to implement?';
const DECLINED = '[gobby] The user did not approve leaving the `plan` phase.';

function planExecute(): Session {
  return new Session(loadTemplate('plan-execute'));
}

/** A plan-execute session whose model has ended its turn, so the approval question is open. */
function planAwaitingApproval(): Session {
  const session = planExecute();
  session.send(sessionStart());
  session.send(say('add a --verbose flag'));
  session.send(pre('Read', { file_path: 'src/cli.ts' }));
  session.send(post('Read', { file_path: 'src/cli.ts' }));
  const stopped = session.send(stop);
  expect(stopped.effects).toEqual([{ type: 'approval_requested', phase: 'plan', prompt: APPROVAL_QUESTION }]);
  return session;
}

describe('plan-execute: starting a session', () => {
  it('enters `plan` through the on_session_start trigger and queues the on_enter message', () => {
    const workflow = loadTemplate('plan-execute');
    const { state, effects } = startWorkflow(workflow, { now: T0 });
    expect(effects).toEqual([{ type: 'phase_changed', from: null, to: 'plan', cause: 'workflow started' }]);
    expect(state).toMatchObject({
      workflow: 'plan-execute',
      definitionHash: workflow.hash,
      phase: 'plan',
      phaseEnteredAt: T0,
      phaseActionCount: 0,
      totalActionCount: 0,
      blockedCount: 0,
      pendingApproval: null,
      disabled: null,
    });
    expect(state.pendingMessages).toHaveLength(1);
    expect(state.pendingMessages[0]).toContain(PLAN_ENTER);
  });

  it('SessionStart returns the on_enter message, then the phase context (instructions, tools, the way out)', () => {
    const session = planExecute();
    const [first] = session.play([
      {
        event: sessionStart('startup'),
        decision: 'allow',
        phase: 'plan',
        effects: [],
        context: [
          PLAN_ENTER,
          PLAN_HEADER,
          PLAN_INSTRUCTIONS,
          'Tools allowed in this phase: Read, Glob, Grep, LSP, WebSearch, WebFetch, Agent,',
          'Other tools are refused by gobby.',
          `end your turn with exactly this question to the user: "${APPROVAL_QUESTION}"`,
          'When the user answers yes (or approve / proceed / continue), the workflow moves to the `execute` phase.',
        ],
      },
    ]);
    // The message was delivered once: it leaves the queue.
    expect(session.state.pendingMessages).toEqual([]);
    expect(contextOf(first!)).not.toMatch(/Tools allowed in this phase:[^\n]*\bWrite\b/);
    // A resumed session hears the phase context again, but not the entry message twice.
    session.play([{ event: sessionStart('resume'), phase: 'plan', context: [PLAN_HEADER], notContext: [PLAN_ENTER] }]);
  });

  it('every UserPromptSubmit carries the phase context', () => {
    const session = planExecute();
    session.play([
      { event: sessionStart(), context: [PLAN_ENTER] },
      { event: say('hello'), decision: 'allow', phase: 'plan', effects: [], context: [PLAN_HEADER, APPROVAL_QUESTION], notContext: [PLAN_ENTER] },
      { event: say('and again'), context: [PLAN_HEADER] },
    ]);
  });
});

describe('plan-execute: the tool gate in `plan`', () => {
  it.each([
    ['Read', 'allow'],
    ['Glob', 'allow'],
    ['Grep', 'allow'],
    ['WebFetch', 'allow'],
    ['Agent', 'allow'],
    ['Task', 'allow'], // old name of Agent
    ['TodoWrite', 'allow'],
    ['AskUserQuestion', 'allow'],
    ['Write', 'deny'],
    ['Edit', 'deny'],
    ['NotebookEdit', 'deny'],
    ['Bash', 'deny'],
    ['mcp__github__create_issue', 'deny'],
    ['read', 'deny'], // tool names are case-sensitive
  ] as const)('PreToolUse %s → %s', (tool, decision) => {
    const session = planExecute();
    const evaluation = session.send(pre(tool, { file_path: 'src/cli.ts', command: 'ls' }));
    expect(evaluation.decision.kind).toBe(decision);
    expect(evaluation.effects).toEqual([]);
    expect(evaluation.state.phase).toBe('plan');
  });

  it.each(['Write', 'Edit', 'NotebookEdit', 'Bash'])('the reason for refusing %s names the phase, what is allowed and the approval step', (tool) => {
    const session = planExecute();
    const reason = reasonOf(session.send(pre(tool, { file_path: 'src/cli.ts', command: 'npm test' })));
    expect(reason).toBeDefined();
    // The first words say it is the workflow's rule: Claude Code prefixes it with "hook error".
    expect(reason).toMatch(new RegExp(`^Workflow rule \\(plan-execute, phase plan\\): ${tool} is not allowed in this phase\\.`));
    expect(reason).toContain('Allowed now: Read, Glob, Grep');
    expect(reason).toContain(APPROVAL_QUESTION);
    expect(reason).toContain('the workflow moves to the `execute` phase');
    expect(reason).not.toMatch(/Allowed now:[^.]*\bWrite\b/);
  });

  it('a refusal counts as blocked, not as an action, and leaves the rest of the state alone', () => {
    const session = planExecute();
    session.send(sessionStart());
    const before = session.state;
    const evaluation = session.send(pre('Write', { file_path: 'a.ts' }));
    expect(evaluation.state).toEqual({ ...before, blockedCount: 1, blockedThisTurn: 1 });
    session.send(pre('Bash', { command: 'rm a.ts' }));
    expect(session.state).toMatchObject({ blockedCount: 2, phaseActionCount: 0, totalActionCount: 0 });
  });

  it('an allowed PreToolUse adds no context and counts nothing', () => {
    const session = planExecute();
    session.send(sessionStart());
    const evaluation = session.send(pre('Read', { file_path: 'a.ts' }));
    expect(evaluation.decision).toMatchObject({ kind: 'allow' });
    expect(contextOf(evaluation)).toBeUndefined();
    expect(evaluation.state).toMatchObject({ phaseActionCount: 0, totalActionCount: 0, blockedCount: 0 });
  });
});

describe('plan-execute: approval', () => {
  it('"yes" before the model has ended a turn does not approve anything', () => {
    const session = planExecute();
    session.play([
      { event: sessionStart(), phase: 'plan' },
      { event: say('yes'), decision: 'allow', phase: 'plan', effects: [], approvalPending: false, notContext: [EXECUTE_ENTER] },
      { event: say('approve'), phase: 'plan', effects: [] },
      { event: pre('Write', { file_path: 'a.ts' }), decision: 'deny' },
    ]);
  });

  it('Stop in `plan` opens the approval question; it carries no context (context on Stop would make the model continue)', () => {
    const session = planExecute();
    session.send(sessionStart());
    session.play([
      { event: stop, decision: 'allow', phase: 'plan', effects: ['approval_requested'], noContext: true, approvalPending: true },
      // Asked once: a second Stop does not ask again.
      { event: stop, phase: 'plan', effects: [], noContext: true, approvalPending: true },
    ]);
    expect(session.state.pendingApproval).toEqual({ phase: 'plan', prompt: APPROVAL_QUESTION, askedAt: T0 });
  });

  it.each(['yes', 'Yes!', 'YES', 'y', 'approve', 'Approved.', 'proceed', 'continue', 'lgtm', '  yes, go ahead', '**Yes** please', '"yes"'])(
    'after Stop, %j moves to `execute` with its on_enter message',
    (reply) => {
      const session = planAwaitingApproval();
      const [answer] = session.play([
        {
          event: say(reply),
          decision: 'allow',
          phase: 'execute',
          effects: ['phase_changed'],
          approvalPending: false,
          context: [EXECUTE_ENTER, EXECUTE_HEADER, 'Tools allowed in this phase: all tools.', 'This is the last phase of the workflow.'],
          notContext: [PLAN_ENTER, 'Other tools are refused'],
        },
        { event: pre('Write', { file_path: 'src/cli.ts' }), decision: 'allow' },
        { event: pre('Bash', { command: 'npm test' }), decision: 'allow' },
      ]);
      expect(answer!.effects).toEqual([{ type: 'phase_changed', from: 'plan', to: 'execute', cause: 'user approved' }]);
      expect(session.state.pendingMessages).toEqual([]);
    },
  );

  it.each(['no, change X first', 'No.', 'n', 'reject', 'stop', 'Cancel that'])('after Stop, %j declines: stays in `plan` and says so', (reply) => {
    const session = planAwaitingApproval();
    const [answer] = session.play([
      { event: say(reply), decision: 'allow', phase: 'plan', effects: ['approval_declined'], approvalPending: false, context: [DECLINED, PLAN_HEADER] },
      { event: pre('Write', { file_path: 'a.ts' }), decision: 'deny' },
      // Declined: a "yes" now is just a prompt; the model must present the plan again.
      { event: say('yes'), phase: 'plan', effects: [] },
      { event: stop, effects: ['approval_requested'] },
      { event: say('yes'), phase: 'execute', effects: ['phase_changed'] },
    ]);
    expect(answer!.effects).toEqual([{ type: 'approval_declined', phase: 'plan' }]);
  });

  it.each(['tell me more', 'why step 3?', 'what about tests', 'okay'])('after Stop, %j leaves the approval pending', (reply) => {
    const session = planAwaitingApproval();
    session.play([
      { event: say(reply), decision: 'allow', phase: 'plan', effects: [], approvalPending: true, context: [PLAN_HEADER], notContext: [DECLINED] },
      { event: pre('Edit', { file_path: 'a.ts' }), decision: 'deny' },
      { event: stop, effects: [], approvalPending: true },
      { event: say('proceed'), phase: 'execute', effects: ['phase_changed'] },
    ]);
  });

  // Confusing: the first word decides, so a reply that starts with "no" declines even when
  // the user means yes, and common yeses ("ok", "sure", "go ahead") leave the question open.
  it.each([
    ['No problem, go ahead', 'plan', ['approval_declined']],
    ['ok', 'plan', []],
    ['sure, go ahead', 'plan', []],
    ['go ahead', 'plan', []],
    ['yep', 'plan', []],
  ] as const)('first-word rule: %j → stays in `%s` with effects %j', (reply, phase, effects) => {
    const session = planAwaitingApproval();
    session.play([{ event: say(reply), phase, effects: [...effects] }]);
  });

  it('approval does not freeze the session: tools allowed in `plan` stay usable while the question is open', () => {
    const session = planAwaitingApproval();
    session.play([
      { event: pre('Read', { file_path: 'a.ts' }), decision: 'allow' },
      { event: post('Read', { file_path: 'a.ts' }), decision: 'allow', phase: 'plan', approvalPending: true },
      { event: pre('Grep'), decision: 'allow' },
    ]);
  });
});

describe('plan-execute: a whole session as one table', () => {
  it('plan → approval → execute', () => {
    const session = planExecute();
    const steps: Step[] = [
      { event: sessionStart(), decision: 'allow', phase: 'plan', effects: [], context: [PLAN_ENTER, PLAN_HEADER] },
      { event: say('Add a --verbose flag'), decision: 'allow', phase: 'plan', context: [PLAN_HEADER] },
      { event: pre('Read', { file_path: 'src/cli.ts' }), decision: 'allow', noContext: true },
      { event: post('Read', { file_path: 'src/cli.ts' }), decision: 'allow', noContext: true },
      { event: pre('Edit', { file_path: 'src/cli.ts' }), decision: 'deny', reason: ['Workflow rule (plan-execute, phase plan): Edit', APPROVAL_QUESTION] },
      { event: pre('Bash', { command: 'sed -i s/a/b/ src/cli.ts' }), decision: 'deny' },
      { event: stop, decision: 'allow', phase: 'plan', effects: ['approval_requested'], noContext: true },
      { event: say('looks good, yes'), phase: 'plan', effects: [], approvalPending: true }, // first word decides
      { event: say('yes'), decision: 'allow', phase: 'execute', effects: ['phase_changed'], context: [EXECUTE_ENTER, EXECUTE_HEADER] },
      { event: pre('Edit', { file_path: 'src/cli.ts' }), decision: 'allow', noContext: true },
      { event: post('Edit', { file_path: 'src/cli.ts' }), decision: 'allow', noContext: true },
      { event: pre('Bash', { command: 'npm test' }), decision: 'allow' },
      { event: failed('Bash', 'tests failed'), decision: 'allow', phase: 'execute' },
      { event: stop, decision: 'allow', phase: 'execute', effects: [], noContext: true, approvalPending: false },
    ];
    session.play(steps);
    expect(session.state).toMatchObject({ phase: 'execute', phaseActionCount: 2, totalActionCount: 3, blockedCount: 2 });
  });
});

describe('the kitchen-sink fixture: plan → act → reflect → plan → act → reflect → done', () => {
  it('walks every transition', () => {
    const session = new Session(compile(readFileSync(join(FIXTURES_DIR, 'kitchen-sink.yaml'), 'utf8'), 'kitchen-sink.yaml'));
    expect(session.state.variables).toMatchObject({ failures: 0 });
    session.play([
      { event: sessionStart(), phase: 'plan', context: ['[gobby] PLANNING. First visit.', 'Test commands you may use later:\n- 1. npm test\n- 2. vitest'] },
      { event: stop, effects: [], approvalPending: false }, // exit expression not met yet
      { event: pre('Task'), decision: 'allow' },
      { event: pre('mcp__github__get_issue'), decision: 'allow' },
      { event: post('mcp__github__get_issue'), phase: 'plan', effects: [] },
      { event: stop, effects: ['approval_requested'] },
      { event: say('approve'), phase: 'act', effects: ['phase_changed'], context: ['You are now implementing (true).'] },
      { event: pre('WebFetch'), decision: 'deny', reason: ['all tools except WebFetch'] },
      { event: pre('Bash', { command: 'rm -rf dist' }), decision: 'deny', reason: ['Destructive commands require explicit approval: rm -rf dist'] },
      { event: pre('Bash', { command: 'npm test' }), decision: 'allow' },
      { event: failed('Bash', 'FAIL', { command: 'npm test' }), phase: 'reflect', effects: ['phase_changed'], context: ['REFLECTION CHECKPOINT\nActions taken: 0 (total 2, failures 1)'] },
      { event: pre('Edit'), decision: 'deny' },
      { event: say('let us replan'), phase: 'plan', effects: ['phase_changed'], context: ['[gobby] PLANNING. Back again after 2 actions.'] },
      { event: stop, effects: ['approval_requested'] }, // total_action_count >= 1 already holds
      { event: say('yes'), phase: 'act' },
      ...Array.from({ length: 4 }, (): Step => ({ event: post('Edit'), phase: 'act', effects: [] })),
      { event: post('Edit'), phase: 'reflect', effects: ['phase_changed'], context: ['total 7, failures 1'] },
      { event: say('we are done'), phase: 'done', effects: ['phase_changed'], context: ['phase `done` (4 of 4)', 'This is the last phase of the workflow.'] },
      { event: pre('Write'), decision: 'deny', reason: ['Allowed now: Read.'] },
    ]);
    expect(session.state).toMatchObject({ totalActionCount: 7, blockedCount: 4 });
  });
});

describe('counters', () => {
  it.each([
    ['PostToolUse', post('Read')],
    ['PostToolUseFailure', failed('Read', 'ENOENT')],
  ])('%s counts one action in the phase and in total', (_name, event) => {
    const session = planExecute();
    session.send(event);
    session.send(event);
    expect(session.state).toMatchObject({ phaseActionCount: 2, totalActionCount: 2, blockedCount: 0 });
  });

  it('a phase change resets phase_action_count; total_action_count and blocked_count keep counting', () => {
    const session = planAwaitingApproval(); // one Read counted
    session.send(post('Grep'));
    session.send(pre('Write'));
    expect(session.state).toMatchObject({ phaseActionCount: 2, totalActionCount: 2, blockedCount: 1 });
    session.send(say('yes'), T0 + 5_000);
    expect(session.state).toMatchObject({ phase: 'execute', phaseActionCount: 0, totalActionCount: 2, blockedCount: 1, phaseEnteredAt: T0 + 5_000 });
    session.send(post('Write'));
    expect(session.state).toMatchObject({ phaseActionCount: 1, totalActionCount: 3, blockedCount: 1 });
  });

  it.each([sessionStart(), say('hi'), pre('Read'), stop, { name: 'PreCompact' } as EngineEvent])('%j counts no action', (event) => {
    const session = planExecute();
    session.send(event);
    expect(session.state).toMatchObject({ phaseActionCount: 0, totalActionCount: 0 });
  });
});

describe('events the engine does not act on', () => {
  it.each<EngineEvent>([
    { name: 'SubagentStop', agent: { id: 'a1', type: 'Explore' }, stopHookActive: false },
    { name: 'PreCompact', trigger: 'auto' },
    { name: 'SessionEnd', reason: 'other' },
  ])('$name is allowed and changes nothing', (event) => {
    const session = planExecute();
    const before = session.state;
    const evaluation = session.send(event);
    expect(evaluation.decision.kind).toBe('allow');
    expect(evaluation.effects).toEqual([]);
    expect(evaluation.state).toBe(before);
  });
});

describe('a disabled workflow allows everything', () => {
  function disabledSession(): Session {
    const session = planExecute();
    session.state = { ...session.state, disabled: { reason: 'user ran gobby workflow disable', at: T0 } };
    return session;
  }

  it.each([
    pre('Write', { file_path: 'a.ts' }),
    pre('Bash', { command: 'rm -rf build' }),
    pre('mcp__github__merge'),
    post('Write'),
    failed('Bash'),
    say('yes'),
    stop,
    sessionStart(),
  ])('%j → allow, no context, no effects, state untouched', (event) => {
    const session = disabledSession();
    const before = session.state;
    const evaluation = session.send(event);
    expect(evaluation.decision).toMatchObject({ kind: 'allow', because: 'workflow disabled: user ran gobby workflow disable' });
    expect(contextOf(evaluation)).toBeUndefined();
    expect(evaluation.effects).toEqual([]);
    expect(evaluation.state).toBe(before);
  });
});

const LOOP = `
name: act-reflect
variables:
  limit: 3
phases:
  - name: act
    description: Implement.
    on_enter:
      - action: inject_message
        content: "entered {{ phase }} (errors so far: {{ errors }})"
    transitions:
      - to: reflect
        when: "phase_action_count >= limit"
      - to: reflect
        when: "tool_result.is_error"
        on_transition:
          - action: increment_variable
            name: errors
  - name: reflect
    allowed_tools: [Read, Grep]
    on_enter:
      - action: inject_message
        content: "REFLECT after {{ total_action_count }} actions"
    transitions:
      - to: act
        when: "user_says('continue') or user_says('proceed')"
      - to: done
        when: "user_says('done', 'complete')"
  - name: done
    allowed_tools: []
`;

describe('transitions with `when`', () => {
  it('phase_action_count >= N fires on the Nth tool result', () => {
    const session = new Session(compile(LOOP));
    expect(session.state.pendingMessages).toEqual(['entered act (errors so far: )']);
    const results = session.play([
      { event: sessionStart(), context: ['entered act'] },
      { event: post('Read'), phase: 'act', effects: [], noContext: true },
      { event: post('Edit'), phase: 'act', effects: [], noContext: true },
      {
        event: post('Edit'),
        phase: 'reflect',
        effects: ['phase_changed'],
        context: ['REFLECT after 3 actions', '[gobby] Workflow `act-reflect` is in phase `reflect` (2 of 3)', 'Tools allowed in this phase: Read, Grep.'],
      },
    ]);
    expect(results[3]!.effects).toEqual([{ type: 'phase_changed', from: 'act', to: 'reflect', cause: 'when phase_action_count >= limit' }]);
    expect(session.state).toMatchObject({ phaseActionCount: 0, totalActionCount: 3 });
  });

  it('tool_result.is_error fires on PostToolUseFailure, never on PostToolUse', () => {
    const session = new Session(compile(LOOP));
    session.play([
      { event: post('Bash', { command: 'npm test' }), phase: 'act', effects: [] },
      { event: failed('Bash', 'npm test failed', { command: 'npm test' }), phase: 'reflect', effects: ['phase_changed'], context: ['REFLECT after 2 actions'] },
    ]);
    expect(session.state.variables.errors).toBe(1);
  });

  it.each([
    ['continue', 'act'],
    ['OK, Proceed.', 'act'],
    ['CONTINUE!', 'act'],
    ['I am done', 'done'],
    ['complete', 'done'],
    ['discontinue that', 'reflect'], // whole words only
    ['undone', 'reflect'],
    ['what next?', 'reflect'],
  ])('in `reflect`, the prompt %j leads to `%s`', (prompt, expected) => {
    const session = new Session(compile(LOOP));
    session.send(failed('Bash'));
    expect(session.state.phase).toBe('reflect');
    const evaluation = session.send(say(prompt));
    expect(evaluation.state.phase).toBe(expected);
    expect(evaluation.effects.map((e) => e.type)).toEqual(expected === 'reflect' ? [] : ['phase_changed']);
  });

  it('user_says does not fire on tool events (there is no prompt)', () => {
    const session = new Session(compile(LOOP));
    session.send(failed('Bash'));
    session.send(post('Read', { file_path: 'continue.md' }));
    expect(session.state.phase).toBe('reflect');
  });

  it('a phase entered by a transition gets its on_enter message and the phase context on the prompt that moved it', () => {
    const session = new Session(compile(LOOP));
    session.send(failed('Bash'));
    session.play([
      { event: say('continue'), phase: 'act', effects: ['phase_changed'], context: ['entered act (errors so far: 1)', 'is in phase `act` (1 of 3): Implement.'] },
    ]);
  });

  it('the first transition whose condition holds wins', () => {
    const workflow = compile(`
name: first-wins
phases:
  - name: a
    transitions:
      - to: b
        when: "user_says('go')"
      - to: c
        when: "user_says('go')"
  - name: b
  - name: c
`);
    const session = new Session(workflow);
    expect(session.send(say('go')).effects).toEqual([{ type: 'phase_changed', from: 'a', to: 'b', cause: "when user_says('go')" }]);
  });

  it('transitions are checked on Stop as well', () => {
    const workflow = compile(`
name: on-stop
phases:
  - name: a
    transitions:
      - to: b
        when: "event == 'Stop'"
  - name: b
`);
    const session = new Session(workflow);
    session.play([
      { event: say('hello'), phase: 'a', effects: [] },
      { event: post('Read'), phase: 'a', effects: [] },
      { event: stop, phase: 'b', effects: ['phase_changed'], noContext: true },
      // The entry message waits for the next prompt (context on Stop would make the model continue).
      { event: say('hi'), context: ['is in phase `b`'] },
    ]);
  });
});

describe('on_exit → on_transition → on_enter', () => {
  const ORDER = `
name: order
variables:
  trail: ""
phases:
  - name: a
    on_exit:
      - action: inject_message
        content: "exit {{ phase }}"
      - action: set_variable
        name: note
        value: from-exit
      - action: increment_variable
        name: moves
        by: 2
    transitions:
      - to: b
        when: "user_says('next')"
        on_transition:
          - action: inject_message
            content: "transition {{ phase }} note={{ note }}"
          - action: increment_variable
            name: moves
          - action: inject_message
            when: "moves > 100"
            content: "never shown"
  - name: b
    on_enter:
      - action: inject_message
        content: "enter {{ phase }} moves={{ moves }} note={{ note }}"
      - action: set_variable
        name: arrived
        value: [1, 2]
        when: "moves == 3"
    transitions:
      - to: a
        when: "user_says('back')"
`;

  it('runs in that order; each action sees what the previous ones set', () => {
    const session = new Session(compile(ORDER));
    session.play([
      { event: say('next'), phase: 'b', effects: ['phase_changed'], context: ['exit a', 'transition a note=from-exit', 'enter b moves=3 note=from-exit', 'is in phase `b`'], notContext: ['never shown'] },
    ]);
    expect(session.state.variables).toMatchObject({ trail: '', note: 'from-exit', moves: 3, arrived: [1, 2] });
  });

  it('on_exit runs every time the phase is left; increment_variable keeps adding', () => {
    const session = new Session(compile(ORDER));
    session.send(say('next'));
    session.send(say('back'));
    session.play([{ event: say('next'), phase: 'b', context: ['exit a', 'transition a', 'enter b moves=6'] }]);
    expect(session.state.variables.moves).toBe(6);
    expect(session.state.variables.arrived).toEqual([1, 2]); // set on the first visit only
  });

  it('increment_variable treats a non-number as 0 (a value set_variable put there; an initial one is a load error)', () => {
    const workflow = compile(`
name: inc
phases:
  - name: a
    on_enter:
      - action: set_variable
        name: count
        value: many
      - action: increment_variable
        name: count
        by: 5
`);
    expect(new Session(workflow).state.variables.count).toBe(5);
  });
});

describe('exit conditions', () => {
  it('an expression exit condition moves to the next phase on its own, running on_exit', () => {
    const workflow = compile(`
name: auto
phases:
  - name: explore
    on_exit:
      - action: inject_message
        content: "leaving explore after {{ phase_action_count }} actions"
    exit_conditions:
      - type: expression
        when: "phase_action_count >= 2"
  - name: build
    on_enter:
      - action: inject_message
        content: "build started"
`);
    const session = new Session(workflow);
    const [, second] = session.play([
      { event: post('Read'), phase: 'explore', effects: [] },
      { event: post('Read'), phase: 'build', effects: ['phase_changed'], context: ['leaving explore after 2 actions', 'build started', 'is in phase `build`'] },
    ]);
    expect(second!.effects).toEqual([{ type: 'phase_changed', from: 'explore', to: 'build', cause: 'exit conditions met' }]);
  });

  it('the way out names the condition', () => {
    const workflow = compile(`
name: auto
phases:
  - name: explore
    exit_conditions:
      - type: expression
        when: "phase_action_count >= 2"
  - name: build
`);
    const session = new Session(workflow);
    expect(contextOf(session.send(sessionStart()))).toContain('The workflow moves to `build` once phase_action_count >= 2.');
  });

  it('with user_approval, the question is only asked once the other conditions hold', () => {
    const workflow = compile(`
name: gated
phases:
  - name: plan
    exit_conditions:
      - type: expression
        when: "total_action_count >= 1"
      - type: user_approval
        prompt: "Ship it?"
  - name: ship
`);
    const session = new Session(workflow);
    session.play([
      { event: sessionStart(), context: ['Once total_action_count >= 1, present your work and end your turn with exactly this question to the user: "Ship it?"'] },
      { event: stop, effects: [], approvalPending: false },
      { event: say('yes'), phase: 'plan', effects: [] },
      { event: post('Read'), phase: 'plan', effects: [] }, // approval needed: no auto-advance
      { event: stop, effects: ['approval_requested'], approvalPending: true },
      { event: say('yes'), phase: 'ship', effects: ['phase_changed'] },
    ]);
  });

  it('user_approval without a prompt asks the default question', () => {
    const workflow = compile(`
name: default-prompt
phases:
  - name: a
    exit_conditions:
      - type: user_approval
  - name: b
`);
    const session = new Session(workflow);
    expect(session.send(stop).effects).toEqual([{ type: 'approval_requested', phase: 'a', prompt: 'Ready to move on?' }]);
  });

  it('seconds_in_phase reads the clock passed in', () => {
    const workflow = compile(`
name: timed
phases:
  - name: a
    exit_conditions:
      - type: expression
        when: "seconds_in_phase >= 60"
  - name: b
`);
    const session = new Session(workflow);
    session.play([
      { event: post('Read'), at: T0 + 59_999, phase: 'a' },
      { event: post('Read'), at: T0 + 60_000, phase: 'b', effects: ['phase_changed'] },
    ]);
    expect(session.state.phaseEnteredAt).toBe(T0 + 60_000);
  });

  // `variable_set` compiles to `variables.<name> != null`: unset and null both wait.
  it('a variable_set exit condition advances once the variable is set', () => {
    const workflow = compile(`
name: var-set
variables:
  plan_file:
phases:
  - name: a
    exit_conditions:
      - type: variable_set
        variable: plan_file
  - name: b
`);
    const session = new Session(workflow);
    session.play([{ event: post('Write'), phase: 'a', effects: [] }]);
    session.state = { ...session.state, variables: { ...session.state.variables, plan_file: null } };
    session.play([{ event: post('Write'), phase: 'a', effects: [] }]);
    // As a set_variable action would.
    session.state = { ...session.state, variables: { ...session.state.variables, plan_file: 'plan.md' } };
    session.play([{ event: post('Read'), phase: 'b', effects: ['phase_changed'] }]);
  });
});

describe('rules', () => {
  const RULES = `
name: guarded
phases:
  - name: work
    rules:
      - when: "tool == 'Bash' and command_contains('rm -rf', 'git push --force')"
        action: block
        message: "Destructive command refused: {{ command }}"
      - when: "tool == 'Edit' and file.endsWith('.lock')"
        action: warn
        message: "Editing a lock file: {{ file }}"
      - when: "tool_name == 'NotebookEdit' and blocked_count >= 1"
        action: warn
        message: "notebook after {{ blocked_count }} refusals"
    blocked_tools: [WebFetch]
`;

  it.each<[string, EngineEvent, 'allow' | 'deny']>([
    ['rm -rf', pre('Bash', { command: 'rm -rf build' }), 'deny'],
    ['force push', pre('Bash', { command: 'git push --force origin main' }), 'deny'],
    ['a harmless command', pre('Bash', { command: 'ls -la' }), 'allow'],
    ['rm -rf in a file path, not a command', pre('Write', { file_path: 'rm -rf.txt' }), 'allow'],
    ['an Edit of a lock file (warn only)', pre('Edit', { file_path: 'yarn.lock' }), 'allow'],
  ])('%s → %s', (_label, event, decision) => {
    const session = new Session(compile(RULES));
    expect(session.send(event).decision.kind).toBe(decision);
  });

  it('block: the reason carries the rendered message and the phase; blocked_count goes up', () => {
    const session = new Session(compile(RULES));
    const evaluation = session.send(pre('Bash', { command: 'rm -rf build' }));
    expect(reasonOf(evaluation)).toBe(
      'Workflow rule (guarded, phase work): Destructive command refused: rm -rf build. This is the last phase of the workflow.',
    );
    expect(evaluation.decision.kind === 'deny' && evaluation.decision.because).toBe(
      "phase work rule 1 (tool == 'Bash' and command_contains('rm -rf', 'git push --force'))",
    );
    expect(session.state.blockedCount).toBe(1);
  });

  it('warn: allowed silently, the warning rides on the tool result', () => {
    const session = new Session(compile(RULES));
    session.play([
      { event: pre('Edit', { file_path: 'yarn.lock' }), decision: 'allow', noContext: true },
      { event: post('Edit', { file_path: 'yarn.lock' }), decision: 'allow', context: ['[gobby] Editing a lock file: yarn.lock'] },
      { event: pre('Edit', { file_path: 'src/a.ts' }), decision: 'allow', noContext: true },
      { event: post('Edit', { file_path: 'src/a.ts' }), decision: 'allow', noContext: true },
    ]);
  });

  it('an `and` rule needs both sides: the Edit-only warning stays quiet on Write', () => {
    const session = new Session(compile(RULES));
    session.play([
      { event: pre('Write', { file_path: 'yarn.lock' }), decision: 'allow' },
      { event: post('Write', { file_path: 'yarn.lock' }), decision: 'allow', noContext: true },
      { event: pre('Bash', { command: 'echo rm -rf' }), decision: 'deny' },
      { event: pre('Write', { file_path: 'notes.txt', command: 'rm -rf build' }), decision: 'allow' },
    ]);
    expect(session.state.pendingMessages).toEqual([]);
  });

  it('rules read blocked_count and the notebook path', () => {
    const session = new Session(compile(RULES));
    session.send(pre('WebFetch'));
    session.send(pre('NotebookEdit', { notebook_path: 'a.ipynb' }));
    expect(session.state.pendingMessages).toEqual(['[gobby] notebook after 1 refusals']);
  });

  it('a tool the phase refuses is refused before any rule runs', () => {
    const session = new Session(compile(RULES));
    const reason = reasonOf(session.send(pre('WebFetch')));
    expect(reason).toContain('Workflow rule (guarded, phase work): WebFetch is not allowed in this phase.');
    expect(reason).toContain('Allowed now: all tools except WebFetch.');
  });
});

describe('tool names and patterns', () => {
  const TOOLS = `
name: tools
phases:
  - name: scoped
    allowed_tools: [Task, Read, "mcp__github__*", KillShell]
    blocked_tools: [Bash]
`;
  it.each([
    ['Agent', 'allow'], // `Task` in the definition is today's `Agent`
    ['Task', 'allow'],
    ['Read', 'allow'],
    ['mcp__github__create_issue', 'allow'],
    ['mcp__github__get_pull_request', 'allow'],
    ['mcp__gitlab__create_issue', 'deny'],
    ['mcp__github', 'deny'],
    ['xmcp__github__create_issue', 'deny'],
    ['TaskStop', 'allow'], // `KillShell` is an old name of TaskStop
    ['Bash', 'deny'], // blocked (naming it in allowed_tools too is a load error: engine-compile.test.ts)
    ['Write', 'deny'],
  ] as const)('allowed_tools [Task, Read, mcp__github__*, KillShell] + blocked [Bash]: %s → %s', (tool, decision) => {
    const session = new Session(compile(TOOLS));
    expect(session.send(pre(tool)).decision.kind).toBe(decision);
  });

  it('the deny reason lists the usable tools by the names the model knows (`Task` is `Agent`)', () => {
    const session = new Session(compile(TOOLS));
    expect(reasonOf(session.send(pre('Write')))).toContain('Allowed now: Agent, Read, mcp__github__*, TaskStop.');
    const blocked = new Session(compile('name: t\nphases:\n  - name: p\n    blocked_tools: [Task]\n'));
    expect(reasonOf(blocked.send(pre('Agent')))).toContain('Allowed now: all tools except Agent.');
  });

  it.each(["tool == 'Task'", 'tool in ["Read", "Task"]', "tool_name == 'Task'"])('a condition that names the old alias matches the tool as hooks report it: %s', (when) => {
    const session = new Session(compile(`name: t\nphases:\n  - name: p\n    rules:\n      - when: "${when.replaceAll('"', '\\"')}"\n        action: block\n        message: no subagents here\n`));
    expect(session.send(pre('Agent')).decision.kind).toBe('deny');
    expect(session.send(pre('Write')).decision.kind).toBe('allow');
  });

  it.each([
    ['Write', 'allow'],
    ['mcp__slack__post', 'deny'],
    ['Bash', 'deny'],
  ] as const)('allowed_tools: all with blocked [mcp__*, Bash]: %s → %s', (tool, decision) => {
    const workflow = compile(`
name: tools
phases:
  - name: p
    blocked_tools: ["mcp__*", Bash]
`);
    expect(new Session(workflow).send(pre(tool)).decision.kind).toBe(decision);
  });

  it('allowed_tools: [] refuses everything and says so', () => {
    const workflow = compile(`
name: none
phases:
  - name: p
    allowed_tools: []
`);
    const session = new Session(workflow);
    expect(reasonOf(session.send(pre('Read')))).toContain('Allowed now: no tools.');
    expect(contextOf(session.send(sessionStart()))).toContain('Tools allowed in this phase: no tools. Other tools are refused by gobby.');
  });
});

describe('startWorkflow and on_session_start', () => {
  it('enter_phase can start the session in a later phase; the first phase is never entered', () => {
    const workflow = compile(`
name: skip
phases:
  - name: a
    on_enter:
      - action: inject_message
        content: "in a"
  - name: b
    on_enter:
      - action: inject_message
        content: "in b"
triggers:
  on_session_start:
    - action: inject_message
      content: "welcome ({{ workflow }})"
    - action: enter_phase
      phase: b
      when: "not workflow_state.phase"
`);
    const { state, effects } = startWorkflow(workflow, { now: T0 });
    expect(state.phase).toBe('b');
    expect(state.pendingMessages).toEqual(['welcome (skip)', 'in b']);
    expect(effects).toEqual([{ type: 'phase_changed', from: null, to: 'b', cause: 'workflow started' }]);
  });

  it('an enter_phase whose condition is false leaves the session in the first phase', () => {
    const workflow = compile(`
name: stay
phases:
  - name: a
  - name: b
triggers:
  on_session_start:
    - action: enter_phase
      phase: b
      when: "workflow_state.phase == 'b'"
`);
    expect(startWorkflow(workflow, { now: T0 }).state.phase).toBe('a');
  });

  it('declared variables start with their values', () => {
    const workflow = compile(`
name: vars
variables:
  retries: 2
  labels: [a, b]
phases:
  - name: a
    on_enter:
      - action: inject_message
        content: "{{ retries }} {{ labels | join('+') }} {{ variables.retries }}"
`);
    const { state } = startWorkflow(workflow, { now: T0 });
    expect(state.variables).toEqual({ retries: 2, labels: ['a', 'b'] });
    expect(state.pendingMessages).toEqual(['2 a+b 2']);
  });

  it('a trigger sees the variables set by the triggers before it', () => {
    const workflow = compile(`
name: ordered-triggers
variables:
  mode: none
phases:
  - name: a
  - name: b
triggers:
  on_session_start:
    - action: set_variable
      name: mode
      value: fast
    - action: enter_phase
      phase: b
      when: "mode == 'fast'"
    - action: inject_message
      content: "mode {{ mode }}"
      when: "mode != 'none'"
`);
    const { state } = startWorkflow(workflow, { now: T0 });
    expect(state.phase).toBe('b');
    expect(state.variables.mode).toBe('fast');
    expect(state.pendingMessages).toEqual(['mode fast']);
  });
});

describe('movePhase (the human override)', () => {
  it('moves at once, queues the target on_enter message, resets the phase counters and any open question', () => {
    const session = planAwaitingApproval();
    const moved = movePhase(session.workflow, session.state, 'execute', 'gobby workflow phase execute', { now: T0 + 1_000 });
    expect(moved.effects).toEqual([{ type: 'phase_changed', from: 'plan', to: 'execute', cause: 'gobby workflow phase execute' }]);
    expect(moved.state).toMatchObject({ phase: 'execute', phaseActionCount: 0, totalActionCount: 1, pendingApproval: null, phaseEnteredAt: T0 + 1_000 });
    expect(moved.state.pendingMessages).toEqual([expect.stringContaining(EXECUTE_ENTER)]);
    session.state = moved.state;
    session.play([{ event: say('go on'), context: [EXECUTE_ENTER, EXECUTE_HEADER] }]);
  });

  it('runs the current phase\'s on_exit, then the target\'s on_enter, but no transition\'s actions', () => {
    const workflow = compile(`
name: forced
phases:
  - name: a
    on_exit:
      - action: inject_message
        content: "exit {{ phase }} after {{ phase_action_count }} actions"
      - action: set_variable
        name: left_from
        value: a
    transitions:
      - to: b
        when: "user_says('next')"
        on_transition:
          - action: inject_message
            content: "transition"
  - name: b
    on_enter:
      - action: inject_message
        content: "enter {{ phase }} from {{ left_from }}"
  - name: c
    on_enter:
      - action: inject_message
        content: "enter {{ phase }}"
`);
    const session = new Session(workflow);
    session.send(post('Read'));
    session.state = { ...session.state, pendingMessages: [] };
    const moved = movePhase(workflow, session.state, 'c', 'gobby workflow phase c --force', { now: T0 + 1_000 });
    expect(moved.effects).toEqual([{ type: 'phase_changed', from: 'a', to: 'c', cause: 'gobby workflow phase c --force' }]);
    expect(moved.state.pendingMessages).toEqual(['exit a after 1 actions', 'enter c']);
    expect(moved.state.variables.left_from).toBe('a');
    const back = movePhase(workflow, { ...session.state, pendingMessages: [] }, 'b', 'gobby workflow phase b', { now: T0 + 2_000 });
    expect(back.state.pendingMessages).toEqual(['exit a after 1 actions', 'enter b from a']);
    // A phase without on_exit adds nothing of its own.
    expect(movePhase(workflow, back.state, 'c', 'again', { now: T0 + 3_000 }).state.pendingMessages).toEqual([...back.state.pendingMessages, 'enter c']);
  });

  it('can move back to an earlier phase', () => {
    const session = planExecute();
    const moved = movePhase(session.workflow, { ...session.state, phase: 'execute' }, 'plan', 'reset', { now: T0 });
    expect(moved.state.phase).toBe('plan');
    session.state = moved.state;
    expect(session.send(pre('Write')).decision.kind).toBe('deny');
  });

  it('a phase that does not exist is an error, not a silent no-op', () => {
    const session = planExecute();
    expect(() => movePhase(session.workflow, session.state, 'review', 'typo', { now: T0 })).toThrow(/review/);
  });
});

describe('reachablePhases', () => {
  it('plan-execute: `execute` from `plan`, nothing from `execute`', () => {
    const workflow = loadTemplate('plan-execute');
    const { state } = startWorkflow(workflow, { now: T0 });
    expect(reachablePhases(workflow, state, { now: T0 })).toEqual(['execute']);
    expect(reachablePhases(workflow, { ...state, phase: 'execute' }, { now: T0 })).toEqual([]);
  });

  it('lists transition targets once each, in the order written', () => {
    const workflow = compile(LOOP);
    const { state } = startWorkflow(workflow, { now: T0 });
    expect(reachablePhases(workflow, state, { now: T0 })).toEqual(['reflect']);
    expect(reachablePhases(workflow, { ...state, phase: 'reflect' }, { now: T0 })).toEqual(['act', 'done']);
    expect(reachablePhases(workflow, { ...state, phase: 'done' }, { now: T0 })).toEqual([]);
  });

  it('adds the next phase only once its exit conditions hold', () => {
    const workflow = compile(`
name: reach
phases:
  - name: a
    exit_conditions:
      - type: expression
        when: "total_action_count >= 5"
  - name: b
`);
    const { state } = startWorkflow(workflow, { now: T0 });
    expect(reachablePhases(workflow, state, { now: T0 })).toEqual([]);
    expect(reachablePhases(workflow, { ...state, totalActionCount: 5 }, { now: T0 })).toEqual(['b']);
  });

  it('exit conditions read the clock passed in (seconds_in_phase)', () => {
    const workflow = compile(`
name: reach-timed
phases:
  - name: a
    exit_conditions:
      - type: expression
        when: "seconds_in_phase >= 60"
  - name: b
`);
    const { state } = startWorkflow(workflow, { now: T0 });
    expect(reachablePhases(workflow, state, { now: T0 })).toEqual([]);
    expect(reachablePhases(workflow, state, { now: T0 + 59_999 })).toEqual([]);
    expect(reachablePhases(workflow, state, { now: T0 + 60_000 })).toEqual(['b']);
  });
});

describe('renderCurrentPhaseContext', () => {
  it('renders the instructions template against the current state', () => {
    const workflow = compile(`
name: ctx
variables:
  goal: "fix the login bug"
phases:
  - name: work
    description: Do the work.
    instructions: |
      Goal: {{ goal }}.
      {% if approval_pending %}Waiting for the user.{% else %}Keep going.{% endif %}
      Actions so far: {{ phase_action_count }}
`);
    const { state } = startWorkflow(workflow, { now: T0 });
    const text = renderCurrentPhaseContext(workflow, { ...state, phaseActionCount: 4 }, { now: T0 });
    expect(text).toBe(
      [
        '[gobby] Workflow `ctx` is in phase `work` (1 of 1): Do the work.',
        'Goal: fix the login bug.\nKeep going.\nActions so far: 4',
        'Tools allowed in this phase: all tools.',
        'This is the last phase of the workflow.',
      ].join('\n'),
    );
  });

  it('a middle phase with no way out says only the user can move it on', () => {
    const workflow = compile(`
name: stuck
phases:
  - name: a
  - name: b
`);
    const state: WorkflowState = startWorkflow(workflow, { now: T0 }).state;
    expect(renderCurrentPhaseContext(workflow, state, { now: T0 })).toContain('Only the user can move the workflow on from here.');
  });
});

describe('evaluateEvent is pure', () => {
  it('the same state and event give the same answer, and the input state is not mutated', () => {
    const workflow = loadTemplate('plan-execute');
    const { state } = startWorkflow(workflow, { now: T0 });
    const frozen = structuredClone(state);
    const a = evaluateEvent(workflow, state, sessionStart(), { now: T0 });
    const b = evaluateEvent(workflow, state, sessionStart(), { now: T0 });
    expect(a).toEqual(b);
    expect(state).toEqual(frozen);
  });
});

describe('findOverrideCommand', () => {
  it.each([
    'gobby workflow phase execute --force',
    'npx gobby workflow reset',
    'gobby workflow disable',
    'gobby workflow enable',
    'gobby workflow set mode fast',
    'gobby workflow clear',
    'gobby uninstall',
    'gobby install',
    'gobby setup --remove',
    '~/.local/bin/gobby setup --force --bin-dir /tmp/x',
    'gobby daemon stop',
    'cd /repo && gobby workflow phase execute',
    'npm test; gobby workflow reset',
    'gobby --project . workflow phase execute',
    'bash -c "gobby workflow disable"',
    'gobby  workflow   phase execute',
    'node dist/daemon/cli/main.js workflow reset', // the built CLI, run by path
    'node /opt/gobby/dist/daemon/cli/program.js workflow phase execute --force', // the full CLI, skipping the dispatcher
    'node /usr/lib/node_modules/gobby/dist/daemon/cli/main.js workflow phase execute --force',
  ])('refuses %j', (command) => {
    const reason = findOverrideCommand(command);
    expect(reason).not.toBeNull();
    expect(reason).toContain('only the user may run it');
  });

  it.each([
    'gobby workflow status',
    'gobby workflow list',
    'gobby why',
    'echo gobby',
    'ls gobby/ && cat workflow.md',
    'grep -r "workflow reset" docs',
    'echo gobby; echo workflow reset',
    'npm test',
    'gobbyist workflow reset',
    'node dist/daemon/cli/main.js workflow status',
    'cat daemon/cli/main.ts && echo workflow reset',
  ])('allows %j', (command) => {
    expect(findOverrideCommand(command)).toBeNull();
  });

  // Confusing: the pattern looks at the text, not at what runs, so a commit message or an
  // echo that mentions a command is refused too.
  it.each(['git commit -m "gobby: fix workflow reset"', 'echo "run gobby workflow disable to stop it"'])('text match: %j is refused', (command) => {
    expect(findOverrideCommand(command)).not.toBeNull();
  });

  it('quotes the command it matched', () => {
    expect(findOverrideCommand('cd x && npx gobby workflow reset --yes')).toMatch(/^gobby: `gobby workflow reset` changes gobby's own enforcement/);
    expect(findOverrideCommand('node dist/daemon/cli/main.js workflow reset')).toMatch(/^gobby: `daemon\/cli\/main\.js workflow reset` changes gobby's own enforcement/);
    // Any project's own CLI is not gobby's (`node dist/cli/main.js setup`).
    expect(findOverrideCommand('node dist/cli/main.js setup')).toBeNull();
  });
});

describe('a tool result whose call gobby never saw (ctx.toolCallSeen false)', () => {
  const workflow = loadTemplate('plan-execute');
  const started = startWorkflow(workflow, { now: T0 }).state;
  const unseen = { now: T0, toolCallSeen: false };

  it.each([
    ['Write, blocked by name', post('Write', { file_path: 'a', content: 'x' })],
    ['Bash, failed', failed('Bash', 'x', { command: 'rm -rf /' })],
    ['MultiEdit, refused where files may not change', post('MultiEdit', { file_path: 'a', edits: [] })],
  ])('%s in plan: ran unchecked, nothing counted', (_what, event) => {
    const evaluation = evaluateEvent(workflow, started, event, unseen);
    expect(evaluation.decision).toMatchObject({ kind: 'allow', ranUnchecked: true });
    expect(evaluation.decision.notice).toMatch(/^gobby: \w+ ran.* in plan-execute's phase `plan`, which refuses it/);
    expect(evaluation.state).toBe(started);
    expect(evaluation.effects).toEqual([]);
  });

  it('a tool the phase allows is counted as ever', () => {
    const evaluation = evaluateEvent(workflow, started, post('Read', { file_path: 'a' }), unseen);
    expect(evaluation.decision).not.toHaveProperty('ranUnchecked');
    expect(evaluation.state.phaseActionCount).toBe(1);
  });

  it('a refused tool whose call was seen (the phase changed since) is counted', () => {
    const evaluation = evaluateEvent(workflow, started, post('Write', { file_path: 'a', content: 'x' }), { now: T0, toolCallSeen: true });
    expect(evaluation.decision).not.toHaveProperty('ranUnchecked');
    expect(evaluation.state.phaseActionCount).toBe(1);
  });
});
