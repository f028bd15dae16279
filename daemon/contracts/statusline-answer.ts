// The answer behind `gobby statusline`: what Claude Code's status line shows for a session.
import { z } from 'zod';
import { stringList, timestamp } from './shared-fields.js';

/** Whether the session's tools are held to its workflow right now, and if not, why not. */
const enforcement = z.discriminatedUnion('state', [
  z.object({ state: z.literal('on') }),
  /** `gobby workflow disable`: off until `enable`. */
  z.object({ state: z.literal('disabled'), reason: z.string() }),
  /** `gobby workflow disable --for`: back on by itself at `until`. */
  z.object({ state: z.literal('paused'), reason: z.string(), until: timestamp, seconds_left: z.number().int().positive() }),
  /** Nothing to enforce: no workflow, one that does not load, or a session gobby has not heard from. */
  z.object({ state: z.literal('off'), why: z.string() }),
]);

/** `GET /api/statusline?cwd=&session=`: small and cheap, it is asked after every message. */
export const statusLineAnswer = z.object({
  project: z.string(),
  /** The session asked for, else the project's most recently active one; null when there is none. */
  session_id: z.string().nullable(),
  /** Whether that session has sent gobby a hook event. */
  session_known: z.boolean(),
  /** The session's workflow; before the session is known, the project's. */
  workflow: z.string().nullable(),
  phase: z.string().nullable(),
  /** 1-based place of the phase in the workflow, and how many phases it has. */
  phase_number: z.number().int().positive().nullable(),
  phase_count: z.number().int().positive().nullable(),
  /** Set while the model asked the phase's approval question: the words a reply may start with. */
  pending_approval: z
    .object({ prompt: z.string(), next_phase: z.string().nullable(), approve_words: stringList, reject_words: stringList })
    .nullable(),
  /** Refusals since the user's last prompt. */
  blocked_this_turn: z.number().int().nonnegative(),
  enforcement,
  /**
   * The file of the session's workflow (or of the project's, before the session reports) does
   * not load: its first error as `file:line:column: message`. Meanwhile the session keeps the
   * version it started with, or the last good one; `gobby workflow status` says which.
   */
  workflow_problem: z.object({ workflow: z.string(), error: z.string() }).nullable(),
});
export type StatusLineAnswer = z.infer<typeof statusLineAnswer>;
