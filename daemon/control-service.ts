// What the CLI asks of the daemon: status, choosing a project's workflow, and the human
// overrides (phase, reset, disable, enable), each audited with who and why.
import {
  describeAllowedTools,
  describeWayOut,
  movePhase,
  reachablePhases,
  type CompiledWorkflow,
} from '../workflows/index.js';
import { gobbyError } from './errors.js';
import { auditEffects, type SessionWorkflows } from './session-workflows.js';
import type { SessionRow } from './store/sessions-repository.js';
import type { Store } from './store/store.js';
import type { WorkflowCatalog } from './workflow-catalog.js';

export interface ControlServiceDeps {
  readonly store: Store;
  readonly catalog: WorkflowCatalog;
  readonly sessionWorkflows: SessionWorkflows;
  readonly resolveProjectRoot: (cwd: string) => string;
  readonly clock: () => number;
}

export interface SessionSelector {
  readonly sessionId?: string | undefined;
  readonly cwd: string;
}

export interface OverrideInput extends SessionSelector {
  readonly reason?: string | undefined;
  readonly actor: string;
}

const RECENT_DECISIONS = 10;

export function createControlService(deps: ControlServiceDeps) {
  const { store, catalog, sessionWorkflows, clock } = deps;

  function selectSession(selector: SessionSelector): SessionRow {
    if (selector.sessionId) {
      const session = store.sessions.get(selector.sessionId);
      if (!session) throw gobbyError('GOBBY_ERR_SESSION_NOT_FOUND', `no session ${selector.sessionId} has reported to gobby`);
      return session;
    }
    const root = deps.resolveProjectRoot(selector.cwd);
    const project = store.projects.find(root);
    const session = project ? store.sessions.latestInProject(project.id) : undefined;
    if (!session) {
      throw gobbyError(
        'GOBBY_ERR_SESSION_NONE_IN_PROJECT',
        `no Claude Code session has reported to gobby from ${root} yet. Is gobby installed there (gobby install)? Pass --session ID to pick one.`,
      );
    }
    return session;
  }

  function requireWorkflow(sessionId: string) {
    const loaded = sessionWorkflows.load(sessionId);
    if (!loaded) {
      throw gobbyError(
        'GOBBY_ERR_SESSION_NO_WORKFLOW',
        `session ${sessionId} runs no workflow. Choose one with \`gobby workflow set <name>\`.`,
      );
    }
    return loaded;
  }

  function requireReason(reason: string | undefined, what: string): string {
    const trimmed = reason?.trim();
    if (!trimmed) throw gobbyError('GOBBY_ERR_OVERRIDE_REASON_REQUIRED', `${what} needs --reason "why", which goes into the audit log`);
    return trimmed;
  }

  function status(selector: SessionSelector) {
    const now = clock();
    const session = selectSession(selector);
    const project = store.projects.get(session.projectId);
    const loaded = sessionWorkflows.load(session.id);
    const base = {
      session_id: session.id,
      project: project?.root ?? null,
      project_workflow: project?.workflow ?? null,
      cwd: session.cwd,
      session: {
        started_at: iso(session.startedAt),
        last_event_at: iso(session.lastEventAt),
        ended_at: session.endedAt === null ? null : iso(session.endedAt),
        end_reason: session.endReason,
      },
      decision_counts: store.audit.decisionCounts(session.id),
      last_decisions: store.audit.recent(session.id, RECENT_DECISIONS).map((row) => ({
        at: iso(row.at),
        event: row.event,
        tool: row.toolName ?? null,
        decision: row.decision,
        phase: row.phase ?? null,
        because: row.because,
        reason: row.reason ?? null,
        actor: row.actor ?? 'claude-code',
      })),
    };
    if (!loaded) return { ...base, workflow: null, phase: null };
    const { workflow, state } = loaded;
    const phase = workflow.phase(state.phase)!;
    return {
      ...base,
      workflow: workflow.name,
      phase: state.phase,
      phases: workflow.phases.map((p) => p.name),
      definition: { file: workflow.source.file, tier: workflow.source.tier, hash: workflow.hash },
      phase_entered_at: iso(state.phaseEnteredAt),
      seconds_in_phase: Math.max(0, Math.round((now - state.phaseEnteredAt) / 1000)),
      action_counts: { phase: state.phaseActionCount, total: state.totalActionCount, blocked: state.blockedCount },
      allowed_tools: phase.tools.allowed === 'all' ? 'all' : phase.tools.allowed.patterns,
      blocked_tools: phase.tools.blockedPatterns,
      tools_summary: describeAllowedTools(phase),
      way_out: describeWayOut(workflow, phase),
      pending_approval: state.pendingApproval
        ? { phase: state.pendingApproval.phase, prompt: state.pendingApproval.prompt, asked_at: iso(state.pendingApproval.askedAt) }
        : null,
      disabled: state.disabled ? { reason: state.disabled.reason, at: iso(state.disabled.at) } : null,
      variables: state.variables,
    };
  }

  function setProjectWorkflow(input: { cwd: string; workflow: string; actor: string }) {
    const now = clock();
    const root = deps.resolveProjectRoot(input.cwd);
    const workflow = catalog.resolve(input.workflow, root, true);
    if (!workflow) throw unknownWorkflow(input.workflow, root);
    return store.transaction(() => {
      const project = store.projects.ensure(root, now);
      store.projects.setWorkflow(project.id, workflow.name, now);
      // Running sessions without a workflow pick it up now, so `status` shows it at once;
      // their first prompt then carries the phase's instructions.
      const started: string[] = [];
      for (const session of store.sessions.activeInProject(project.id)) {
        if (store.workflowStates.getPhase(session.id)) continue;
        const result = sessionWorkflows.start(session.id, workflow, now);
        auditEffects(store, { sessionId: session.id, workflow: workflow.name, at: now, actor: input.actor, effects: result.effects });
        started.push(session.id);
      }
      return { project: root, workflow: workflow.name, definition: { file: workflow.source.file, tier: workflow.source.tier }, started_sessions: started };
    });
  }

  function clearProjectWorkflow(input: { cwd: string }) {
    const now = clock();
    const root = deps.resolveProjectRoot(input.cwd);
    const project = store.projects.find(root);
    const previous = project?.workflow ?? null;
    if (project) store.projects.setWorkflow(project.id, null, now);
    return { project: root, previous_workflow: previous };
  }

  function changePhase(input: OverrideInput & { phase: string; force: boolean }) {
    const now = clock();
    return store.transaction(() => {
      const session = selectSession(input);
      const { workflow, state } = requireWorkflow(session.id);
      if (!workflow.phase(input.phase)) {
        throw gobbyError('GOBBY_ERR_PHASE_NOT_FOUND', `workflow ${workflow.name} has no phase \`${input.phase}\` (phases: ${workflow.phases.map((p) => p.name).join(', ')})`);
      }
      const reason = input.force ? requireReason(input.reason, 'phase --force') : input.reason?.trim() || 'moved by the user';
      if (!input.force) {
        const allowed = reachablePhases(workflow, state, { now });
        if (!allowed.includes(input.phase)) {
          throw gobbyError(
            'GOBBY_ERR_PHASE_NOT_ALLOWED',
            `the definition does not allow ${state.phase} → ${input.phase} now` +
              (allowed.length > 0 ? ` (allowed now: ${allowed.join(', ')})` : '') +
              `. Use --force --reason "…" to override.`,
          );
        }
      }
      const moved = movePhase(workflow, state, input.phase, `${input.force ? 'forced' : 'moved'} by ${input.actor}: ${reason}`, { now });
      sessionWorkflows.save(session.id, moved.state, now);
      store.audit.append({
        at: now,
        sessionId: session.id,
        event: 'override:phase',
        decision: 'none',
        workflow: workflow.name,
        phase: state.phase,
        because: `${input.force ? 'forced' : 'requested'} ${state.phase} → ${input.phase}`,
        reason,
        actor: input.actor,
      });
      auditEffects(store, { sessionId: session.id, workflow: workflow.name, at: now, actor: input.actor, effects: moved.effects });
      return { session_id: session.id, workflow: workflow.name, from: state.phase, to: input.phase, forced: input.force, reason };
    });
  }

  function reset(input: OverrideInput) {
    const now = clock();
    return store.transaction(() => {
      const session = selectSession(input);
      const reason = requireReason(input.reason, 'reset');
      const { workflow: pinned, state } = requireWorkflow(session.id);
      // Reset reloads the definition from disk: this is how an edited workflow reaches a
      // running session (a session otherwise keeps the definition it started with).
      const project = store.projects.get(session.projectId);
      const fresh = catalog.resolve(pinned.name, project?.root ?? null, true);
      if (!fresh) throw unknownWorkflow(pinned.name, project?.root ?? null);
      const started = sessionWorkflows.start(session.id, fresh, now);
      store.audit.append({
        at: now,
        sessionId: session.id,
        event: 'override:reset',
        decision: 'none',
        workflow: fresh.name,
        phase: state.phase,
        because: `reset from ${state.phase} (definition ${pinned.hash} → ${fresh.hash})`,
        reason,
        actor: input.actor,
      });
      auditEffects(store, { sessionId: session.id, workflow: fresh.name, at: now, actor: input.actor, effects: started.effects });
      return { session_id: session.id, workflow: fresh.name, phase: started.state.phase, previous_phase: state.phase, definition_hash: fresh.hash };
    });
  }

  function setDisabled(input: OverrideInput & { disabled: boolean }) {
    const now = clock();
    return store.transaction(() => {
      const session = selectSession(input);
      const { workflow, state } = requireWorkflow(session.id);
      const reason = input.disabled ? requireReason(input.reason, 'disable') : input.reason?.trim() || 'enabled by the user';
      sessionWorkflows.save(session.id, { ...state, disabled: input.disabled ? { reason, at: now } : null }, now);
      store.audit.append({
        at: now,
        sessionId: session.id,
        event: input.disabled ? 'override:disable' : 'override:enable',
        decision: 'none',
        workflow: workflow.name,
        phase: state.phase,
        because: input.disabled ? 'enforcement disabled' : 'enforcement enabled',
        reason,
        actor: input.actor,
      });
      return { session_id: session.id, workflow: workflow.name, phase: state.phase, disabled: input.disabled, reason };
    });
  }

  function listWorkflows(cwd: string) {
    const root = deps.resolveProjectRoot(cwd);
    const listing = catalog.list(root);
    return {
      project: root,
      project_workflow: store.projects.find(root)?.workflow ?? null,
      workflows: listing.workflows.map(({ workflow, shadowedBy }) => ({
        ...summarizeWorkflow(workflow),
        shadowed_by: shadowedBy ?? null,
      })),
      errors: listing.errors,
    };
  }

  function showWorkflow(cwd: string, name: string) {
    const root = deps.resolveProjectRoot(cwd);
    const workflow = catalog.resolve(name, root, true);
    if (!workflow) throw unknownWorkflow(name, root);
    return {
      ...summarizeWorkflow(workflow),
      variables: workflow.variables,
      phases: workflow.phases.map((phase) => ({
        name: phase.name,
        description: phase.description ?? null,
        allowed_tools: phase.tools.allowed === 'all' ? 'all' : phase.tools.allowed.patterns,
        blocked_tools: phase.tools.blockedPatterns,
        approval_prompt: phase.approvalPrompt ?? null,
        transitions: phase.transitions.map((t) => ({ to: t.to, when: t.when.source })),
        next_phase: phase.hasExitConditions ? (phase.nextPhase ?? null) : null,
        way_out: describeWayOut(workflow, phase),
      })),
    };
  }

  function unknownWorkflow(name: string, root: string | null) {
    const available = [...new Set(catalog.list(root).workflows.map((w) => w.workflow.name))];
    return gobbyError(
      'GOBBY_ERR_WORKFLOW_NOT_FOUND',
      `no workflow named \`${name}\` in ${root ? `${root}/.gobby/workflows, ` : ''}the user tier or the built-in templates` +
        (available.length > 0 ? ` (available: ${available.join(', ')})` : ''),
    );
  }

  return { status, setProjectWorkflow, clearProjectWorkflow, changePhase, reset, setDisabled, listWorkflows, showWorkflow };
}

export type ControlService = ReturnType<typeof createControlService>;

function summarizeWorkflow(workflow: CompiledWorkflow) {
  return {
    name: workflow.name,
    description: workflow.description ?? null,
    tier: workflow.source.tier,
    file: workflow.source.file,
    hash: workflow.hash,
    phase_names: workflow.phases.map((phase) => phase.name),
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
