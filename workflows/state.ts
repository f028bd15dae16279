// A session's workflow state. It is stored as JSON in SQLite and read back through this
// schema, so a row written by an older build is checked before the engine trusts it.
import { z } from 'zod';

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
  variables: z.record(z.string(), z.unknown()),
  /** Set when the model ended a turn in a phase that waits for the user's approval. */
  pendingApproval: z
    .object({ phase: z.string(), prompt: z.string(), askedAt: z.number() })
    .nullable(),
  /** Messages (phase entries, warnings) not yet delivered to the model. */
  pendingMessages: z.array(z.string()),
  /**
   * Enforcement switched off by the user. With `until` (ms since the epoch, `disable --for`)
   * it comes back by itself at the first event at or after that time.
   */
  disabled: z.object({ reason: z.string(), at: z.number(), until: z.number().nullable().optional() }).nullable(),
});

export type WorkflowState = z.infer<typeof workflowStateSchema>;
