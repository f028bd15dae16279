// The YAML format of a phase workflow (seed 003), as a zod schema. Objects are strict:
// an unknown key is a load error with its file, line and column, never ignored.
import { z } from 'zod';

const when = z.string().min(1).optional();

export const PHASE_ACTION_NAMES = ['inject_message', 'set_variable', 'increment_variable'] as const;
export const TRIGGER_ACTION_NAMES = [...PHASE_ACTION_NAMES, 'enter_phase'] as const;

const injectMessage = z.strictObject({ action: z.literal('inject_message'), content: z.string(), when });
const setVariable = z.strictObject({
  action: z.literal('set_variable'),
  name: z.string().min(1),
  value: z.unknown(),
  when,
});
const incrementVariable = z.strictObject({
  action: z.literal('increment_variable'),
  name: z.string().min(1),
  by: z.number().default(1),
  when,
});
const enterPhase = z.strictObject({ action: z.literal('enter_phase'), phase: z.string().min(1), when });

const phaseActionSchema = z.discriminatedUnion('action', [injectMessage, setVariable, incrementVariable]);
const triggerActionSchema = z.discriminatedUnion('action', [
  injectMessage,
  setVariable,
  incrementVariable,
  enterPhase,
]);

const transitionSchema = z.strictObject({
  to: z.string().min(1),
  when: z.string().min(1),
  on_transition: z.array(phaseActionSchema).default([]),
});

const exitConditionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('user_approval'), prompt: z.string().refine((prompt) => /[\p{L}\p{N}]/u.test(prompt), 'an approval prompt must hold words: the model is told to end its turn with exactly it').default('Ready to move on?') }),
  z.strictObject({ type: z.literal('variable_set'), variable: z.string().min(1) }),
  z.strictObject({ type: z.literal('expression'), when: z.string().min(1) }),
]);

const ruleSchema = z.strictObject({
  when: z.string().min(1),
  action: z.enum(['block', 'warn']),
  message: z.string().min(1),
});

const toolList = z.array(z.string().min(1));

/** Claude Code ends a turn itself after 8 consecutive Stop blocks; a gate hands over before that. */
export const STOP_GATE_MAX_BLOCKS = 7;

const stopRequirementSchema = z.strictObject({
  /** A condition that must hold before the turn may end. */
  when: z.string().min(1),
  /** Template: what is missing, told to the model when the condition does not hold. */
  missing: z.string().min(1),
  /** Template: how to do it. */
  how: z.string().min(1),
});

const stopGateSchema = z.strictObject({
  requires: z.array(stopRequirementSchema).min(1),
  max_blocks: z.number().int().min(1).max(STOP_GATE_MAX_BLOCKS).default(3),
});

const phaseSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]+$/, 'phase names use letters, digits, - and _'),
  description: z.string().optional(),
  /** Told to the model at session start and with every prompt while the phase is current. */
  instructions: z.string().optional(),
  allowed_tools: z.union([z.literal('all'), toolList]).default('all'),
  blocked_tools: toolList.default([]),
  /** What Bash may run in a phase whose file tools are blocked (docs/shell-effects.md). */
  shell: z
    .strictObject({
      allow_programs: z.array(z.string().min(1)).default([]),
      allow_opaque: z.boolean().default(false),
    })
    .default({ allow_programs: [], allow_opaque: false }),
  on_enter: z.array(phaseActionSchema).default([]),
  on_exit: z.array(phaseActionSchema).default([]),
  transitions: z.array(transitionSchema).default([]),
  exit_conditions: z.array(exitConditionSchema).default([]),
  rules: z.array(ruleSchema).default([]),
  /** Run after each tool result while the phase is current: where facts for a stop gate are recorded. */
  on_tool_result: z.array(phaseActionSchema).default([]),
  stop_gate: stopGateSchema.optional(),
});

export const workflowDefinitionSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'workflow names use letters, digits, ., - and _'),
  description: z.string().optional(),
  version: z.union([z.string(), z.number()]).optional(),
  type: z.literal('phase').default('phase'),
  variables: z.record(z.string(), z.unknown()).default({}),
  phases: z.array(phaseSchema).min(1),
  triggers: z
    .strictObject({
      on_session_start: z.array(triggerActionSchema).default([]),
      /** Run after each tool result, in every phase, before the phase's own on_tool_result. */
      on_tool_result: z.array(phaseActionSchema).default([]),
    })
    .default({ on_session_start: [], on_tool_result: [] }),
  /** A stop gate that holds in every phase, besides the phase's own. */
  stop_gate: stopGateSchema.optional(),
});

export type WorkflowDefinition = z.infer<typeof workflowDefinitionSchema>;
