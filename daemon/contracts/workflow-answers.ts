// Answers about workflow definitions and a project's choice of one.
import { z } from 'zod';
import { definitionTier, loadError, stringList, toolPatterns } from './shared-fields.js';

const workflowSummary = z.object({
  name: z.string(),
  description: z.string().nullable(),
  tier: definitionTier,
  file: z.string(),
  hash: z.string(),
  phase_names: stringList,
});

/** `GET /api/workflows?cwd=`: every definition visible from the project, and the files that failed to load. */
export const workflowListAnswer = z.object({
  project: z.string(),
  project_workflow: z.string().nullable(),
  /** Why the project's workflow cannot run as its file says (the file is gone or does not load), and what runs instead; null when it loads. */
  project_workflow_problem: z.string().nullable(),
  workflows: z.array(workflowSummary.extend({ shadowed_by: definitionTier.nullable() })).readonly(),
  errors: z.array(loadError).readonly(),
  /** The project's own audit rows (`workflow set`, `workflow clear`), newest first. */
  project_events: z
    .array(
      z.object({
        at: z.string(),
        event: z.string(),
        workflow: z.string().nullable(),
        because: z.string(),
        reason: z.string().nullable(),
        actor: z.string(),
      }),
    )
    .readonly(),
});

/**
 * `GET /api/workflows/:name?cwd=`: one definition, phase by phase. When its file does not
 * load, `load_errors` says why and the rest describes the last version that loaded.
 */
export const workflowAnswer = workflowSummary.extend({
  load_errors: z.array(loadError).readonly(),
  variables: z.record(z.string(), z.unknown()),
  phases: z
    .array(
      z.object({
        name: z.string(),
        description: z.string().nullable(),
        allowed_tools: toolPatterns,
        blocked_tools: stringList,
        approval_prompt: z.string().nullable(),
        transitions: z.array(z.object({ to: z.string(), when: z.string() })).readonly(),
        next_phase: z.string().nullable(),
        way_out: z.string(),
      }),
    )
    .readonly(),
});

/** `PUT /api/projects/workflow`. */
export const setWorkflowAnswer = z.object({
  project: z.string(),
  workflow: z.string(),
  definition: z.object({ file: z.string(), tier: definitionTier }),
  /** Running sessions without a workflow that got this one now. */
  started_sessions: stringList,
});

/** `POST /api/projects/workflow/clear`. */
export const clearWorkflowAnswer = z.object({
  project: z.string(),
  previous_workflow: z.string().nullable(),
});
