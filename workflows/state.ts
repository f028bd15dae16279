// A session's workflow state. It is stored as JSON in SQLite and read back through this
// schema, so a row written by an older build is checked before the engine trusts it.
import { z } from 'zod';

const stopGateStateSchema = z.object({
  /** Stop blocks since the gate last saw progress (fewer unmet requirements). */
  blocksWithoutProgress: z.number().int().nonnegative(),
  /** Every Stop block of this turn; capped below Claude Code's own cap of 8. */
  blocksThisTurn: z.number().int().nonnegative(),
  /** totalActionCount at the last block: a later Stop re-blocks only if a tool ran since. Null: no block this turn. */
  actionsAtLastBlock: z.number().int().nonnegative().nullable(),
  /** The keys of the requirements unmet at the last block. */
  unmetAtLastBlock: z.array(z.string()),
});

export type StopGateState = z.infer<typeof stopGateStateSchema>;

export const INITIAL_STOP_GATE_STATE: StopGateState = Object.freeze({
  blocksWithoutProgress: 0,
  blocksThisTurn: 0,
  actionsAtLastBlock: null,
  unmetAtLastBlock: Object.freeze([]) as unknown as string[],
});

export const workflowStateSchema = z.object({
  workflow: z.string(),
  /** Content hash of the definition the session is pinned to. */
  definitionHash: z.string(),
  phase: z.string(),
  /** Milliseconds since the epoch; the clock is passed in, never read here. */
  phaseEnteredAt: z.number(),
  phaseActionCount: z.number().int().nonnegative(),
  totalActionCount: z.number().int().nonnegative(),
  blockedCount: z.number().int().nonnegative(),
  /**
   * Refusals (tool calls, gobby's own ground) since the user's last prompt: what the status
   * line shows as this turn's blocks. States written before this field read as 0.
   */
  blockedThisTurn: z.number().int().nonnegative().default(0),
  variables: z.record(z.string(), z.unknown()),
  /** Set when the model ended a turn in a phase that waits for the user's approval. */
  pendingApproval: z
    .object({ phase: z.string(), prompt: z.string(), askedAt: z.number() })
    .nullable(),
  /** Messages (phase entries, warnings) not yet delivered to the model. */
  pendingMessages: z.array(z.string()),
  /**
   * Notices for the user that no hook answer has carried yet (a human moved the phase from the
   * CLI between events): the next event's answer shows them. States written before this field read as none.
   */
  pendingNotices: z.array(z.string()).default([]),
  /** The user was told about an attempt on gobby's own ground (told once per session). States written before this field read as false. */
  tamperNoticeGiven: z.boolean().default(false),
  /**
   * Enforcement switched off by the user. With `until` (ms since the epoch, `disable --for`)
   * it comes back by itself at the first event at or after that time.
   */
  disabled: z.object({ reason: z.string(), at: z.number(), until: z.number().nullable().optional() }).nullable(),
  /**
   * The stop gate's counters for the current turn; reset by the next prompt. States stored
   * by builds before the gate existed lack it and read as a fresh turn.
   */
  stopGate: stopGateStateSchema.default(INITIAL_STOP_GATE_STATE),
});

export type WorkflowState = z.infer<typeof workflowStateSchema>;
