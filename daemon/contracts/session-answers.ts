// Answers about one session: its status, and the human overrides.
import { z } from 'zod';
import { definitionTier, loadError, stringList, timestamp, toolPatterns } from './shared-fields.js';

/** `ran-unchecked`: a tool the phase refuses ran without gobby seeing its call first (see docs/workflows.md). */
const auditDecision = z.enum(['allow', 'deny', 'context', 'none', 'ran-unchecked']);

const decisionRow = z.object({
  at: timestamp,
  event: z.string(),
  tool: z.string().nullable(),
  decision: auditDecision,
  phase: z.string().nullable(),
  because: z.string(),
  reason: z.string().nullable(),
  actor: z.string(),
});

const statusBase = z.object({
  session_id: z.string(),
  project: z.string().nullable(),
  project_workflow: z.string().nullable(),
  cwd: z.string(),
  session: z.object({
    started_at: timestamp,
    last_event_at: timestamp,
    ended_at: timestamp.nullable(),
    end_reason: z.string().nullable(),
  }),
  /** Audit rows by decision (`allow`, `deny`, …). */
  decision_counts: z.record(z.string(), z.number().int()),
  /** Newest first. */
  last_decisions: z.array(decisionRow).readonly(),
  /** How the session's hooks were installed: with no good version of its workflow, strict refuses tools, lenient warns. */
  failure_mode: z.enum(['strict', 'lenient']),
  /**
   * The file of the session's workflow (or of the project's, for a session that runs none)
   * does not load: its errors, and what gobby does meanwhile. Null when it loads.
   */
  workflow_problem: z
    .object({
      workflow: z.string(),
      errors: z.array(loadError).readonly(),
      /** What runs meanwhile, in a sentence: the pinned version, the last good one, or nothing (and strict or lenient). */
      consequence: z.string(),
    })
    .nullable(),
});

const statusWithoutWorkflow = statusBase.extend({ workflow: z.null(), phase: z.null() });

const statusWithWorkflow = statusBase.extend({
  workflow: z.string(),
  phase: z.string(),
  phases: stringList,
  definition: z.object({ file: z.string(), tier: definitionTier, hash: z.string() }),
  phase_entered_at: timestamp,
  seconds_in_phase: z.number().int().nonnegative(),
  action_counts: z.object({ phase: z.number().int(), total: z.number().int(), blocked: z.number().int() }),
  allowed_tools: toolPatterns,
  blocked_tools: stringList,
  tools_summary: z.string(),
  way_out: z.string(),
  /** Set while the model asked the phase's approval question and the user has not answered. */
  pending_approval: z.object({ phase: z.string(), prompt: z.string(), asked_at: timestamp }).nullable(),
  /** `until` and `seconds_left` are set by `disable --for`; null means until `enable`. */
  disabled: z
    .object({ reason: z.string(), at: timestamp, until: timestamp.nullable(), seconds_left: z.number().int().positive().nullable() })
    .nullable(),
  variables: z.record(z.string(), z.unknown()),
});

/** `GET /api/status?cwd=&session=`: `workflow` is null for a session that runs none. */
export const statusAnswer = z.union([statusWithWorkflow, statusWithoutWorkflow]);
export type StatusAnswer = z.infer<typeof statusAnswer>;

/** `POST /api/sessions/phase`. */
export const phaseAnswer = z.object({
  session_id: z.string(),
  workflow: z.string(),
  from: z.string(),
  to: z.string(),
  forced: z.boolean(),
  /** False when the session was already in `to` (without --force): nothing was done or audited. */
  changed: z.boolean(),
  reason: z.string(),
});

/** `POST /api/sessions/reset`: the definition reloaded from disk, back at its first phase. */
export const resetAnswer = z.object({
  session_id: z.string(),
  workflow: z.string(),
  phase: z.string(),
  previous_phase: z.string(),
  definition_hash: z.string(),
});

/** `POST /api/sessions/disable` and `/enable`. */
export const enforcementAnswer = z.object({
  session_id: z.string(),
  workflow: z.string(),
  phase: z.string(),
  disabled: z.boolean(),
  /** False for `enable` on a session whose enforcement was not disabled: nothing was done or audited. */
  changed: z.boolean(),
  reason: z.string(),
  /** When a `disable --for` turns enforcement back on by itself. */
  until: timestamp.nullable(),
});

/** `GET /api/audit?cwd=&session=&tamper=&limit=`: audit rows, newest first. */
export const auditAnswer = z.object({
  project: z.string(),
  /** The session asked for with --session; null for the whole project. */
  session_id: z.string().nullable(),
  tamper_only: z.boolean(),
  rows: z
    .array(
      z.object({
        at: timestamp,
        /** Null for a project's own row (`workflow:set`, or a refused override linked to no session). */
        session_id: z.string().nullable(),
        event: z.string(),
        tool: z.string().nullable(),
        decision: auditDecision,
        workflow: z.string().nullable(),
        phase: z.string().nullable(),
        because: z.string(),
        reason: z.string().nullable(),
        actor: z.string(),
        detail: z.unknown(),
      }),
    )
    .readonly(),
});
export type AuditAnswer = z.infer<typeof auditAnswer>;
