// Shared helpers for the engine's unit tests: compile a definition, drive a session through
// a table of "event in → decision out" steps, and name events the way hooks report them.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { hashDefinitionText } from '../../daemon/workflow-catalog.js';
import {
  compileWorkflow,
  evaluateEvent,
  isToolEvent,
  startWorkflow,
  type CompiledWorkflow,
  type EngineEvent,
  type Effect,
  type Evaluation,
  type LoadError,
  type WorkflowState,
} from '../../workflows/index.js';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEMPLATES_DIR = join(REPO_ROOT, 'templates');
export const FIXTURES_DIR = join(REPO_ROOT, 'tests', 'fixtures', 'workflows');

/** A fixed clock: the engine never reads the time itself. */
export const T0 = 1_700_000_000_000;

export function compileErrors(text: string, file = 'test.yaml'): LoadError[] {
  const result = compileWorkflow({ text, file, tier: 'project' }, hashDefinitionText(text));
  if (result.ok) throw new Error(`expected ${file} not to compile, but it did`);
  return result.errors;
}

export function compile(text: string, file = 'test.yaml'): CompiledWorkflow {
  const result = compileWorkflow({ text, file, tier: 'project' }, hashDefinitionText(text));
  if (!result.ok) {
    throw new Error(`expected ${file} to compile:\n${result.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join('\n')}`);
  }
  return result.workflow;
}

export function loadTemplate(name: string): CompiledWorkflow {
  const file = join(TEMPLATES_DIR, `${name}.yaml`);
  const text = readFileSync(file, 'utf8');
  const result = compileWorkflow({ text, file, tier: 'builtin' }, hashDefinitionText(text));
  if (!result.ok) throw new Error(`built-in template ${name} does not compile: ${JSON.stringify(result.errors)}`);
  return result.workflow;
}

// Events, spelled as Claude Code's hooks name them.
export const sessionStart = (source = 'startup'): EngineEvent => ({ name: 'SessionStart', source });
export const say = (prompt: string): EngineEvent => ({ name: 'UserPromptSubmit', prompt });
export const pre = (toolName: string, toolInput: Record<string, unknown> = {}): EngineEvent => ({ name: 'PreToolUse', toolName, toolInput });
export const post = (toolName: string, toolInput: Record<string, unknown> = {}): EngineEvent => ({ name: 'PostToolUse', toolName, toolInput });
export const failed = (toolName: string, error = 'exit code 1', toolInput: Record<string, unknown> = {}): EngineEvent => ({
  name: 'PostToolUseFailure',
  toolName,
  toolInput,
  error,
  isInterrupt: false,
});
export const stop: EngineEvent = { name: 'Stop', stopHookActive: false };

function describeEvent(event: EngineEvent): string {
  if (event.name === 'UserPromptSubmit') return `UserPromptSubmit ${JSON.stringify(event.prompt)}`;
  if (isToolEvent(event)) return `${event.name} ${event.toolName}${event.toolInput.command ? ` ${JSON.stringify(event.toolInput.command)}` : ''}`;
  return event.name;
}

/** A session held in memory: its state threads from one event to the next. */
export class Session {
  state: WorkflowState;
  readonly startEffects: readonly Effect[];
  now: number;

  constructor(
    readonly workflow: CompiledWorkflow,
    now = T0,
  ) {
    this.now = now;
    const started = startWorkflow(workflow, { now });
    this.state = started.state;
    this.startEffects = started.effects;
  }

  send(event: EngineEvent, now = this.now): Evaluation {
    this.now = now;
    const evaluation = evaluateEvent(this.workflow, this.state, event, { now });
    this.state = evaluation.state;
    return evaluation;
  }

  /** Plays the steps in order, checking each decision against what the step expects. */
  play(steps: readonly Step[]): Evaluation[] {
    return steps.map((step, index) => {
      const evaluation = this.send(step.event, step.at ?? this.now);
      checkStep(evaluation, step, `step ${index + 1} (${describeEvent(step.event)})`);
      return evaluation;
    });
  }
}

export interface Step {
  readonly event: EngineEvent;
  /** Clock for this event (defaults to the previous one). */
  readonly at?: number;
  readonly decision?: 'allow' | 'deny';
  /** Phase after the event. */
  readonly phase?: string;
  /** Effect types produced, in order; [] means none. */
  readonly effects?: readonly Effect['type'][];
  /** Texts the injected context must contain, in this order. */
  readonly context?: readonly string[];
  /** Texts the injected context must not contain. */
  readonly notContext?: readonly string[];
  /** No context at all. */
  readonly noContext?: boolean;
  /** Texts the deny reason must contain. */
  readonly reason?: readonly string[];
  readonly approvalPending?: boolean;
}

export function contextOf(evaluation: Evaluation): string | undefined {
  return evaluation.decision.kind === 'allow' ? evaluation.decision.context : undefined;
}

export function reasonOf(evaluation: Evaluation): string | undefined {
  return evaluation.decision.kind === 'deny' ? evaluation.decision.reason : undefined;
}

function checkStep(evaluation: Evaluation, step: Step, label: string): void {
  if (step.decision) expect(evaluation.decision.kind, `${label}: decision`).toBe(step.decision);
  if (step.phase) expect(evaluation.state.phase, `${label}: phase`).toBe(step.phase);
  if (step.effects) expect(evaluation.effects.map((effect) => effect.type), `${label}: effects`).toEqual(step.effects);
  if (step.approvalPending !== undefined) {
    expect(evaluation.state.pendingApproval !== null, `${label}: approval pending`).toBe(step.approvalPending);
  }
  const context = contextOf(evaluation);
  if (step.noContext) expect(context, `${label}: context`).toBeUndefined();
  if (step.context) {
    expect(context, `${label}: context`).toBeDefined();
    let from = 0;
    for (const text of step.context) {
      const at = context!.indexOf(text, from);
      expect(at, `${label}: context should contain ${JSON.stringify(text)} (in order) but was:\n${context}`).toBeGreaterThanOrEqual(0);
      from = at + text.length;
    }
  }
  for (const text of step.notContext ?? []) {
    expect(context ?? '', `${label}: context should not contain ${JSON.stringify(text)}`).not.toContain(text);
  }
  if (step.reason) {
    const reason = reasonOf(evaluation);
    expect(reason, `${label}: deny reason`).toBeDefined();
    for (const text of step.reason) expect(reason, `${label}: deny reason`).toContain(text);
  }
}
