// An override the daemon refused because an agent's process sent it (daemon/provenance/
// override-origin.ts) is a tamper attempt: it is written to the audit log as
// `tamper:override`, on the session whose Claude Code the process was linked to, so
// `gobby workflow audit --tamper` shows it beside the session's other attempts.
import type { Store } from '../store/store.js';

interface OverrideRefusalsDeps {
  readonly store: Store;
  readonly resolveProjectRoot: (cwd: string) => string;
  readonly clock: () => number;
}

export interface RefusedOverride {
  /** The control endpoint that was asked (`changePhase`, `disable`, `shutdown`, …). */
  readonly endpoint: string;
  readonly cwd: string | undefined;
  /** The session of the Claude Code the sender was linked to, when it was. */
  readonly agentSessionId: string | undefined;
  /** `process:<comm>[<pid>]`, or `process:unknown`. */
  readonly actor: string;
  readonly because: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

export function createOverrideRefusals({ store, resolveProjectRoot, clock }: OverrideRefusalsDeps) {
  return {
    record(refused: RefusedOverride): void {
      const now = clock();
      const fields = {
        at: now,
        event: 'tamper:override',
        decision: 'deny' as const,
        because: refused.because,
        reason: null,
        actor: refused.actor,
        detail: { endpoint: refused.endpoint, ...refused.detail },
      };
      store.transaction(() => {
        const session = refused.agentSessionId ? store.sessions.get(refused.agentSessionId) : undefined;
        if (session) {
          const running = store.workflowStates.getPhase(session.id);
          store.audit.append({ ...fields, sessionId: session.id, workflow: running?.workflow ?? null, phase: running?.state.phase ?? null });
          store.workflowStates.countBlock(session.id, now);
          return;
        }
        // Not linked to a known session (a sender that could not be identified): the project
        // the request named keeps the row, or the project of the daemon's own cwd for a stop.
        const project = store.projects.ensure(resolveProjectRoot(refused.cwd ?? process.cwd()), now);
        store.audit.appendForProject({ ...fields, projectId: project.id });
      });
    },
  };
}
