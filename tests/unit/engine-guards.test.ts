// gobby's own ground is the engine's first check: it holds in every phase, while the
// workflow is disabled, and for sessions without a workflow; its denies count as blocks.
import { describe, expect, it } from 'vitest';
import { evaluateEvent, evaluateGuardsOnly, findOverrideCommand, type EngineContext, type EngineEvent } from '../../workflows/index.js';
import { mcpToolChangesFiles, mcpToolRunsCode } from '../../workflows/shell-policy.js';
import { compile, loadTemplate, pre, reasonOf, say, Session, T0 } from './engine-test-helpers.js';

const TOKEN = '/home/dev/.gobby/token';
const ctx: EngineContext = { now: T0, ground: { secretFiles: [TOKEN] } };

describe('the guards inside evaluateEvent', () => {
  it('refuses an override in a phase that allows Bash, and counts the block', () => {
    const session = new Session(loadTemplate('plan-execute'));
    session.state = { ...session.state, phase: 'execute' };
    const evaluation = evaluateEvent(session.workflow, session.state, pre('Bash', { command: 'npx gobby workflow phase plan --force' }), ctx);
    expect(evaluation.decision).toMatchObject({ kind: 'deny', because: 'guard: human-only override' });
    expect(evaluation.state.blockedCount).toBe(session.state.blockedCount + 1);
  });

  it('holds while the workflow is disabled', () => {
    const session = new Session(loadTemplate('plan-execute'));
    const disabled = { ...session.state, disabled: { reason: 'hotfix', at: T0 } };
    expect(evaluateEvent(session.workflow, disabled, pre('Read', { file_path: TOKEN }), ctx).decision).toMatchObject({
      kind: 'deny',
      because: 'guard: control token',
    });
    expect(evaluateEvent(session.workflow, disabled, pre('Read', { file_path: '/home/dev/README.md' }), ctx).decision.kind).toBe('allow');
  });

  it('protects the files the context names, spelled in full or by their last two segments', () => {
    const session = new Session(loadTemplate('plan-execute'));
    session.state = { ...session.state, phase: 'execute' };
    for (const command of [`cat ${TOKEN}`, 'cat ~/.gobby/token', 'cat "$GOBBY_HOME/../.gobby/token"']) {
      expect(evaluateEvent(session.workflow, session.state, pre('Bash', { command }), ctx).decision.kind, command).toBe('deny');
    }
    // Without the ground in the context, only the human-only commands are guarded.
    expect(evaluateEvent(session.workflow, session.state, pre('Bash', { command: `cat ${TOKEN}` }), { now: T0 }).decision.kind).toBe('allow');
  });
});

describe('evaluateGuardsOnly: a session without a workflow', () => {
  it('denies what the guards deny and has nothing to say otherwise', () => {
    expect(evaluateGuardsOnly(pre('Bash', { command: 'gobby workflow disable --reason x' }), ctx)).toMatchObject({
      decision: { kind: 'deny' },
      effects: [{ type: 'tamper_attempt', kind: 'override' }],
    });
    expect(evaluateGuardsOnly(pre('Bash', { command: 'npm test' }), ctx)).toBeNull();
    expect(evaluateGuardsOnly(say('gobby workflow disable'), ctx)).toBeNull();
  });
});

describe('findOverrideCommand on long input', () => {
  it(
    'stays linear: 300 KB of repeated program names is answered, not stalled',
    () => {
      const noisy = 'gobby '.repeat(50_000);
      expect(findOverrideCommand(noisy)).toBeNull();
      const reason = findOverrideCommand(`${noisy}workflow reset`);
      expect(reason).toContain('only the user may run it');
      expect(reason!.length).toBeLessThan(600);
      expect(findOverrideCommand(`echo ${'x'.repeat(300_000)}; gobby workflow phase execute --force`)).not.toBeNull();
    },
    // Catches the 9-second quadratic regex; a linear scan needs a few milliseconds.
    5_000,
  );
});

describe('mcpToolChangesFiles', () => {
  it.each([
    ['mcp__filesystem__write_file', true],
    ['mcp__github__create_or_update_file', true],
    ['mcp__fs__edit', true],
    ['mcp__fs__writeFile', true],
    ['mcp__notes__setTitle', true],
    ['mcp__docs__settings', false],
    ['mcp__github__get_issue', false],
    ['mcp__docs__search', false],
    ['mcp__my_server__list_files', false],
    ['Write', false],
  ] as const)('%s: %s', (tool, changes) => {
    expect(mcpToolChangesFiles(tool)).toBe(changes);
  });
});

describe('mcpToolRunsCode', () => {
  it.each([
    ['mcp__ide__executeCode', true],
    ['mcp__jupyter__run_cell', true],
    ['mcp__py__eval', true],
    ['mcp__ide__getDiagnostics', false],
    ['mcp__github__get_issue', false],
    ['Bash', false],
  ] as const)('%s: %s', (tool, runs) => {
    expect(mcpToolRunsCode(tool)).toBe(runs);
  });
});

describe('rules per subagent type', () => {
  it('a rule can hold a subagent type to less than the main agent', () => {
    const workflow = compile(`
name: per-agent
phases:
  - name: work
    allowed_tools: all
    rules:
      - when: "agent_type == 'Explore' and tool == 'Bash'"
        action: block
        message: "the Explore subagent only reads"
`);
    const session = new Session(workflow);
    expect(session.send(pre('Bash', { command: 'ls' })).decision.kind).toBe('allow');
    const fromExplore: EngineEvent = { name: 'PreToolUse', toolName: 'Bash', toolInput: { command: 'ls' }, agent: { id: 'a1', type: 'Explore' } };
    expect(session.send(fromExplore).decision).toMatchObject({ kind: 'deny', reason: expect.stringContaining('the Explore subagent only reads') });
  });
});

describe("Claude Code's other file tools where Write and Edit are blocked", () => {
  const phaseWith = (tools: string): ReturnType<typeof compile> =>
    compile(`
name: no-edits
phases:
  - name: review
    allowed_tools: ${tools}
    blocked_tools: [Write, Edit]
`);

  it.each(['MultiEdit', 'NotebookEdit'])('refuses %s, naming the key that allows it, when the phase allows every other tool', (tool) => {
    const session = new Session(phaseWith('all'));
    const evaluation = session.send(pre(tool, { file_path: '/repo/a.ipynb', notebook_path: '/repo/a.ipynb', edits: [] }));
    expect(evaluation.decision.kind).toBe('deny');
    expect(reasonOf(evaluation)).toContain(`changes files (${tool})`);
    expect(reasonOf(evaluation)).toContain(`allowed_tools listing ${tool}`);
  });

  it('lets one through that the phase lists by name', () => {
    const session = new Session(phaseWith('[Read, NotebookEdit]'));
    expect(session.send(pre('NotebookEdit', { notebook_path: '/repo/a.ipynb', new_source: 'x' })).decision.kind).toBe('allow');
  });
});
