// The stop gate: the turn may not end while a requirement does not hold, and the gate can
// never hold a session forever (it lets go when the agent waits for the user, when no tool
// ran since its last block, and after max_blocks blocks without progress).
import { describe, expect, it } from 'vitest';
import { renderHookAnswer } from '../../hooks/render.js';
import type { EngineEvent, Evaluation } from '../../workflows/index.js';
import { compile, compileErrors, post, reasonOf, say, Session, type Step } from './engine-test-helpers.js';

const stopWith = (lastAssistantMessage?: string, stopHookActive = false): EngineEvent => ({ name: 'Stop', stopHookActive, lastAssistantMessage });
const stopDone = stopWith('Done.');
const stopAgain = stopWith('Done.', true);
const npmTest = (ok = true): EngineEvent =>
  ok
    ? post('Bash', { command: 'npm test' })
    : { name: 'PostToolUseFailure', toolName: 'Bash', toolInput: { command: 'npm test' }, error: 'exit 1', isInterrupt: false };

// The docs' example: the tests must have passed after the last edit, and a changelog entry.
const TESTED = `
name: tested
variables:
  tests_passed: false
  changelog: false
phases:
  - name: work
    on_tool_result:
      - action: set_variable
        name: tests_passed
        value: false
        when: "tool in ['Write', 'Edit', 'MultiEdit', 'NotebookEdit']"
      - action: set_variable
        name: tests_passed
        value: true
        when: "tool == 'Bash' and command_contains('npm test') and not tool_result.is_error"
      - action: set_variable
        name: changelog
        value: true
        when: "tool == 'Edit' and file == 'CHANGELOG.md'"
    stop_gate:
      max_blocks: 2
      requires:
        - when: "tests_passed"
          missing: "the tests have not passed since the last edit"
          how: "run \`npm test\` and fix what fails"
        - when: "changelog"
          missing: "CHANGELOG.md has no entry ({{ phase_action_count }} tools run so far)"
          how: "add a line to CHANGELOG.md"
`;

function session(text = TESTED): Session {
  return new Session(compile(text));
}

function noticeOf(evaluation: Evaluation): string | undefined {
  return evaluation.decision.kind === 'allow' ? evaluation.decision.notice : undefined;
}

describe('the stop gate blocks', () => {
  it('with exactly what is missing and how to do it', () => {
    const s = session();
    s.send(say('fix the bug'));
    const blocked = s.send(stopDone);
    expect(blocked.decision.kind).toBe('deny');
    expect(reasonOf(blocked)).toBe(
      'Workflow rule (tested, phase work): the turn cannot end yet; this phase requires more.\n' +
        '- Missing: the tests have not passed since the last edit. How: run `npm test` and fix what fails\n' +
        '- Missing: CHANGELOG.md has no entry (0 tools run so far). How: add a line to CHANGELOG.md',
    );
    expect(blocked.effects).toEqual([]);
    // A Stop block is not a refused tool call.
    expect(blocked.state.blockedCount).toBe(0);
  });

  it('lists only what is still missing, and lets the turn end as soon as everything holds', () => {
    const s = session();
    s.play([
      { event: say('fix the bug') },
      { event: stopDone, decision: 'deny' },
      { event: npmTest() },
      { event: stopAgain, decision: 'deny', reason: ['CHANGELOG.md has no entry (1 tools run so far)'] },
    ]);
    expect(reasonOf(s.send(stopAgain)) ?? '').not.toContain('tests have not passed');
  });

  it('lets the turn end at once when the requirements hold, with no notice and no effect', () => {
    const s = session();
    s.play([
      { event: say('fix the bug') },
      { event: post('Edit', { file_path: 'CHANGELOG.md' }) },
      { event: npmTest() },
    ]);
    const ended = s.send(stopDone);
    expect(ended.decision).toEqual({ kind: 'allow', because: 'phase work: turn ended, stop gate satisfied' });
    expect(ended.effects).toEqual([]);
  });

  it('an edit after the tests makes the tests missing again; a failed test run does not count', () => {
    const s = session();
    s.play([
      { event: say('fix the bug') },
      { event: post('Edit', { file_path: 'CHANGELOG.md' }) },
      { event: npmTest() },
      { event: post('Edit', { file_path: 'src/a.ts' }) },
      { event: stopDone, decision: 'deny', reason: ['the tests have not passed since the last edit'] },
      { event: npmTest(false) },
      { event: stopAgain, decision: 'deny', reason: ['the tests have not passed since the last edit'] },
      { event: npmTest(true) },
      { event: stopAgain, decision: 'allow', effects: [] },
    ]);
  });
});

describe('the stop gate lets go when the agent waits for the user', () => {
  it.each([
    ['a question', 'I found two ways to fix this. Which one do you prefer?'],
    ['a question in bold, then quotes', 'Should I also update the docs?**"'],
    ['a question followed by blank lines', 'Shall I go on?\n\n'],
  ])('its last message ends with %s', (_label, message) => {
    const s = session();
    s.send(say('fix the bug'));
    const ended = s.send(stopWith(message));
    expect(ended.decision.kind).toBe('allow');
    expect(noticeOf(ended)).toContain('Let through because the agent asked you a question.');
    expect(ended.effects).toEqual([
      { type: 'stop_released', phase: 'work', reason: 'asks_user', unmet: ['the tests have not passed since the last edit', 'CHANGELOG.md has no entry (0 tools run so far)'], blocks: 0 },
    ]);
  });

  it.each([
    ['a question mid-report', 'Why did it fail? Because the mock was stale. Fixed.'],
    ['no message (older Claude Code)', undefined],
  ])('but not when the message has %s', (_label, message) => {
    const s = session();
    s.send(say('fix the bug'));
    expect(s.send(stopWith(message)).decision.kind).toBe('deny');
  });

  it('an approval pending after this Stop', () => {
    const s = session(`
name: gated-plan
variables: { planned: false }
phases:
  - name: plan
    on_tool_result:
      - { action: set_variable, name: planned, value: true, when: "tool == 'Write'" }
    exit_conditions:
      - type: user_approval
        prompt: "Ready to implement?"
    stop_gate:
      requires:
        - { when: "planned", missing: "no plan file", how: "write PLAN.md" }
  - name: build
`);
    s.send(say('plan it'));
    const asked = s.send(stopWith('Here is the plan. Ready to implement?'));
    expect(asked.state.pendingApproval).not.toBeNull();
    expect(asked.decision.kind).toBe('allow');
    expect(asked.effects.map((effect) => effect.type)).toEqual(['approval_requested', 'stop_released']);
    expect(asked.effects[1]).toMatchObject({ reason: 'approval_pending' });
    expect(noticeOf(asked)).toContain('waiting for your approval');
  });
});

describe('the stop gate never loops', () => {
  it('re-blocks only after a tool ran; a Stop with no tool since the block is let through', () => {
    const s = session();
    s.play([
      { event: say('fix the bug') },
      { event: stopDone, decision: 'deny' },
      { event: post('Read', { file_path: 'a.ts' }) },
      { event: stopAgain, decision: 'deny' },
    ]);
    const released = s.send(stopAgain);
    expect(released.decision.kind).toBe('allow');
    expect(released.effects).toEqual([expect.objectContaining({ type: 'stop_released', reason: 'no_tool_since_block', blocks: 2 })]);
    expect(noticeOf(released)).toBe(
      'gobby: the turn ended after 2 stop blocks with the `work` phase of `tested` still missing: ' +
        'the tests have not passed since the last edit; CHANGELOG.md has no entry (1 tools run so far). ' +
        'Let through because the agent ran no tool since it was last held back, so holding it again would only loop.',
    );
  });

  it('releases after max_blocks blocks without progress, with a notice and an effect', () => {
    const s = session();
    const steps: Step[] = [
      { event: say('fix the bug') },
      { event: stopDone, decision: 'deny' },
      { event: post('Read') },
      { event: stopAgain, decision: 'deny' },
      { event: post('Read') },
    ];
    s.play(steps);
    const released = s.send(stopAgain);
    expect(released.decision.kind).toBe('allow');
    expect(noticeOf(released)).toContain('held back as many times as the workflow allows');
    expect(released.effects).toEqual([expect.objectContaining({ type: 'stop_released', phase: 'work', reason: 'max_blocks', blocks: 2 })]);
  });

  it('progress (fewer requirements unmet) earns max_blocks more blocks', () => {
    const s = session();
    s.play([
      { event: say('fix the bug') },
      { event: stopDone, decision: 'deny' },
      { event: post('Read') },
      { event: stopAgain, decision: 'deny' },
      { event: npmTest() },
      { event: stopAgain, decision: 'deny', reason: ['CHANGELOG.md'] },
      { event: post('Read') },
      { event: stopAgain, decision: 'deny' },
      { event: post('Read') },
      { event: stopAgain, decision: 'allow', effects: ['stop_released'] },
    ]);
  });

  it('never blocks a turn more than 7 times, whatever progress is made', () => {
    const requires = Array.from({ length: 9 }, (_, i) => `        - { when: "v${i}", missing: "v${i} unset", how: "run tool ${i}" }`).join('\n');
    const setters = Array.from({ length: 9 }, (_, i) => `      - { action: set_variable, name: v${i}, value: true, when: "tool == 'mcp__t__${i}'" }`).join('\n');
    const s = session(`
name: many
variables: { ${Array.from({ length: 9 }, (_, i) => `v${i}: false`).join(', ')} }
phases:
  - name: work
    on_tool_result:
${setters}
    stop_gate:
      max_blocks: 1
      requires:
${requires}
`);
    s.send(say('go'));
    const decisions: string[] = [];
    for (let i = 0; i < 9; i++) {
      decisions.push(s.send(stopAgain).decision.kind);
      s.send(post(`mcp__t__${i}`));
    }
    expect(decisions).toEqual(['deny', 'deny', 'deny', 'deny', 'deny', 'deny', 'deny', 'allow', 'deny']);
  });

  it('counters reset on the next prompt', () => {
    const s = session();
    s.play([
      { event: say('fix the bug') },
      { event: stopDone, decision: 'deny' },
      { event: post('Read') },
      { event: stopAgain, decision: 'deny' },
      { event: post('Read') },
      { event: stopAgain, decision: 'allow', effects: ['stop_released'] },
    ]);
    expect(s.state.stopGate.blocksThisTurn).toBe(0);
    s.send(say('why did you stop?'));
    expect(s.send(stopDone).decision.kind).toBe('deny');
    expect(s.state.stopGate).toMatchObject({ blocksThisTurn: 1, blocksWithoutProgress: 1 });
    s.send(say('and now?'));
    expect(s.state.stopGate).toEqual({ blocksWithoutProgress: 0, blocksThisTurn: 0, actionsAtLastBlock: null, unmetAtLastBlock: [] });
    // A fresh turn blocks again even though no tool ran since the last turn's block.
    expect(s.send(stopDone).decision.kind).toBe('deny');
  });
});

describe('a workflow-wide stop gate', () => {
  const WIDE = `
name: wide
variables: { committed: false }
triggers:
  on_tool_result:
    - { action: set_variable, name: committed, value: true, when: "tool == 'Bash' and command_contains('git commit')" }
stop_gate:
  max_blocks: 1
  requires:
    - { when: "committed", missing: "the work is not committed", how: "run git commit" }
phases:
  - name: one
    transitions:
      - { to: two, when: "user_says('next')" }
  - name: two
    stop_gate:
      requires:
        - { when: "phase_action_count > 1", missing: "fewer than two tools in phase two", how: "keep working" }
`;

  it('holds in every phase, adds to a phase gate, and the smaller max_blocks wins', () => {
    const s = session(WIDE);
    s.play([
      { event: say('go') },
      { event: stopDone, decision: 'deny', reason: ['the work is not committed'] },
      { event: say('next'), phase: 'two' },
      { event: stopDone, decision: 'deny', reason: ['the work is not committed', 'fewer than two tools in phase two'] },
      { event: post('Bash', { command: 'git commit -m x' }) },
      { event: stopAgain, decision: 'deny', reason: ['fewer than two tools in phase two'] },
      { event: post('Read') },
      { event: stopAgain, decision: 'allow', effects: [] },
    ]);
  });
});

describe('stored states from before the stop gate', () => {
  it('read as a fresh turn', async () => {
    const { workflowStateSchema } = await import('../../workflows/index.js');
    const s = session();
    const { stopGate: _dropped, ...older } = s.state;
    expect(workflowStateSchema.parse(older).stopGate).toEqual({ blocksWithoutProgress: 0, blocksThisTurn: 0, actionsAtLastBlock: null, unmetAtLastBlock: [] });
  });
});

describe('stop gate definitions that load or not', () => {
  const withGate = (gate: string, extra = '') => `
name: g
variables: { done: false }
phases:
  - name: p
${extra}    stop_gate:
${gate}
`;

  it.each([
    ['max_blocks above 7', '      max_blocks: 8\n      requires:\n        - { when: "done", missing: "m", how: "h" }', /max_blocks/],
    ['max_blocks of 0', '      max_blocks: 0\n      requires:\n        - { when: "done", missing: "m", how: "h" }', /max_blocks/],
    ['an unknown key', '      requires:\n        - { when: "done", missing: "m", how: "h", why: "x" }', /unknown key `why`/],
    ['an empty requires', '      requires: []', /requires/],
    ['a bad expression', '      requires:\n        - { when: "done ==", missing: "m", how: "h" }', /syntax error/],
    ['an unknown name', '      requires:\n        - { when: "dnoe", missing: "m", how: "h" }', /unknown name `dnoe`/],
    ['an unknown name in a template', '      requires:\n        - { when: "done", missing: "{{ nope }}", how: "h" }', /in template: unknown name `nope`/],
  ])('%s is a load error with its place', (_label, gate, message) => {
    const errors = compileErrors(withGate(gate));
    expect(errors[0]?.message).toMatch(message);
    expect(errors[0]).toMatchObject({ file: 'test.yaml' });
    expect(errors[0]!.line).toBeGreaterThanOrEqual(6);
  });

  it.each(['command', 'tool', 'tool_result.is_error == false', 'file', "command_contains('npm test')", "tool_name == 'Bash'", 'prompt'])(
    'a requirement that reads the event-only `%s` is reported: it is always empty at Stop',
    (when) => {
      const errors = compileErrors(withGate(`      requires:\n        - when: "${when}"\n          missing: m\n          how: h`, '    on_tool_result: [{ action: set_variable, name: done, value: true }]\n'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ line: 9, column: 11 });
      expect(errors[0]!.message).toMatch(/is always empty at Stop, so it can never hold: record the fact in a variable with an on_tool_result action/);
    },
  );

  it('a requirement on a variable no action sets is reported', () => {
    const errors = compileErrors(withGate('      requires:\n        - { when: "variables.done == true", missing: "m", how: "h" }'));
    expect(errors.map((error) => error.message)).toEqual([
      'stop gate requirement `variables.done == true` reads variable `done`, which no action ever sets, so it can never change',
    ]);
  });

  it('counts MultiEdit and NotebookEdit as refused where Write and Edit are blocked', () => {
    const gate = (tool: string, allowed = '') => `
name: g
variables: { edited: null }
phases:
  - name: fix
    blocked_tools: [Write, Edit]${allowed}
    on_tool_result:
      - { action: set_variable, name: edited, value: true, when: "tool == '${tool}'" }
    stop_gate:
      requires:
        - { when: "edited", missing: "no edit", how: "edit the file" }
`;
    for (const tool of ['MultiEdit', 'NotebookEdit']) {
      expect(compileErrors(gate(tool)).map((error) => error.message)).toEqual([
        `stop gate requirement \`edited\` in phase \`fix\` waits for variable \`edited\`, which is set only after tools the phase refuses (${tool})`,
      ]);
    }
    // Named in allowed_tools, it runs there, and the gate can hold.
    expect(compile(gate('MultiEdit', '\n    allowed_tools: [Read, MultiEdit]')).phases[0]!.name).toBe('fix');
  });

  it('a requirement on a variable set only after tools the phase blocks is reported', () => {
    const errors = compileErrors(`
name: g
variables: { reviewed: false }
phases:
  - name: review
    blocked_tools: [Write, Edit]
    on_tool_result:
      - { action: set_variable, name: reviewed, value: true, when: "tool in ['Write', 'Edit'] and file == 'REVIEW.md'" }
    stop_gate:
      requires:
        - { when: "reviewed", missing: "no review", how: "write REVIEW.md" }
`);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe(
      'stop gate requirement `reviewed` in phase `review` waits for variable `reviewed`, which is set only after tools the phase refuses (Write, Edit)',
    );
    expect(errors[0]).toMatchObject({ line: 11 });
  });

  it('the same variable is fine when a tool the phase allows sets it, or a phase entry does', () => {
    compile(`
name: g
variables: { reviewed: false }
phases:
  - name: review
    allowed_tools: [Read, Bash]
    on_tool_result:
      - { action: set_variable, name: reviewed, value: true, when: "tool == 'Write'" }
      - { action: set_variable, name: reviewed, value: true, when: "tool == 'Bash' or tool == 'Write'" }
    stop_gate:
      requires:
        - { when: "reviewed", missing: "no review", how: "run the review script" }
  - name: other
    on_enter:
      - { action: set_variable, name: reviewed, value: false }
`);
  });

  it('a workflow-wide gate that already holds at the start is fine in a phase that cannot change it', () => {
    // Edits make the tests due and a test run settles them; the plan phase can do neither,
    // but nothing is due there, so its turns end.
    const workflow = compile(`
name: g
variables: { tests_passed: true }
triggers:
  on_tool_result:
    - { action: set_variable, name: tests_passed, value: false, when: "tool == 'Edit'" }
    - { action: set_variable, name: tests_passed, value: true, when: "tool == 'Bash'" }
stop_gate:
  requires:
    - { when: "tests_passed", missing: "tests due", how: "run them" }
phases:
  - name: plan
    allowed_tools: [Read]
  - name: build
`);
    expect(new Session(workflow).send(stopDone).decision.kind).toBe('allow');
    const errors = compileErrors(`
name: g
variables: { tests_passed: false }
triggers:
  on_tool_result:
    - { action: set_variable, name: tests_passed, value: true, when: "tool == 'Bash'" }
stop_gate:
  requires:
    - { when: "tests_passed", missing: "tests due", how: "run them" }
phases:
  - name: plan
    allowed_tools: [Read]
  - name: build
`);
    expect(errors.map((error) => error.message)).toEqual([
      'stop gate requirement `tests_passed` in phase `plan` waits for variable `tests_passed`, which is set only after tools the phase refuses (Bash)',
    ]);
  });

  it('an unknown action in on_tool_result is a load error', () => {
    const errors = compileErrors(withGate('      requires:\n        - { when: "done", missing: "m", how: "h" }', '    on_tool_result: [{ action: call_llm }]\n'));
    expect(errors[0]!.message).toMatch(/unknown action `call_llm`/);
  });
});

describe('rendered for Claude Code', () => {
  it('a release notice is a top-level systemMessage, shown to the user and never context for the model', () => {
    const s = session();
    s.send(say('fix the bug'));
    const ended = s.send(stopWith('Which fix do you prefer?'));
    expect(renderHookAnswer('Stop', ended.decision)).toEqual({ systemMessage: noticeOf(ended) });
    expect(renderHookAnswer('UserPromptSubmit', { kind: 'allow', context: 'phase work', notice: 'note', because: 'test' })).toEqual({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'phase work' },
      systemMessage: 'note',
    });
  });

  it('a block is decision: block with the reason', () => {
    const s = session();
    s.send(say('fix the bug'));
    const blocked = s.send(stopDone);
    expect(renderHookAnswer('Stop', blocked.decision)).toEqual({ decision: 'block', reason: reasonOf(blocked) });
  });
});
