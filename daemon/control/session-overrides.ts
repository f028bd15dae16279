// The human overrides of a session's workflow: phase, reset, disable and enable. Each one
// plans its change; `runOverride` does the rest the same way for all of them, in one
// transaction: select the session, require its workflow, apply the plan, save, audit the
// override with who and why, then the effects (phase entries, approvals) it caused.
import { movePhase, reachablePhases, type CompiledWorkflow, type Effect, type WorkflowState } from '../../workflows/index.js';
import { gobbyError } from '../errors.js';
import type { EffectRunner } from '../effects/effect-runner.js';
import type { SessionWorkflow, SessionWorkflows } from '../session-workflows.js';
import type { SessionRow } from '../store/sessions-repository.js';
import type { Store } from '../store/store.js';
import type { WorkflowCatalog } from '../workflow-catalog.js';
import { invalidWorkflow, type ControlQueries, type SessionSelector } from './control-queries.js';
import { requireReason } from './require-reason.js';

interface SessionOverridesDeps {
  readonly store: Store;
  readonly catalog: WorkflowCatalog;
  readonly sessionWorkflows: SessionWorkflows;
  readonly effects: EffectRunner;
  readonly queries: ControlQueries;
  readonly clock: () => number;
}

export interface OverrideInput extends SessionSelector {
  readonly reason?: string | undefined;
  readonly actor: string;
  /** What the daemon verified about who ran it (user, pid, tty), for the audit row. */
  readonly detail?: Readonly<Record<string, unknown>> | undefined;
}

/** The session an override applies to, as it is before the override. */
interface Current extends SessionWorkflow {
  readonly session: SessionRow;
  readonly now: number;
}

interface OverridePlan<R> {
  readonly event: 'override:phase' | 'override:reset' | 'override:disable' | 'override:enable';
  /**
   * The next state of the pinned workflow, a fresh start of a (re)loaded definition, or
   * nothing to do (the session is already where the override would put it): then nothing is
   * saved or audited, and the reply says so.
   */
  readonly change:
    | { readonly save: WorkflowState; readonly effects: readonly Effect[] }
    | { readonly restart: CompiledWorkflow }
    | { readonly nothing: true };
  readonly because: string;
  readonly reason: string;
  readonly reply: (after: SessionWorkflow) => R;
}

export function createSessionOverrides(deps: SessionOverridesDeps) {
  const { store, catalog, sessionWorkflows, queries, clock } = deps;

  function runOverride<R>(input: OverrideInput, plan: (current: Current) => OverridePlan<R>): R {
    const now = clock();
    return deps.effects.commitThenRun(() => {
      const session = queries.selectSession(input);
      const current = { ...queries.requireWorkflow(session.id), session, now };
      const planned = plan(current);
      if ('nothing' in planned.change) return { result: planned.reply(current), effects: [] };
      let after: SessionWorkflow;
      let effects: readonly Effect[];
      if ('restart' in planned.change) {
        const { restart } = planned.change;
        const started = sessionWorkflows.start(session.id, restart, now);
        // It just loaded from disk: the version new sessions fall back on if the file breaks or goes.
        store.lastGood.record(session.projectId, restart.name, restart.source, restart.hash, now);
        after = started;
        effects = started.effects;
      } else {
        sessionWorkflows.save(session.id, planned.change.save, now);
        after = { workflow: current.workflow, state: planned.change.save };
        effects = planned.change.effects;
      }
      store.audit.append({
        at: now,
        sessionId: session.id,
        event: planned.event,
        decision: 'none',
        workflow: after.workflow.name,
        phase: current.state.phase,
        because: planned.because,
        reason: planned.reason,
        actor: input.actor,
        ...(input.detail === undefined ? {} : { detail: input.detail }),
      });
      return {
        result: planned.reply(after),
        effects: effects.map((effect) => ({ effect, sessionId: session.id, workflow: after.workflow.name, actor: input.actor, at: now })),
      };
    }).result;
  }

  function changePhase(input: OverrideInput & { phase: string; force: boolean }) {
    return runOverride(input, ({ workflow, state, session, now }) => {
      if (!workflow.phase(input.phase)) {
        throw gobbyError(
          'GOBBY_ERR_PHASE_NOT_FOUND',
          `workflow ${workflow.name} has no phase \`${input.phase}\` (phases: ${workflow.phases.map((p) => p.name).join(', ')})`,
        );
      }
      // Asking for the phase the session is in is not a move the definition refuses: nothing
      // to do, and the answer says so (exit 0). `--force` still re-enters the phase.
      if (!input.force && state.phase === input.phase) {
        return {
          event: 'override:phase',
          change: { nothing: true },
          because: `already in ${state.phase}`,
          reason: '',
          reply: () => ({ session_id: session.id, workflow: workflow.name, from: state.phase, to: input.phase, forced: false, changed: false, reason: '' }),
        };
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
      return {
        event: 'override:phase',
        change: { save: moved.state, effects: moved.effects },
        because: `${input.force ? 'forced' : 'requested'} ${state.phase} → ${input.phase}`,
        reason,
        reply: () => ({ session_id: session.id, workflow: workflow.name, from: state.phase, to: input.phase, forced: input.force, changed: true, reason }),
      };
    });
  }

  function reset(input: OverrideInput) {
    return runOverride(input, ({ workflow: pinned, state, session }) => {
      const reason = requireReason(input.reason, 'reset');
      // Reset reloads the definition from disk: this is how an edited workflow reaches a
      // running session (a session otherwise keeps the definition it started with).
      const root = store.projects.get(session.projectId)?.root ?? null;
      const found = catalog.lookup(pinned.name, root, true);
      if (found.problem) throw invalidWorkflow(pinned.name, found.problem);
      const fresh = found.workflow;
      if (!fresh) throw queries.unknownWorkflow(pinned.name, root);
      return {
        event: 'override:reset',
        change: { restart: fresh },
        because: `reset from ${state.phase} (definition ${pinned.hash} → ${fresh.hash})`,
        reason,
        reply: (after) => ({
          session_id: session.id,
          workflow: fresh.name,
          phase: after.state.phase,
          previous_phase: state.phase,
          definition_hash: fresh.hash,
        }),
      };
    });
  }

  /** `forMs` (from `disable --for`) makes enforcement come back by itself at now + forMs. */
  function setDisabled(input: OverrideInput & { disabled: boolean; forMs?: number | undefined }) {
    return runOverride(input, ({ workflow, state, session, now }) => {
      // `enable` on a session whose enforcement is on (or whose `disable --for` ran out) changes nothing.
      const isOff = state.disabled !== null && (state.disabled.until === undefined || state.disabled.until === null || now < state.disabled.until);
      if (!input.disabled && !isOff) {
        return {
          event: 'override:enable',
          change: { nothing: true },
          because: 'enforcement was not disabled',
          reason: '',
          reply: () => ({ session_id: session.id, workflow: workflow.name, phase: state.phase, disabled: false, changed: false, reason: '', until: null }),
        };
      }
      const reason = input.disabled ? requireReason(input.reason, 'disable') : input.reason?.trim() || 'enabled by the user';
      const until = input.disabled && input.forMs !== undefined ? now + input.forMs : null;
      return {
        event: input.disabled ? 'override:disable' : 'override:enable',
        change: { save: { ...state, disabled: input.disabled ? { reason, at: now, until } : null }, effects: [] },
        because: input.disabled
          ? `enforcement disabled${until === null ? '' : ` until ${new Date(until).toISOString()}`}`
          : 'enforcement enabled',
        reason,
        reply: () => ({
          session_id: session.id,
          workflow: workflow.name,
          phase: state.phase,
          disabled: input.disabled,
          changed: true,
          reason,
          until: until === null ? null : new Date(until).toISOString(),
        }),
      };
    });
  }

  return { changePhase, reset, setDisabled };
}
