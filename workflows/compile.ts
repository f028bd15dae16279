// YAML text → validated definition → compiled, frozen workflow. Every expression and
// template is compiled here and every name it uses resolved, so a definition that loads
// is a definition whose conditions can actually fire (prior-art: the Python engine's
// conditions failed at run time and silently read as false).
import { LineCounter, parseDocument, isMap, isSeq, type Node as YamlNode } from 'yaml';
import type { z } from 'zod';
import { compileExpression, EVENT_FACTS_NAME, recordShape, type CompiledExpressionHandle, type KnownNames, type NameShape } from './expressions.js';
import { EFFECTS_SUMMARY_FIELDS } from './shell/index.js';
import { compileTemplate, type CompiledTemplate } from './templates.js';
import type { ShellPolicy } from './shell-policy.js';
import { didYouMean } from './nearest-name.js';
import { canonicalToolComparisons, canonicalToolName, checkToolName, compileToolPattern, toolsComparedIn } from './tool-names.js';
import { objectKeysAt } from './zod-issues.js';
import {
  PHASE_ACTION_NAMES,
  TRIGGER_ACTION_NAMES,
  workflowDefinitionSchema,
  type WorkflowDefinition,
} from './definition-schema.js';
import { phaseRefusesTool } from './phase-tools.js';

export type DefinitionTier = 'project' | 'user' | 'builtin';

/** A definition file as read, and as a session's row keeps it. */
export interface DefinitionSource {
  readonly text: string;
  readonly file: string;
  readonly tier: DefinitionTier;
}

export interface LoadError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export type CompiledAction =
  | { kind: 'inject_message'; when?: CompiledExpressionHandle; content: CompiledTemplate }
  | { kind: 'set_variable'; when?: CompiledExpressionHandle; name: string; value: unknown }
  | { kind: 'increment_variable'; when?: CompiledExpressionHandle; name: string; by: number }
  | { kind: 'enter_phase'; when?: CompiledExpressionHandle; phase: string };

interface CompiledTransition {
  readonly to: string;
  readonly when: CompiledExpressionHandle;
  readonly onTransition: readonly CompiledAction[];
}

interface CompiledToolPolicy {
  /** `all`, or the patterns as written (for messages) with their matchers. */
  readonly allowed: 'all' | { readonly patterns: readonly string[]; readonly matches: (tool: string) => boolean };
  readonly blockedPatterns: readonly string[];
  readonly isBlocked: (tool: string) => boolean;
}

interface CompiledRule {
  readonly when: CompiledExpressionHandle;
  readonly action: 'block' | 'warn';
  readonly message: CompiledTemplate;
  readonly label: string;
}

export interface CompiledStopRequirement {
  /** Stable within a definition (`workflow#0`, `phase:build#1`): how progress between blocks is measured. */
  readonly key: string;
  readonly when: CompiledExpressionHandle;
  readonly missing: CompiledTemplate;
  readonly how: CompiledTemplate;
}

export interface CompiledStopGate {
  readonly requires: readonly CompiledStopRequirement[];
  readonly maxBlocks: number;
}

export interface CompiledPhase {
  readonly name: string;
  readonly index: number;
  readonly description?: string | undefined;
  readonly instructions?: CompiledTemplate | undefined;
  readonly tools: CompiledToolPolicy;
  readonly onEnter: readonly CompiledAction[];
  readonly onExit: readonly CompiledAction[];
  readonly transitions: readonly CompiledTransition[];
  /** The user_approval exit condition's question, when the phase has one. */
  readonly approvalPrompt?: string | undefined;
  /** The other exit conditions; all must hold before the phase can be left. */
  readonly exitChecks: readonly { readonly label: string; readonly holds: CompiledExpressionHandle }[];
  readonly hasExitConditions: boolean;
  /** Where the exit conditions lead: the next phase in the file. */
  readonly nextPhase?: string | undefined;
  readonly rules: readonly CompiledRule[];
  /** What Bash may do here, judged by its effects (workflows/shell-policy.ts). */
  readonly shell: ShellPolicy;
  /** Actions run after each tool result while the phase is current. */
  readonly onToolResult: readonly CompiledAction[];
  readonly stopGate?: CompiledStopGate | undefined;
}

export interface CompiledWorkflow {
  readonly name: string;
  readonly description?: string | undefined;
  readonly hash: string;
  readonly source: DefinitionSource;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly phases: readonly CompiledPhase[];
  readonly onSessionStart: readonly CompiledAction[];
  /** Actions run after each tool result in every phase, before the phase's own. */
  readonly onToolResult: readonly CompiledAction[];
  /** The workflow-wide stop gate; a phase's own gate adds to it. */
  readonly stopGate?: CompiledStopGate | undefined;
  phase(name: string): CompiledPhase | undefined;
}

/** Names every expression and template can read (see evaluate.ts, buildScopeValues). */
export const BUILTIN_NAMES: readonly string[] = [
  'workflow',
  'phase',
  'phase_action_count',
  'total_action_count',
  'blocked_count',
  'seconds_in_phase',
  'variables',
  'event',
  'tool',
  'tool_name',
  'tool_input',
  'command',
  'file',
  'prompt',
  'tool_result',
  'workflow_state',
  'approval_pending',
  // What a Bash command does (workflows/shell/summary.ts): `effects.writes`, `effects.test_run`, …
  'effects',
  // The subagent a tool call comes from (empty on the main thread): rules per agent type.
  'agent_type',
  'agent_id',
  // jexl has no null literal; `x != null` is how authors test that a value is set.
  'null',
];

/**
 * The built-in names with their shapes, and the definition's variables: what a condition
 * may read. The records gobby builds in buildScope (evaluate.ts) have fixed fields, and a
 * variable is only ever one the definition declares or sets.
 */
function knownNamesOf(variableNames: readonly string[]): KnownNames {
  const variables = recordShape(variableNames);
  const shapes: Readonly<Record<string, NameShape>> = {
    effects: recordShape(EFFECTS_SUMMARY_FIELDS),
    tool_result: recordShape(['is_error', 'error']),
    variables,
    workflow_state: recordShape(['phase', 'phase_action_count', 'total_action_count', 'variables'], { variables }),
  };
  return new Map([...BUILTIN_NAMES.map((name) => [name, shapes[name] ?? 'open'] as const), ...variableNames.map((name) => [name, 'open'] as const)]);
}

type StopGateDefinition = NonNullable<WorkflowDefinition['stop_gate']>;

export type CompileResult = { ok: true; workflow: CompiledWorkflow } | { ok: false; errors: LoadError[] };

/**
 * `hash` is the content hash of `source.text`, computed by whoever read the file
 * (`hashDefinitionText` in daemon/workflow-catalog.ts): the engine does no hashing.
 */
export function compileWorkflow(source: DefinitionSource, hash: string): CompileResult {
  try {
    return compileDefinition(source, hash);
  } catch (error) {
    // Whatever a hostile file makes the parser or the compiler throw (a stack overflow on deep
    // nesting, a limit of the yaml library) is a load error of that file, never the daemon's.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, errors: [{ file: source.file, line: 1, column: 1, message: `the file could not be compiled: ${firstLine(message)}` }] };
  }
}

function compileDefinition(source: DefinitionSource, hash: string): CompileResult {
  const lineCounter = new LineCounter();
  const document = parseDocument(source.text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number | undefined, message: string): LoadError => {
    const position = lineCounter.linePos(offset ?? 0);
    return { file: source.file, line: position.line, column: position.col, message };
  };
  if (document.errors.length > 0) {
    return { ok: false, errors: document.errors.map((error) => at(error.pos[0], `invalid YAML: ${firstLine(error.message)}`)) };
  }
  const locate = (path: readonly PropertyKey[]): number | undefined => nodeOffset(document.contents, path);
  let raw: unknown;
  try {
    // yaml refuses here what only shows once aliases are expanded (a "billion laughs" file).
    raw = document.toJS();
  } catch (error) {
    return { ok: false, errors: [at(0, `invalid YAML: ${firstLine(error instanceof Error ? error.message : String(error))}`)] };
  }

  const actionErrors = findUnknownActions(raw).map((problem) => at(locate(problem.path), problem.message));
  if (actionErrors.length > 0) return { ok: false, errors: actionErrors };

  const parsed = workflowDefinitionSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.flatMap((issue) => {
        if (issue.code !== 'unrecognized_keys') return [at(locate(issue.path), describeIssue(issue))];
        // One error per unknown key, each at the key and with the nearest key that is allowed there.
        const known = objectKeysAt(workflowDefinitionSchema, raw, issue.path);
        const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
        return issue.keys.map((key) => at(locate([...issue.path, key]), `${where}: unknown key \`${key}\`${didYouMean(key, known)}`));
      }),
    };
  }
  const compiler = new DefinitionCompiler(parsed.data, (path, message) => at(locate(path), message));
  return compiler.compile(source, hash);
}

class DefinitionCompiler {
  private readonly errors: LoadError[] = [];
  private readonly variableNames: readonly string[];
  private readonly knownNames: KnownNames;

  constructor(
    private readonly definition: WorkflowDefinition,
    private readonly errorAt: (path: readonly PropertyKey[], message: string) => LoadError,
  ) {
    this.variableNames = collectVariableNames(definition);
    this.knownNames = knownNamesOf(this.variableNames);
    for (const { name, path } of collectVariableDeclarations(definition)) {
      if (BUILTIN_NAMES.includes(name) || name === EVENT_FACTS_NAME) {
        this.errors.push(errorAt(path, `variable \`${name}\` shadows a built-in name`));
      }
    }
  }

  compile(source: DefinitionSource, hash: string): CompileResult {
    const { definition } = this;
    const phaseNames = definition.phases.map((phase) => phase.name);
    phaseNames.forEach((name, index) => {
      if (phaseNames.indexOf(name) !== index) this.fail(['phases', index, 'name'], `phase \`${name}\` is defined twice`);
    });
    const phases = definition.phases.map((phase, index) => this.compilePhase(phase, index, phaseNames));
    const onSessionStart = this.compileActions(definition.triggers.on_session_start, ['triggers', 'on_session_start'], phaseNames);
    const onToolResult = this.compileActions(definition.triggers.on_tool_result, ['triggers', 'on_tool_result'], phaseNames);
    const stopGate = definition.stop_gate && this.compileStopGate(definition.stop_gate, ['stop_gate'], 'workflow');
    if (this.errors.length > 0) return { ok: false, errors: this.errors };
    for (const problem of [...findStopGateDeadlocks(definition, phases, stopGate), ...findNonNumericIncrements(definition)]) this.fail(problem.path, problem.message);
    if (this.errors.length > 0) return { ok: false, errors: this.errors };

    const byName = new Map(phases.map((phase) => [phase.name, phase]));
    const workflow: CompiledWorkflow = {
      name: definition.name,
      description: definition.description,
      hash,
      // A copy: freezing must not reach into the caller's object.
      source: { text: source.text, file: source.file, tier: source.tier },
      variables: definition.variables,
      phases,
      onSessionStart,
      onToolResult,
      stopGate,
      phase: (name) => byName.get(name),
    };
    return { ok: true, workflow: deepFreeze(workflow) };
  }

  private compilePhase(phase: WorkflowDefinition['phases'][number], index: number, phaseNames: string[]): CompiledPhase {
    const path = ['phases', index];
    const allowed = phase.allowed_tools;
    this.checkToolNames(allowed === 'all' ? [] : allowed, [...path, 'allowed_tools']);
    this.checkToolNames(phase.blocked_tools, [...path, 'blocked_tools']);
    const blockedMatchers = phase.blocked_tools.map(compileToolPattern);
    const allowedMatchers = allowed === 'all' ? [] : allowed.map(compileToolPattern);
    // Blocked wins, so a tool in both lists cannot run: the author meant one of the two.
    (allowed === 'all' ? [] : allowed).forEach((pattern, toolIndex) => {
      if (blockedMatchers.some((matches) => matches(canonicalToolName(pattern)))) {
        this.fail([...path, 'allowed_tools', toolIndex], `tool \`${pattern}\` is both allowed and blocked in phase \`${phase.name}\`: blocked wins, so it cannot run here; remove it from one of the two lists`);
      }
    });
    const approval = phase.exit_conditions.find((condition) => condition.type === 'user_approval');
    const exitChecks = phase.exit_conditions.flatMap((condition, conditionIndex) => {
      const conditionPath = [...path, 'exit_conditions', conditionIndex];
      if (condition.type === 'variable_set') {
        if (!this.variableNames.includes(condition.variable)) {
          const hint = didYouMean(condition.variable, this.variableNames);
          this.fail([...conditionPath, 'variable'], `exit condition waits for variable \`${condition.variable}\`, which no \`variables:\` entry or set_variable action defines${hint}`);
          return [];
        }
        const holds = this.expression(`variables.${condition.variable} != null`, conditionPath);
        return holds ? [{ label: `variable \`${condition.variable}\` is set`, holds }] : [];
      }
      if (condition.type === 'expression') {
        const holds = this.expression(condition.when, [...conditionPath, 'when']);
        return holds ? [{ label: condition.when, holds }] : [];
      }
      return [];
    });
    const nextPhase = phaseNames[index + 1];
    if (phase.exit_conditions.length > 0 && !nextPhase) {
      this.fail([...path, 'exit_conditions'], `phase \`${phase.name}\` has exit conditions but no phase follows it`);
    }
    return {
      name: phase.name,
      index,
      description: phase.description,
      instructions: phase.instructions === undefined ? undefined : this.template(phase.instructions, [...path, 'instructions']),
      tools: {
        allowed:
          allowed === 'all'
            ? 'all'
            : { patterns: allowed.map(canonicalToolName), matches: (tool) => allowedMatchers.some((matches) => matches(tool)) },
        // As the model knows them: `Task` is shown as `Agent`.
        blockedPatterns: phase.blocked_tools.map(canonicalToolName),
        isBlocked: (tool) => blockedMatchers.some((matches) => matches(tool)),
      },
      shell: {
        restrictsFileChanges: ['Write', 'Edit'].every(
          (tool) => blockedMatchers.some((matches) => matches(tool)) || (allowed !== 'all' && !allowedMatchers.some((matches) => matches(tool))),
        ),
        allowPrograms: phase.shell.allow_programs,
        allowOpaque: phase.shell.allow_opaque,
      },
      onEnter: this.compileActions(phase.on_enter, [...path, 'on_enter'], phaseNames),
      onExit: this.compileActions(phase.on_exit, [...path, 'on_exit'], phaseNames),
      transitions: phase.transitions.flatMap((transition, transitionIndex) => {
        const transitionPath = [...path, 'transitions', transitionIndex];
        if (!phaseNames.includes(transition.to)) {
          this.fail([...transitionPath, 'to'], `transition to unknown phase \`${transition.to}\` (phases: ${phaseNames.join(', ')})`);
        }
        // Taken whenever its condition holds, it would re-enter the phase on every event (on_enter again, a notice each time).
        if (transition.to === phase.name) this.fail([...transitionPath, 'to'], `transition from \`${phase.name}\` to itself: a phase cannot move to itself (to start it over, move through another phase)`);
        const when = this.expression(transition.when, [...transitionPath, 'when']);
        const onTransition = this.compileActions(transition.on_transition, [...transitionPath, 'on_transition'], phaseNames);
        return when ? [{ to: transition.to, when, onTransition }] : [];
      }),
      approvalPrompt: approval?.type === 'user_approval' ? approval.prompt : undefined,
      exitChecks,
      hasExitConditions: phase.exit_conditions.length > 0,
      nextPhase,
      rules: phase.rules.flatMap((rule, ruleIndex) => {
        const rulePath = [...path, 'rules', ruleIndex];
        const when = this.expression(rule.when, [...rulePath, 'when']);
        const message = this.template(rule.message, [...rulePath, 'message']);
        return when && message
          ? [{ when, action: rule.action, message, label: `phase ${phase.name} rule ${ruleIndex + 1} (${rule.when})` }]
          : [];
      }),
      onToolResult: this.compileActions(phase.on_tool_result, [...path, 'on_tool_result'], phaseNames),
      stopGate: phase.stop_gate && this.compileStopGate(phase.stop_gate, [...path, 'stop_gate'], `phase:${phase.name}`),
    };
  }

  private compileStopGate(gate: StopGateDefinition, path: readonly PropertyKey[], owner: string): CompiledStopGate {
    const requires = gate.requires.flatMap((requirement, index): CompiledStopRequirement[] => {
      const requirementPath = [...path, 'requires', index];
      const when = this.expression(requirement.when, [...requirementPath, 'when']);
      const missing = this.template(requirement.missing, [...requirementPath, 'missing']);
      const how = this.template(requirement.how, [...requirementPath, 'how']);
      return when && missing && how ? [{ key: `${owner}#${index}`, when, missing, how }] : [];
    });
    return { requires, maxBlocks: gate.max_blocks };
  }

  private compileActions(
    actions: WorkflowDefinition['triggers']['on_session_start'],
    path: readonly PropertyKey[],
    phaseNames: readonly string[],
  ): CompiledAction[] {
    return actions.flatMap((action, index): CompiledAction[] => {
      const actionPath = [...path, index];
      const when = action.when === undefined ? undefined : this.expression(action.when, [...actionPath, 'when']);
      const withWhen = when ? { when } : {};
      switch (action.action) {
        case 'inject_message': {
          const content = this.template(action.content, [...actionPath, 'content']);
          return content ? [{ kind: 'inject_message', content, ...withWhen }] : [];
        }
        case 'set_variable':
          return [{ kind: 'set_variable', name: action.name, value: action.value, ...withWhen }];
        case 'increment_variable':
          return [{ kind: 'increment_variable', name: action.name, by: action.by, ...withWhen }];
        case 'enter_phase':
          if (!phaseNames.includes(action.phase)) {
            this.fail([...actionPath, 'phase'], `enter_phase names unknown phase \`${action.phase}\` (phases: ${phaseNames.join(', ')})`);
          }
          return [{ kind: 'enter_phase', phase: action.phase, ...withWhen }];
      }
    });
  }

  private checkToolNames(names: readonly string[], path: readonly PropertyKey[]): void {
    names.forEach((name, index) => {
      const problem = checkToolName(name);
      if (problem) this.fail([...path, index], `${path.map(String).join('.')}: ${problem}`);
    });
  }

  private expression(source: string, path: readonly PropertyKey[]): CompiledExpressionHandle | undefined {
    // `tool == 'Wirte'` would never hold, silently: a tool a condition names must exist too.
    for (const name of toolsComparedIn(source)) {
      const problem = checkToolName(name);
      if (problem) this.fail(path, `in \`${source}\`: ${problem}`);
    }
    const result = compileExpression(canonicalToolComparisons(source), this.knownNames);
    if (result.ok) return result.expression;
    this.fail(path, result.message);
    return undefined;
  }

  private template(source: string, path: readonly PropertyKey[]): CompiledTemplate | undefined {
    const result = compileTemplate(source, this.knownNames);
    if (result.ok) return result.template;
    this.fail(path, `in template: ${result.message}`);
    return undefined;
  }

  private fail(path: readonly PropertyKey[], message: string): void {
    this.errors.push(this.errorAt(path, message));
  }
}

/**
 * Freezes the value and everything reachable from it. One compiled workflow is shared by
 * every session pinned to it, so nothing one evaluation does may change what the next one
 * sees: a write to it throws (ES modules run in strict mode).
 */
function deepFreeze<T>(root: T): T {
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return;
    if (seen.has(value)) return;
    seen.add(value);
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) visit((value as Record<PropertyKey, unknown>)[key]);
  };
  visit(root);
  return root;
}

/** Names that only a tool event (or a prompt) fills: at Stop they are always empty. */
const EVENT_ONLY_NAMES: readonly string[] = ['tool', 'tool_name', 'tool_input', 'command', 'file', 'tool_result', 'prompt'];
/** Functions that read the event's facts, so are always false at Stop. */
const EVENT_ONLY_FUNCTIONS: readonly string[] = ['command_contains', 'user_says'];

interface VariableSetter {
  /** `tool_result` setters run after a tool (`phase` undefined: in every phase); others run on entry, exit, a transition or the start. */
  readonly kind: 'tool_result' | 'other';
  readonly phase?: string | undefined;
  readonly when?: string | undefined;
}

/**
 * A stop gate that waits for something the agent cannot produce holds until its cap every
 * turn: the author must hear of it when the file loads. Reported:
 *  - a requirement that reads an event-only name (`command`, `tool`, …) or function, always
 *    empty at Stop;
 *  - a requirement that reads a variable no action ever sets;
 *  - a requirement that does not hold with the initial values and reads a variable whose
 *    only setters are on_tool_result actions restricted to tools the gated phase refuses.
 */
function findStopGateDeadlocks(
  definition: WorkflowDefinition,
  phases: readonly CompiledPhase[],
  workflowGate: CompiledStopGate | undefined,
): { path: PropertyKey[]; message: string }[] {
  const problems: { path: PropertyKey[]; message: string }[] = [];
  const setters = collectVariableSetters(definition);
  // A requirement that already holds with the initial values is not waiting for anything.
  const initial = definition.variables;
  const initialScope = { values: { ...initial, variables: initial, workflow_state: { variables: initial }, null: null } };
  const holdsAtStart = (compiled: CompiledStopGate | undefined, index: number): boolean =>
    Boolean(compiled?.requires.find((requirement) => requirement.key.endsWith(`#${index}`))?.when.evaluate(initialScope));
  const check = (gate: StopGateDefinition, gatePath: PropertyKey[], gatedPhases: readonly CompiledPhase[], compiled: CompiledStopGate | undefined): void => {
    gate.requires.forEach((requirement, index) => {
      const path = [...gatePath, 'requires', index, 'when'];
      const read = namesRead(requirement.when, Object.keys(definition.variables).concat([...setters.keys()]));
      const eventOnly = [...read.names].filter((name) => EVENT_ONLY_NAMES.includes(name) || EVENT_ONLY_FUNCTIONS.includes(name));
      if (eventOnly.length > 0) {
        problems.push({
          path,
          message:
            `stop gate requirement \`${requirement.when}\` reads ${eventOnly.map((name) => `\`${name}\``).join(', ')}, which ${eventOnly.length > 1 ? 'are' : 'is'} always empty at Stop, so it can never hold: ` +
            'record the fact in a variable with an on_tool_result action and require the variable',
        });
        return;
      }
      for (const variable of read.variables) {
        const found = setters.get(variable) ?? [];
        if (found.length === 0) {
          problems.push({ path, message: `stop gate requirement \`${requirement.when}\` reads variable \`${variable}\`, which no action ever sets, so it can never change` });
          continue;
        }
        if (found.some((setter) => setter.kind === 'other') || holdsAtStart(compiled, index)) continue;
        for (const phase of gatedPhases) {
          const here = found.filter((setter) => setter.phase === undefined || setter.phase === phase.name);
          if (here.length === 0 || here.some((setter) => canFireIn(setter, phase))) continue;
          problems.push({
            path,
            message:
              `stop gate requirement \`${requirement.when}\` in phase \`${phase.name}\` waits for variable \`${variable}\`, ` +
              `which is set only after tools the phase refuses (${here.flatMap((setter) => toolsNamedBy(setter.when) ?? []).join(', ')})`,
          });
        }
      }
    });
  };
  if (definition.stop_gate) check(definition.stop_gate, ['stop_gate'], phases, workflowGate);
  definition.phases.forEach((phase, index) => {
    if (phase.stop_gate) check(phase.stop_gate, ['phases', index, 'stop_gate'], [phases[index]!], phases[index]!.stopGate);
  });
  return problems;
}

function collectVariableSetters(definition: WorkflowDefinition): Map<string, VariableSetter[]> {
  const setters = new Map<string, VariableSetter[]>();
  const add = (actions: WorkflowDefinition['triggers']['on_session_start'], kind: VariableSetter['kind'], phase?: string): void => {
    for (const action of actions) {
      if (action.action !== 'set_variable' && action.action !== 'increment_variable') continue;
      const list = setters.get(action.name) ?? [];
      list.push({ kind, phase, when: action.when });
      setters.set(action.name, list);
    }
  };
  add(definition.triggers.on_session_start, 'other');
  add(definition.triggers.on_tool_result, 'tool_result');
  for (const phase of definition.phases) {
    add(phase.on_enter, 'other');
    add(phase.on_exit, 'other');
    add(phase.on_tool_result, 'tool_result', phase.name);
    for (const transition of phase.transitions) add(transition.on_transition, 'other');
  }
  return setters;
}

function canFireIn(setter: VariableSetter, phase: CompiledPhase): boolean {
  const tools = toolsNamedBy(setter.when);
  if (tools === undefined) return true;
  // As the engine refuses: MultiEdit and NotebookEdit too where Write and Edit are blocked.
  return tools.some((tool) => !phaseRefusesTool(phase, tool));
}

/**
 * The tools a condition restricts itself to (`tool == 'Bash'`, `tool in ['Edit', 'Write']`),
 * or undefined when it does not plainly restrict the tool. An `or` anywhere makes the
 * restriction unclear, and an unclear condition counts as able to fire: the check must
 * never refuse a definition that works.
 */
function toolsNamedBy(when: string | undefined): string[] | undefined {
  if (when === undefined || /\bor\b|\bnot\s*\(?\s*tool/.test(when.replace(QUOTED, "''"))) return undefined;
  const equal = /\btool(?:_name)?\s*==\s*(['"])([^'"]+)\1/.exec(when);
  if (equal) return [canonicalToolName(equal[2]!)];
  const member = /\btool(?:_name)?\s+in\s+\[([^\]]*)\]/.exec(when);
  if (member) return [...member[1]!.matchAll(/(['"])([^'"]+)\1/g)].map((match) => canonicalToolName(match[2]!));
  return undefined;
}

const QUOTED = /'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g;

const WORDS_OF_THE_LANGUAGE = new Set(['and', 'or', 'not', 'in', 'true', 'false']);

/**
 * What a condition reads, found from its text: the top-level names and functions, and the
 * variables it reads by name or as `variables.<name>`. Strings are blanked first, so text
 * inside quotes never counts.
 */
function namesRead(source: string, variableNames: readonly string[]): { names: Set<string>; variables: Set<string> } {
  const text = source.replace(QUOTED, "''");
  const names = new Set<string>();
  const variables = new Set<string>();
  for (const match of text.matchAll(/([.|]\s*)?([A-Za-z_$][\w$]*)/g)) {
    const [, before, name] = match;
    if (before || WORDS_OF_THE_LANGUAGE.has(name!)) continue;
    names.add(name!);
    if (variableNames.includes(name!)) variables.add(name!);
  }
  for (const match of text.matchAll(/\bvariables\s*\.\s*([A-Za-z_$][\w$]*)/g)) variables.add(match[1]!);
  return { names, variables };
}

/** Variables may be declared under `variables:` or introduced by set/increment actions. */
function collectVariableNames(definition: WorkflowDefinition): string[] {
  return [...new Set(collectVariableDeclarations(definition).map((declaration) => declaration.name))];
}

function collectVariableDeclarations(definition: WorkflowDefinition): { name: string; path: PropertyKey[] }[] {
  const declarations = Object.keys(definition.variables).map((name) => ({ name, path: ['variables', name] as PropertyKey[] }));
  for (const { action, path } of variableActionsOf(definition)) declarations.push({ name: action.name, path: [...path, 'name'] });
  return declarations;
}

type VariableAction = Extract<WorkflowDefinition['triggers']['on_session_start'][number], { action: 'set_variable' | 'increment_variable' }>;

/** Every set_variable and increment_variable action of the definition, with its path. */
function variableActionsOf(definition: WorkflowDefinition): { action: VariableAction; path: PropertyKey[] }[] {
  const found: { action: VariableAction; path: PropertyKey[] }[] = [];
  const actionLists: { actions: WorkflowDefinition['triggers']['on_session_start']; path: PropertyKey[] }[] = [
    { actions: definition.triggers.on_session_start, path: ['triggers', 'on_session_start'] },
    { actions: definition.triggers.on_tool_result, path: ['triggers', 'on_tool_result'] },
  ];
  definition.phases.forEach((phase, index) => {
    actionLists.push({ actions: phase.on_enter, path: ['phases', index, 'on_enter'] });
    actionLists.push({ actions: phase.on_tool_result, path: ['phases', index, 'on_tool_result'] });
    actionLists.push({ actions: phase.on_exit, path: ['phases', index, 'on_exit'] });
    phase.transitions.forEach((transition, transitionIndex) => {
      actionLists.push({ actions: transition.on_transition, path: ['phases', index, 'transitions', transitionIndex, 'on_transition'] });
    });
  });
  for (const { actions, path } of actionLists) {
    actions.forEach((action, index) => {
      if (action.action === 'set_variable' || action.action === 'increment_variable') found.push({ action, path: [...path, index] });
    });
  }
  return found;
}

/**
 * increment_variable adds to a number: a variable that starts as text, a list or true would
 * silently become 1 at the first increment. Missing and null count as 0.
 */
function findNonNumericIncrements(definition: WorkflowDefinition): { path: PropertyKey[]; message: string }[] {
  return variableActionsOf(definition).flatMap(({ action, path }) => {
    if (action.action !== 'increment_variable') return [];
    const initial = definition.variables[action.name];
    if (initial === undefined || initial === null || typeof initial === 'number') return [];
    return [{ path: [...path, 'name'], message: `increment_variable adds to variable \`${action.name}\`, whose initial value ${JSON.stringify(initial)} is not a number` }];
  });
}

/** zod would say "invalid discriminator"; a workflow author needs the action's name. */
function findUnknownActions(raw: unknown): { path: PropertyKey[]; message: string }[] {
  const problems: { path: PropertyKey[]; message: string }[] = [];
  const check = (list: unknown, path: PropertyKey[], known: readonly string[]): void => {
    if (!Array.isArray(list)) return;
    list.forEach((item, index) => {
      const action = (item as { action?: unknown } | null)?.action;
      if (typeof action === 'string' && !known.includes(action)) {
        problems.push({
          path: [...path, index, 'action'],
          message: `unknown action \`${action}\` (known here: ${known.join(', ')})`,
        });
      }
    });
  };
  const root = raw as { phases?: unknown; triggers?: { on_session_start?: unknown; on_tool_result?: unknown } } | null;
  check(root?.triggers?.on_session_start, ['triggers', 'on_session_start'], TRIGGER_ACTION_NAMES);
  check(root?.triggers?.on_tool_result, ['triggers', 'on_tool_result'], PHASE_ACTION_NAMES);
  if (Array.isArray(root?.phases)) {
    root.phases.forEach((phase: Record<string, unknown> | null, index) => {
      check(phase?.on_enter, ['phases', index, 'on_enter'], PHASE_ACTION_NAMES);
      check(phase?.on_exit, ['phases', index, 'on_exit'], PHASE_ACTION_NAMES);
      check(phase?.on_tool_result, ['phases', index, 'on_tool_result'], PHASE_ACTION_NAMES);
      if (Array.isArray(phase?.transitions)) {
        phase.transitions.forEach((transition: Record<string, unknown> | null, transitionIndex: number) => {
          check(transition?.on_transition, ['phases', index, 'transitions', transitionIndex, 'on_transition'], PHASE_ACTION_NAMES);
        });
      }
    });
  }
  return problems;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
  return `${where}: ${issue.message}`;
}

/** Offset of the deepest existing YAML node on the path (a missing key points at its parent). */
function nodeOffset(root: unknown, path: readonly PropertyKey[]): number | undefined {
  let node = root as YamlNode | null | undefined;
  let offset = node?.range?.[0];
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
      if (!pair) break;
      const keyNode = pair.key as YamlNode | null;
      node = pair.value as YamlNode | null;
      offset = node?.range?.[0] ?? keyNode?.range?.[0] ?? offset;
      // Point unknown-key errors at the key itself.
      if (path[path.length - 1] === key && keyNode?.range) offset = keyNode.range[0];
    } else if (isSeq(node) && typeof key === 'number') {
      node = node.items[key] as YamlNode | null;
      if (!node) break;
      offset = node.range?.[0] ?? offset;
    } else break;
  }
  return offset;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
