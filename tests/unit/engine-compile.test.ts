// Loading a definition: YAML text in → compiled workflow, or errors with file, line and
// column out. Every name a condition or template uses must resolve here, so nothing can
// silently evaluate to false at run time (prior-art: the Python engine's conditions did).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_NAMES, compileWorkflow, type CompiledPhase, type CompiledWorkflow } from '../../workflows/index.js';
import { summarizeShellEffects, type ShellAnalysis } from '../../workflows/shell/index.js';
import { hashDefinitionText } from '../../daemon/workflow-catalog.js';
import { compile, compileErrors, FIXTURES_DIR, TEMPLATES_DIR } from './engine-test-helpers.js';

const builtinTemplates = readdirSync(TEMPLATES_DIR).filter((file) => /\.ya?ml$/.test(file));

describe('built-in templates', () => {
  it('there is at least plan-execute', () => {
    expect(builtinTemplates).toContain('plan-execute.yaml');
  });

  it.each(builtinTemplates)('%s compiles', (file) => {
    const path = join(TEMPLATES_DIR, file);
    const text = readFileSync(path, 'utf8');
    const result = compileWorkflow({ text, file: path, tier: 'builtin' }, hashDefinitionText(text));
    expect(result.ok ? [] : result.errors).toEqual([]);
    if (result.ok) {
      expect(`${result.workflow.name}.yaml`).toBe(file); // the file name is the workflow name
      expect(result.workflow.source.tier).toBe('builtin');
    }
  });

  it('plan-execute compiles to two phases: plan (gated on approval) then execute (everything allowed)', () => {
    const workflow = compile(readFileSync(join(TEMPLATES_DIR, 'plan-execute.yaml'), 'utf8'), 'plan-execute.yaml');
    expect(workflow.phases.map((phase) => phase.name)).toEqual(['plan', 'execute']);
    const [plan, execute] = workflow.phases;
    expect(plan).toMatchObject({ index: 0, approvalPrompt: 'Plan complete. Ready to implement?', nextPhase: 'execute', hasExitConditions: true });
    expect(plan!.tools.blockedPatterns).toEqual(['Write', 'Edit', 'NotebookEdit', 'Bash']);
    expect(execute).toMatchObject({ index: 1, nextPhase: undefined, hasExitConditions: false });
    expect(execute!.tools.allowed).toBe('all');
    expect(workflow.onSessionStart).toHaveLength(1);
    expect(workflow.onSessionStart[0]).toMatchObject({ kind: 'enter_phase', phase: 'plan' });
    expect(workflow.phase('execute')).toBe(execute);
    expect(workflow.phase('nope')).toBeUndefined();
  });
});

describe('a valid definition', () => {
  it('the kitchen-sink fixture (every feature at once) compiles', () => {
    const file = join(FIXTURES_DIR, 'kitchen-sink.yaml');
    const workflow = compile(readFileSync(file, 'utf8'), file);
    expect(workflow.phases.map((phase) => phase.name)).toEqual(['plan', 'act', 'reflect', 'done']);
    expect(workflow.variables).toEqual({ reflect_after_actions: 5, allowed_test_commands: ['npm test', 'vitest'] });
  });

  it('applies the defaults: type phase, all tools allowed, nothing blocked, no actions', () => {
    const workflow = compile('name: minimal\nphases:\n  - name: only\n');
    const [only] = workflow.phases;
    expect(only).toMatchObject({ name: 'only', index: 0, onEnter: [], onExit: [], transitions: [], exitChecks: [], rules: [], hasExitConditions: false });
    expect(only!.tools.allowed).toBe('all');
    expect(only!.tools.blockedPatterns).toEqual([]);
    expect(workflow.variables).toEqual({});
    expect(workflow.onSessionStart).toEqual([]);
  });

  it('accepts a numeric version and a description', () => {
    const workflow = compile('name: v\ndescription: d\nversion: 2\nphases:\n  - name: a\n');
    expect(workflow.description).toBe('d');
  });

  it('names set by set_variable / increment_variable anywhere are known to every condition', () => {
    expect(() =>
      compile(`
name: implicit-vars
phases:
  - name: a
    transitions:
      - to: b
        when: "errors >= 3 or variables.plan_ready"
  - name: b
    on_enter:
      - action: increment_variable
        name: errors
triggers:
  on_session_start:
    - action: set_variable
      name: plan_ready
      value: false
`),
    ).not.toThrow();
  });

  it('the hash is the content: same text, same hash; one byte more, another hash', () => {
    const text = 'name: h\nphases:\n  - name: a\n';
    const a = compile(text);
    expect(a.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(compile(text, 'elsewhere.yaml').hash).toBe(a.hash);
    expect(compile(`${text}\n`).hash).not.toBe(a.hash);
  });

  // One compiled workflow is shared by every session pinned to it: no write may change what
  // the next session sees. Test files are ES modules, so a write to a frozen object throws.
  describe('the compiled workflow is deep-frozen', () => {
    const text = `name: f
variables:
  limits: {edits: 3, files: [a.ts]}
phases:
  - name: plan
    blocked_tools: [Bash]
    rules:
      - when: "tool == 'Write'"
        action: block
        message: no writing
    transitions:
      - to: act
        when: "user_says('go')"
        on_transition:
          - action: set_variable
            name: started
            value: true
  - name: act
`;
    const shape = (workflow: CompiledWorkflow) => ({
      phases: workflow.phases.map((phase) => ({
        name: phase.name,
        rules: phase.rules.map((rule) => rule.label),
        blocked: [...phase.tools.blockedPatterns],
        bashBlocked: phase.tools.isBlocked('Bash'),
        transitions: phase.transitions.map((transition) => ({ to: transition.to, when: transition.when.source, actions: transition.onTransition.length })),
      })),
      variables: JSON.stringify(workflow.variables),
    });

    type Writable<T> = { -readonly [K in keyof T]: T[K] };
    const writes: readonly (readonly [label: string, write: (w: CompiledWorkflow) => unknown])[] = [
      ['phases.push(…)', (w: CompiledWorkflow) => (w.phases as CompiledPhase[]).push(w.phases[0]!)],
      ['phases[0].name = …', (w: CompiledWorkflow) => ((w.phases[0] as Writable<CompiledPhase>).name = 'hijacked')],
      ['phases[0].rules.push(…)', (w: CompiledWorkflow) => (w.phases[0]!.rules as unknown[]).push(w.phases[0]!.rules[0])],
      ['phases[0].rules[0].action = …', (w: CompiledWorkflow) => ((w.phases[0]!.rules[0] as { action: string }).action = 'warn')],
      ['tools.blockedPatterns.push(…)', (w: CompiledWorkflow) => (w.phases[0]!.tools.blockedPatterns as string[]).push('Read')],
      ['tools.isBlocked = …', (w: CompiledWorkflow) => ((w.phases[0]!.tools as { isBlocked: unknown }).isBlocked = () => false)],
      ['variables.x = …', (w: CompiledWorkflow) => ((w.variables as Record<string, unknown>).x = 1)],
      ['variables.limits.edits = …', (w: CompiledWorkflow) => ((w.variables.limits as { edits: number }).edits = 99)],
      ['variables.limits.files.push(…)', (w: CompiledWorkflow) => ((w.variables.limits as { files: string[] }).files.push('b.ts'))],
      ['transitions[0].to = …', (w: CompiledWorkflow) => ((w.phases[0]!.transitions[0] as { to: string }).to = 'plan')],
      ['transitions[0].onTransition.push(…)', (w: CompiledWorkflow) => (w.phases[0]!.transitions[0]!.onTransition as unknown[]).push({})],
      ['transitions[0].when.source = …', (w: CompiledWorkflow) => ((w.phases[0]!.transitions[0]!.when as { source: string }).source = 'true')],
      ['source.text = …', (w: CompiledWorkflow) => ((w.source as { text: string }).text = '')],
      ['phase = …', (w: CompiledWorkflow) => ((w as { phase: unknown }).phase = () => undefined)],
    ];
    it.each(writes)('%s throws and changes nothing', (_label, write) => {
      const workflow = compile(text);
      const before = shape(workflow);
      expect(() => write(workflow)).toThrow(TypeError);
      expect(shape(workflow)).toEqual(before);
    });

    it('freezing leaves the caller\'s source object alone', () => {
      const source = { text, file: 'f.yaml', tier: 'project' as const };
      const result = compileWorkflow(source, 'h');
      expect(result.ok && Object.isFrozen(result.workflow.source)).toBe(true);
      expect(Object.isFrozen(source)).toBe(false);
    });
  });

  it('a variable_set exit condition compiles (`null` is a built-in name)', () => {
    expect(BUILTIN_NAMES).toContain('null');
    const workflow = compile('name: w\nvariables:\n  plan_file:\nphases:\n  - name: a\n    exit_conditions:\n      - type: variable_set\n        variable: plan_file\n  - name: b\n');
    expect(workflow.phases[0]).toMatchObject({ nextPhase: 'b', hasExitConditions: true });
    expect(workflow.phases[0]!.exitChecks).toHaveLength(1);
  });

  it('a condition may compare with null', () => {
    expect(() =>
      compile('name: w\nvariables:\n  plan_file:\nphases:\n  - name: a\n    transitions:\n      - to: b\n        when: "variables.plan_file != null and tool_result == null"\n  - name: b\n'),
    ).not.toThrow();
  });

  it('every built-in name can be read by a condition', () => {
    const conditions = BUILTIN_NAMES.map((name) => `      - to: b\n        when: "${name} == 1"`).join('\n');
    expect(() => compile(`name: names\nphases:\n  - name: a\n    transitions:\n${conditions}\n  - name: b\n`)).not.toThrow();
  });
});

interface ErrorCase {
  readonly label: string;
  readonly yaml: string;
  readonly line: number;
  readonly column: number;
  readonly message: RegExp;
}

// Line and column are 1-based and point at the key that holds the problem (for a YAML
// syntax error, where the parser stopped).
const ERROR_CASES: ErrorCase[] = [
  {
    label: 'a YAML syntax error',
    yaml: 'name: broken\nphases:\n  - name: a\n    allowed_tools: [Read, Grep\n',
    line: 5,
    column: 1,
    message: /^invalid YAML: /,
  },
  {
    label: 'a bad indentation',
    yaml: 'name: broken\nphases:\n  - name: a\n   description: x\n',
    line: 4,
    column: 1,
    message: /^invalid YAML: /,
  },
  {
    // Aliases of aliases, ten wide and eleven deep: 10^11 strings once expanded.
    label: 'an alias bomb ("billion laughs")',
    yaml: ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 11 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`), 'name: bomb', 'phases:', '  - name: a', '    allowed_tools: *a11', ''].join('\n'),
    line: 1,
    column: 1,
    message: /^invalid YAML: Excessive alias count/,
  },
  {
    label: 'a duplicate key',
    yaml: 'name: one\nname: two\nphases:\n  - name: a\n',
    line: 2,
    column: 1,
    message: /^invalid YAML: Map keys must be unique/,
  },
  {
    label: 'an unknown key in a phase',
    yaml: 'name: w\nphases:\n  - name: a\n    allowed_tool: [Read]\n',
    line: 4,
    column: 5,
    message: /^phases\.0: unknown key `allowed_tool` \(did you mean `allowed_tools`\?\)$/,
  },
  {
    label: 'an unknown key inside an exit condition names the keys of that condition type',
    yaml: 'name: w\nphases:\n  - name: a\n    exit_conditions:\n      - type: user_approval\n        promt: Go?\n  - name: b\n',
    line: 6,
    column: 9,
    message: /^phases\.0\.exit_conditions\.0: unknown key `promt` \(did you mean `prompt`\?\)$/,
  },
  {
    label: 'an approval prompt without words, which every turn would end with',
    yaml: 'name: w\nphases:\n  - name: a\n    exit_conditions:\n      - type: user_approval\n        prompt: "?"\n  - name: b\n',
    line: 6,
    column: 9,
    message: /^phases\.0\.exit_conditions\.0\.prompt: an approval prompt must hold words: the model is told to end its turn with exactly it$/,
  },
  {
    label: 'a misspelled tool in blocked_tools',
    yaml: 'name: w\nphases:\n  - name: a\n    blocked_tools: [Read, Wirte]\n',
    line: 4,
    column: 27,
    message: /^phases\.0\.blocked_tools: unknown tool `Wirte` \(did you mean `Write`\?\)/,
  },
  {
    label: "Claude Code's permission-rule syntax in a tool list",
    yaml: 'name: w\nphases:\n  - name: a\n    allowed_tools: [Read, "Bash(git *)"]\n',
    line: 4,
    column: 27,
    message: /^phases\.0\.allowed_tools: `Bash\(git \*\)` is Claude Code's permission-rule syntax, which names no tool here and would match nothing: list the tool \(`Bash`\) and narrow it with a rule/,
  },
  {
    label: 'a tool in the wrong case in allowed_tools',
    yaml: 'name: w\nphases:\n  - name: a\n    allowed_tools:\n      - Read\n      - bash\n',
    line: 6,
    column: 9,
    message: /^phases\.0\.allowed_tools: unknown tool `bash` \(did you mean `Bash`\?\)/,
  },
  {
    label: 'a misspelled tool a rule compares with',
    yaml: 'name: w\nphases:\n  - name: a\n    rules:\n      - when: "tool in [\'Edit\', \'Wrte\']"\n        action: block\n        message: no\n',
    line: 5,
    column: 9,
    message: /unknown tool `Wrte` \(did you mean `Write`\?\)/,
  },
  {
    label: 'an unknown top-level key (the seed\'s `settings:`)',
    yaml: 'name: w\nsettings:\n  reflect_after_actions: 5\nphases:\n  - name: a\n',
    line: 2,
    column: 1,
    message: /unknown key `settings`/,
  },
  {
    label: 'an unknown trigger (the seed\'s `on_session_end`)',
    yaml: 'name: w\nphases:\n  - name: a\ntriggers:\n  on_session_end:\n    - action: inject_message\n      content: bye\n',
    line: 5,
    column: 3,
    message: /^triggers: unknown key `on_session_end`$/,
  },
  {
    label: 'an unknown key in an action',
    yaml: 'name: w\nphases:\n  - name: a\n    on_enter:\n      - action: inject_message\n        content: hi\n        source: handoff\n',
    line: 7,
    column: 9,
    message: /unknown key `source`/,
  },
  {
    label: 'an unknown action (`switch_mode`)',
    yaml: 'name: w\nphases:\n  - name: a\n    on_enter:\n      - action: switch_mode\n        mode: plan\n',
    line: 5,
    column: 9,
    message: /^unknown action `switch_mode` \(known here: inject_message, set_variable, increment_variable\)$/,
  },
  {
    label: 'an unknown action in on_exit (`capture_artifact`)',
    yaml: 'name: w\nphases:\n  - name: a\n    on_exit:\n      - action: capture_artifact\n        as: plan\n',
    line: 5,
    column: 9,
    message: /unknown action `capture_artifact`/,
  },
  {
    label: 'enter_phase where only phase actions are allowed',
    yaml: 'name: w\nphases:\n  - name: a\n    transitions:\n      - to: b\n        when: "phase_action_count > 1"\n        on_transition:\n          - action: enter_phase\n            phase: a\n  - name: b\n',
    line: 8,
    column: 13,
    message: /unknown action `enter_phase` \(known here: inject_message, set_variable, increment_variable\)/,
  },
  {
    label: 'an unknown trigger action (`load_workflow_state`)',
    yaml: 'name: w\nphases:\n  - name: a\ntriggers:\n  on_session_start:\n    - action: load_workflow_state\n',
    line: 6,
    column: 7,
    message: /unknown action `load_workflow_state` \(known here: inject_message, set_variable, increment_variable, enter_phase\)/,
  },
  {
    label: 'an unknown rule action (the seed\'s `require_approval`)',
    yaml: 'name: w\nphases:\n  - name: a\n    rules:\n      - when: "tool == \'Bash\'"\n        action: require_approval\n        message: careful\n',
    line: 6,
    column: 9,
    message: /^phases\.0\.rules\.0\.action: /,
  },
  {
    label: 'an unknown exit condition type (the seed\'s `artifact_exists`)',
    yaml: 'name: w\nphases:\n  - name: a\n    exit_conditions:\n      - type: artifact_exists\n        pattern: "*.plan.md"\n  - name: b\n',
    line: 5,
    column: 9,
    message: /^phases\.0\.exit_conditions\.0\.type: /,
  },
  {
    label: 'an unknown name in a `when` (the seed\'s `reflect_after_actions` without a variables: entry)',
    yaml: 'name: w\nphases:\n  - name: a\n    transitions:\n      - to: b\n        when: "phase_action_count >= reflect_after_actions"\n  - name: b\n',
    line: 6,
    column: 9,
    message: /^unknown name `reflect_after_actions` in expression `phase_action_count >= reflect_after_actions`$/,
  },
  {
    label: 'an unknown name in a rule (the seed\'s `session.files_read`)',
    yaml: 'name: w\nphases:\n  - name: a\n    rules:\n      - when: "tool == \'Edit\' and file not in session.files_read"\n        action: block\n        message: read it first\n',
    line: 5,
    column: 9,
    message: /unknown name `session`/,
  },
  {
    label: 'an unknown name in an action\'s `when` (the seed\'s `has_handoff`)',
    yaml: 'name: w\nphases:\n  - name: a\n    on_enter:\n      - action: inject_message\n        content: hi\n        when: has_handoff\n',
    line: 7,
    column: 9,
    message: /unknown name `has_handoff`/,
  },
  {
    label: 'an unknown function',
    yaml: 'name: w\nphases:\n  - name: a\n    transitions:\n      - to: b\n        when: "user_sayz(\'done\')"\n  - name: b\n',
    line: 6,
    column: 9,
    message: /unknown function `user_sayz`/,
  },
  {
    label: 'an unknown function (the seed\'s `command_in`)',
    yaml: 'name: w\nvariables:\n  cmds: [a]\nphases:\n  - name: a\n    rules:\n      - when: "not command_in(cmds)"\n        action: warn\n        message: odd\n',
    line: 7,
    column: 9,
    message: /unknown function `command_in`/,
  },
  {
    label: 'an unknown filter',
    yaml: 'name: w\nphases:\n  - name: a\n    exit_conditions:\n      - type: expression\n        when: "variables.todo | lenght == 0"\n  - name: b\n',
    line: 6,
    column: 9,
    message: /unknown filter `lenght`/,
  },
  {
    label: 'a syntax error in an expression',
    yaml: 'name: w\nphases:\n  - name: a\n    transitions:\n      - to: b\n        when: "phase_action_count >="\n  - name: b\n',
    line: 6,
    column: 9,
    message: /^syntax error in expression `phase_action_count >=`/,
  },
  {
    label: 'a single = in an expression',
    yaml: 'name: w\nphases:\n  - name: a\n    transitions:\n      - to: b\n        when: "phase = \'a\'"\n  - name: b\n',
    line: 6,
    column: 9,
    message: /^syntax error in expression `phase = 'a'`/,
  },
  {
    label: 'a transition to an unknown phase (the seed\'s `complete`)',
    yaml: 'name: w\nphases:\n  - name: reflect\n    transitions:\n      - to: complete\n        when: "user_says(\'done\')"\n',
    line: 5,
    column: 9,
    message: /^transition to unknown phase `complete` \(phases: reflect\)$/,
  },
  {
    label: 'a transition from a phase to itself, which would re-enter it on every event',
    yaml: 'name: w\nphases:\n  - name: a\n    transitions:\n      - to: a\n        when: "true"\n',
    line: 5,
    column: 9,
    message: /^transition from `a` to itself: a phase cannot move to itself/,
  },
  {
    label: 'enter_phase to an unknown phase',
    yaml: 'name: w\nphases:\n  - name: plan\n  - name: act\ntriggers:\n  on_session_start:\n    - action: enter_phase\n      phase: planning\n',
    line: 8,
    column: 7,
    message: /^enter_phase names unknown phase `planning` \(phases: plan, act\)$/,
  },
  {
    label: 'a variable shadowing a built-in name',
    yaml: 'name: w\nvariables:\n  limit: 3\n  phase: draft\nphases:\n  - name: a\n',
    line: 4,
    column: 3,
    message: /^variable `phase` shadows a built-in name$/,
  },
  {
    // A variable of that name would replace the facts user_says() and command_contains() read.
    label: 'a variable named like the event facts the built-in functions receive',
    yaml: "name: w\nvariables:\n  $event: {prompt: done}\nphases:\n  - name: a\n    transitions:\n      - to: b\n        when: \"user_says('done')\"\n  - name: b\n",
    line: 3,
    column: 3,
    message: /^variable `\$event` shadows a built-in name$/,
  },
  {
    label: 'a set_variable naming a built-in (located at its `name`)',
    yaml: 'name: w\nphases:\n  - name: a\n    on_enter:\n      - action: set_variable\n        name: tool\n        value: hammer\n',
    line: 6,
    column: 9,
    message: /^variable `tool` shadows a built-in name$/,
  },
  {
    label: 'an unclosed bracket in an expression',
    yaml: 'name: w\nphases:\n  - name: a\n    transitions:\n      - to: b\n        when: "(phase == \'a\' or user_says(\'go\')"\n  - name: b\n',
    line: 6,
    column: 9,
    message: /^syntax error in expression `\(phase == 'a' or user_says\('go'\)`: `\(` is never closed$/,
  },
  {
    label: 'a stray closing bracket in an expression',
    yaml: 'name: w\nphases:\n  - name: a\n    rules:\n      - when: "tool == \'Bash\')"\n        action: block\n        message: no\n',
    line: 5,
    column: 9,
    message: /^syntax error in expression `tool == 'Bash'\)`: unexpected `\)`$/,
  },
  {
    label: 'duplicate phase names',
    yaml: 'name: w\nphases:\n  - name: a\n  - name: b\n  - name: a\n',
    line: 5,
    column: 5,
    message: /^phase `a` is defined twice$/,
  },
  {
    label: 'exit_conditions on the last phase',
    yaml: 'name: w\nphases:\n  - name: a\n  - name: b\n    exit_conditions:\n      - type: user_approval\n',
    line: 5,
    column: 5,
    message: /^phase `b` has exit conditions but no phase follows it$/,
  },
  {
    label: 'an unclosed {% for %} in a template',
    yaml: 'name: w\nvariables:\n  todo: []\nphases:\n  - name: a\n    instructions: "{% for t in variables.todo %}- {{ t }}"\n',
    line: 6,
    column: 5,
    message: /^in template: `\{% for %\}` is never closed with `\{% endfor %\}`$/,
  },
  {
    label: 'an unknown name inside a message template',
    yaml: 'name: w\nphases:\n  - name: a\n    on_enter:\n      - action: inject_message\n        content: "Plan: {{ artifacts.current_plan }}"\n',
    line: 6,
    column: 9,
    message: /^in template: unknown name `artifacts`/,
  },
  {
    label: 'an unknown name in a rule message',
    yaml: 'name: w\nphases:\n  - name: a\n    rules:\n      - when: "tool == \'Bash\'"\n        action: warn\n        message: "{{ cmd }}"\n',
    line: 7,
    column: 9,
    message: /^in template: unknown name `cmd`/,
  },
  {
    label: 'a phase name with a space',
    yaml: 'name: w\nphases:\n  - name: my phase\n',
    line: 3,
    column: 5,
    message: /phase names use letters, digits, - and _/,
  },
  {
    label: 'no phases',
    yaml: 'name: w\nphases: []\n',
    line: 2,
    column: 1,
    message: /^phases: /,
  },
  {
    label: 'a missing name',
    yaml: 'phases:\n  - name: a\n',
    line: 1,
    column: 1,
    message: /^name: /,
  },
  {
    label: 'a transition without `when`',
    yaml: 'name: w\nphases:\n  - name: a\n    transitions:\n      - to: b\n  - name: b\n',
    line: 5,
    column: 9,
    message: /^phases\.0\.transitions\.0\.when: /,
  },
  {
    label: 'an empty file',
    yaml: '',
    line: 1,
    column: 1,
    message: /^the file: /,
  },
];

describe('compile errors carry file, line and column', () => {
  it.each(ERROR_CASES)('$label', ({ yaml, line, column, message }) => {
    const errors = compileErrors(yaml, '.gobby/workflows/w.yaml');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: '.gobby/workflows/w.yaml', line, column });
    expect(errors[0]!.message).toMatch(message);
  });
});

describe('compile errors, more than one at a time', () => {
  it('reports every expression problem in the file, not only the first', () => {
    const errors = compileErrors(`name: w
phases:
  - name: a
    transitions:
      - to: missing
        when: "typo_one > 1"
    rules:
      - when: "tool == 'Bash'"
        action: block
        message: "{{ typo_two }}"
triggers:
  on_session_start:
    - action: enter_phase
      phase: gone
`);
    expect(errors.map((e) => [e.line, e.message])).toEqual([
      [5, 'transition to unknown phase `missing` (phases: a)'],
      [6, 'unknown name `typo_one` in expression `typo_one > 1`'],
      [10, 'in template: unknown name `typo_two` in expression `typo_two`'],
      [14, 'enter_phase names unknown phase `gone` (phases: a)'],
    ]);
  });

  it('lists every unknown name of one expression', () => {
    const [error] = compileErrors('name: w\nphases:\n  - name: a\n    transitions:\n      - to: b\n        when: "foo and bar or phase"\n  - name: b\n');
    expect(error!.message).toBe('unknown name `foo`; unknown name `bar` in expression `foo and bar or phase`');
  });

  it('every variable that shadows a built-in is reported', () => {
    const errors = compileErrors('name: w\nvariables:\n  tool: x\n  command: y\n  prompt: z\nphases:\n  - name: a\n');
    expect(errors.map((e) => e.message)).toEqual([
      'variable `tool` shadows a built-in name',
      'variable `command` shadows a built-in name',
      'variable `prompt` shadows a built-in name',
    ]);
  });

  it('every set_variable / increment_variable naming a built-in is reported at its `name`', () => {
    const errors = compileErrors(`name: w
variables:
  tool: x
phases:
  - name: a
    on_exit:
      - action: set_variable
        name: tool
        value: y
    transitions:
      - to: b
        when: "user_says('again')"
        on_transition:
          - action: increment_variable
            name: phase
  - name: b
triggers:
  on_session_start:
    - action: set_variable
      name: command
      value: 1
`);
    expect(errors.map((e) => [e.line, e.column, e.message])).toEqual([
      [3, 3, 'variable `tool` shadows a built-in name'],
      [20, 7, 'variable `command` shadows a built-in name'],
      [8, 9, 'variable `tool` shadows a built-in name'],
      [15, 13, 'variable `phase` shadows a built-in name'],
    ]);
  });

  it('the seed\'s plan-act-reflect example does not load, and says why', () => {
    const errors = compileErrors(readFileSync(join(FIXTURES_DIR, 'seed-plan-act-reflect.yaml'), 'utf8'), 'seed.yaml');
    const messages = errors.map((e) => e.message).join('\n');
    // Unknown actions are reported first and alone: `settings:` and the unknown names come
    // up only once every action is fixed (and triggers are listed before phases).
    expect(errors.map((e) => [e.line, e.message.replace(/ \(known here.*$/, '')])).toEqual([
      [142, 'unknown action `load_workflow_state`'],
      [143, 'unknown action `restore_from_handoff`'],
      [27, 'unknown action `inject_context`'],
      [30, 'unknown action `inject_context`'],
      [33, 'unknown action `switch_mode`'],
      [64, 'unknown action `capture_artifact`'],
    ]);
    expect(messages).not.toContain('settings');
    for (const error of errors) {
      expect(error.file).toBe('seed.yaml');
      expect(error.line).toBeGreaterThan(0);
      expect(error.column).toBeGreaterThan(0);
    }
  });
});

describe('variable_set exit conditions', () => {
  it('a variable that nothing defines is a load error at the condition, with the nearest name', () => {
    const [error] = compileErrors('name: w\nvariables:\n  plan_doc:\nphases:\n  - name: a\n    exit_conditions:\n      - type: variable_set\n        variable: plan-doc\n  - name: b\n');
    expect(error).toMatchObject({ line: 8, column: 9 });
    expect(error!.message).toBe('exit condition waits for variable `plan-doc`, which no `variables:` entry or set_variable action defines (did you mean `plan_doc`?)');
  });

  it('a variable set by an action is defined', () => {
    const workflow = compile('name: w\nphases:\n  - name: a\n    on_tool_result:\n      - action: set_variable\n        name: plan_doc\n        value: x\n    exit_conditions:\n      - type: variable_set\n        variable: plan_doc\n  - name: b\n');
    expect(workflow.phases[0]!.exitChecks).toHaveLength(1);
  });
});

describe('property paths in conditions and templates', () => {
  const phaseWhen = (when: string, head = ''): string => `name: w\n${head}phases:\n  - name: a\n    transitions:\n      - to: b\n        when: "${when}"\n  - name: b\n`;

  it.each([
    ['effects.wrtes | length == 0', 'unknown property `wrtes` of `effects` (did you mean `writes`?)'],
    ['effects.test_runs', 'unknown property `test_runs` of `effects` (did you mean `test_run`?)'],
    ["tool_result.is_eror", 'unknown property `is_eror` of `tool_result` (did you mean `is_error`?); it has `is_error`, `error`'],
    ['workflow_state.phse == \'a\'', 'unknown property `phse` of `workflow_state` (did you mean `phase`?)'],
    ['variables.aproved', 'unknown property `aproved` of `variables` (did you mean `approved`?); it has `approved`'],
    ['workflow_state.variables.aproved', 'unknown property `aproved` of `workflow_state.variables` (did you mean `approved`?)'],
  ])('`%s` does not load', (when, message) => {
    const [error] = compileErrors(phaseWhen(when, 'variables:\n  approved: false\n'));
    expect(error).toMatchObject({ line: 8 });
    expect(error!.message).toContain(message);
  });

  it.each([
    ['effects.writes | length == 0 and effects.test_run'],
    ["effects['changes_files'] == false"],
    ['tool_result.is_error and tool_result.error.length > 0'],
    ['tool_input.file_path.endsWith(\'.md\')'],
    ['variables.approved.anything and workflow_state.variables.approved'],
  ])('`%s` loads', (when) => {
    expect(() => compile(phaseWhen(when, 'variables:\n  approved: false\n'))).not.toThrow();
  });

  it('every field of the Bash summary can be read', () => {
    const fields = Object.keys(summarizeShellEffects({ effects: [], programs: [] } as unknown as ShellAnalysis));
    const conditions = fields.map((field) => `      - to: b\n        when: "effects.${field} == 1"`).join('\n');
    expect(() => compile(`name: fields\nphases:\n  - name: a\n    transitions:\n${conditions}\n  - name: b\n`)).not.toThrow();
  });

  it('in a template, `loop` has index and index0 only', () => {
    const [error] = compileErrors('name: w\nvariables:\n  todo: []\nphases:\n  - name: a\n    instructions: "{% for t in variables.todo %}{{ loop.first }}{% endfor %}"\n');
    expect(error!.message).toBe('in template: unknown property `first` of `loop`; it has `index`, `index0` in expression `loop.first`');
  });
});

describe('tool names a workflow uses', () => {
  const phaseWith = (tools: string): string => `name: w\nphases:\n  - name: a\n    blocked_tools: ${tools}\n`;

  it('every misspelling is its own error, each with the nearest tool', () => {
    const errors = compileErrors(phaseWith('[Wirte, bash, Grpe]'), 'w.yaml');
    expect(errors.map((error) => /unknown tool `(\w+)` \(did you mean `(\w+)`/.exec(error.message)?.slice(1))).toEqual([
      ['Wirte', 'Write'],
      ['bash', 'Bash'],
      ['Grpe', 'Grep'],
    ]);
  });

  it('a name close to nothing gets no guess', () => {
    const [error] = compileErrors(phaseWith('[Frobnicate]'), 'w.yaml');
    expect(error!.message).toMatch(/^phases\.0\.blocked_tools: unknown tool `Frobnicate`\. Tool names are case-sensitive/);
  });

  it('MCP tools, globs, aliases and older tool names load', () => {
    const workflow = compile(phaseWith('[mcp__github__create_issue, "mcp__*", "Note*", Task, MultiEdit, TodoWrite, WebFetch]'), 'w.yaml');
    expect(workflow.phases[0]!.tools.isBlocked('Agent')).toBe(true);
    expect(workflow.phases[0]!.tools.isBlocked('NotebookEdit')).toBe(true);
  });
});

describe('definitions that load but could not work as written are load errors', () => {
  it('increment_variable on a variable whose initial value is not a number', () => {
    const text = (initial: string) =>
      `name: w\nvariables:\n  s: ${initial}\ntriggers:\n  on_tool_result:\n    - action: increment_variable\n      name: s\nphases:\n  - name: a\n`;
    for (const initial of ['"hello"', 'true', '[1]']) {
      const errors = compileErrors(text(initial));
      expect(errors.map((error) => error.message), initial).toEqual([`increment_variable adds to variable \`s\`, whose initial value ${JSON.stringify(JSON.parse(initial))} is not a number`]);
      expect(errors[0]).toMatchObject({ line: 7 });
    }
    // A number, null or no initial value (counted from 0) load.
    for (const initial of ['0', '2.5', 'null']) expect(compile(text(initial)).name).toBe('w');
    expect(compile('name: w\ntriggers:\n  on_tool_result:\n    - { action: increment_variable, name: n }\nphases:\n  - name: a\n').name).toBe('w');
  });

  it('a tool both in allowed_tools and in blocked_tools (aliases included)', () => {
    const errors = compileErrors('name: w\nphases:\n  - name: a\n    allowed_tools: [Read, Write, Agent, Grep]\n    blocked_tools: [Write, Task, Read]\n');
    expect(errors.map((error) => error.message)).toEqual(
      ['Read', 'Write', 'Agent'].map((tool) => `tool \`${tool}\` is both allowed and blocked in phase \`a\`: blocked wins, so it cannot run here; remove it from one of the two lists`),
    );
    expect(errors.map((error) => error.line)).toEqual([4, 4, 4]);
    // A narrower block under a glob is not a conflict.
    expect(compile('name: w\nphases:\n  - name: a\n    allowed_tools: [Read, "mcp__github__*"]\n    blocked_tools: [mcp__github__delete_repo]\n').name).toBe('w');
  });
});
