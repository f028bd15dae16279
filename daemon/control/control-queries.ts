// The control API's reads: which session a command means, its status, the workflows a
// project can see, and the project's own audit rows. Nothing here writes.
import { gobbyError } from '../errors.js';
import { describeProblem, type SelectedWorkflows } from '../selected-workflow.js';
import type { SessionWorkflow, SessionWorkflows } from '../session-workflows.js';
import type { SessionRow } from '../store/sessions-repository.js';
import type { Store } from '../store/store.js';
import type { DefinitionProblem, WorkflowCatalog } from '../workflow-catalog.js';
import { buildStatusLineView } from './statusline-view.js';
import { buildStatusView, viewAuditRow, viewProjectEvent, type WorkflowProblemView } from './status-view.js';
import { describeWorkflow, summarizeWorkflow } from './workflow-view.js';

interface ControlQueriesDeps {
  readonly store: Store;
  readonly catalog: WorkflowCatalog;
  readonly selected: SelectedWorkflows;
  readonly sessionWorkflows: SessionWorkflows;
  readonly resolveProjectRoot: (cwd: string) => string;
  readonly clock: () => number;
}

/** The session a command names with --session, or else the project's most recently active one. */
export interface SessionSelector {
  readonly sessionId?: string | undefined;
  readonly cwd: string;
}

const RECENT_DECISIONS = 10;
const RECENT_PROJECT_EVENTS = 10;

export function createControlQueries(deps: ControlQueriesDeps) {
  const { store, catalog, selected, sessionWorkflows } = deps;

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

  function requireWorkflow(sessionId: string): SessionWorkflow {
    const loaded = sessionWorkflows.load(sessionId);
    if (!loaded) {
      throw gobbyError(
        'GOBBY_ERR_SESSION_NO_WORKFLOW',
        `session ${sessionId} runs no workflow. Choose one with \`gobby workflow set <name>\`.`,
      );
    }
    return loaded;
  }

  function status(selector: SessionSelector) {
    const now = deps.clock();
    const session = selectSession(selector);
    const project = store.projects.get(session.projectId);
    const running = sessionWorkflows.load(session.id);
    return buildStatusView({
      now,
      session,
      project,
      decisionCounts: store.audit.decisionCounts(session.id),
      recentDecisions: store.audit.recent(session.id, RECENT_DECISIONS),
      running,
      workflowProblem: project ? workflowProblem(project, running, session.failureMode ?? 'strict') : null,
    });
  }

  /**
   * Whether the file behind the session's workflow (or the project's, for a session that runs
   * none yet) loads, re-read now; if not, its errors and what gobby runs meanwhile.
   */
  function workflowProblem(
    project: { id: number; root: string; workflow: string | null },
    running: SessionWorkflow | undefined,
    mode: 'strict' | 'lenient',
  ): WorkflowProblemView | null {
    const name = running?.workflow.name ?? project.workflow;
    if (!name) return null;
    const selection = selected.resolve(project, name, true);
    if (selection.kind === 'ok' || (running && selection.kind === 'missing')) return null;
    const nothing =
      mode === 'strict'
        ? 'nothing can run: tools are refused (strict mode) until the file loads'
        : 'nothing can run: tools run WITHOUT workflow enforcement (lenient mode) until the file loads';
    const errors = selection.kind === 'missing' ? [] : selection.problem.errors;
    if (running) {
      const next = selection.kind === 'last-good' ? `the last good version (definition ${selection.workflow.hash})` : `no version of it, so ${nothing}`;
      return {
        workflow: name,
        errors,
        consequence: `this session keeps the version it started with (definition ${running.workflow.hash}); new sessions get ${next}`,
      };
    }
    if (selection.kind === 'last-good') {
      return {
        workflow: name,
        errors,
        consequence: `the session starts on the last good version (definition ${selection.workflow.hash}, ${selection.workflow.source.file}) at its next event`,
      };
    }
    const why = selection.kind === 'missing' ? 'no tier defines it and no version of it ever loaded' : 'no version of it ever loaded';
    return { workflow: name, errors, consequence: `${why}; ${nothing}` };
  }

  /**
   * `gobby statusline`: the session Claude Code names, else the project's latest. It never
   * fails on the session's own state (the status line must always show something): a
   * workflow that cannot be read becomes a reason in the answer.
   */
  function statusLine(selector: SessionSelector) {
    const root = deps.resolveProjectRoot(selector.cwd);
    const projectOfCwd = store.projects.find(root);
    const session = selector.sessionId
      ? store.sessions.get(selector.sessionId)
      : projectOfCwd && store.sessions.latestInProject(projectOfCwd.id);
    const project = session ? store.projects.get(session.projectId) : projectOfCwd;
    let running: Parameters<typeof buildStatusLineView>[0]['running'];
    if (session) {
      try {
        running = sessionWorkflows.load(session.id);
      } catch (error) {
        running = { unreadable: (error as Error).message };
      }
    }
    const workflow = running && !('unreadable' in running) ? running.workflow.name : (project?.workflow ?? null);
    return buildStatusLineView({
      now: deps.clock(),
      projectRoot: project?.root ?? root,
      projectWorkflow: project?.workflow ?? null,
      sessionId: session?.id ?? selector.sessionId ?? null,
      sessionKnown: session !== undefined,
      running,
      workflowProblem: project && workflow ? brokenFile(project, workflow) : null,
    });
  }

  /**
   * The first load error of `name`'s file, from the catalog as its watchers last saw it: the
   * status line is asked after every message, so nothing is re-read here.
   */
  function brokenFile(project: { id: number; root: string }, name: string): { workflow: string; error: string } | null {
    const selection = selected.resolve(project, name);
    if (selection.kind !== 'last-good' && selection.kind !== 'broken') return null;
    return { workflow: name, error: describeProblem(selection.problem) };
  }

  /**
   * `gobby workflow audit`: one session's rows (`--session`), or else the project's and all
   * its sessions', newest first; `tamperOnly` keeps the `tamper:*` rows.
   */
  function auditRows(input: { cwd: string; sessionId?: string | undefined; tamperOnly: boolean; limit: number }) {
    const root = deps.resolveProjectRoot(input.cwd);
    if (input.sessionId && !store.sessions.get(input.sessionId)) {
      throw gobbyError('GOBBY_ERR_SESSION_NOT_FOUND', `no session ${input.sessionId} has reported to gobby`);
    }
    const project = input.sessionId ? undefined : store.projects.find(root);
    const rows =
      input.sessionId || project
        ? store.audit.list({ sessionId: input.sessionId ?? null, projectId: project?.id ?? null, tamperOnly: input.tamperOnly, limit: input.limit })
        : [];
    return {
      project: root,
      session_id: input.sessionId ?? null,
      tamper_only: input.tamperOnly,
      rows: rows.map(viewAuditRow),
    };
  }

  function listWorkflows(cwd: string) {
    const root = deps.resolveProjectRoot(cwd);
    const listing = catalog.list(root);
    const project = store.projects.find(root);
    return {
      project: root,
      project_workflow: project?.workflow ?? null,
      project_workflow_problem: project?.workflow ? selectionProblem(project, project.workflow) : null,
      workflows: listing.workflows.map(({ workflow, shadowedBy }) => ({
        ...summarizeWorkflow(workflow),
        shadowed_by: shadowedBy ?? null,
      })),
      errors: listing.errors,
      // Who chose or cleared the project's workflow, and why: newest first.
      project_events: project ? store.audit.recentForProject(project.id, RECENT_PROJECT_EVENTS).map(viewProjectEvent) : [],
    };
  }

  /** The project's chosen workflow, re-read now: null when its file loads, else what is wrong and what sessions start on. */
  function selectionProblem(project: { id: number; root: string }, name: string): string | null {
    const selection = selected.resolve(project, name, true);
    switch (selection.kind) {
      case 'ok':
        return null;
      case 'last-good':
        return (
          `the project's workflow \`${name}\`: ${describeProblem(selection.problem)}; new sessions start on its last good version ` +
          `(definition ${selection.workflow.hash}, ${selection.workflow.source.file})`
        );
      case 'broken':
        return `the project's workflow \`${name}\`: ${describeProblem(selection.problem)}; no version of it ever loaded, so sessions run without it (strict mode refuses their tools)`;
      case 'missing':
        return `the project's workflow \`${name}\` is defined in no tier and no version of it ever loaded, so sessions run without it (strict mode refuses their tools)`;
    }
  }

  /** One definition; a file that does not load shows its errors above the last version that loaded. */
  function showWorkflow(cwd: string, name: string) {
    const root = deps.resolveProjectRoot(cwd);
    const project = store.projects.find(root);
    const found = project ? selected.resolve(project, name, true) : fromCatalog(catalog.lookup(name, root, true));
    if (found.kind === 'missing') throw unknownWorkflow(name, root);
    if (found.kind === 'broken') throw invalidWorkflow(name, found.problem);
    return { ...describeWorkflow(found.workflow), load_errors: found.kind === 'last-good' ? found.problem.errors : [] };
  }

  function unknownWorkflow(name: string, root: string | null) {
    const listing = catalog.list(root);
    const available = [...new Set(listing.workflows.map((w) => w.workflow.name))];
    return gobbyError(
      'GOBBY_ERR_WORKFLOW_NOT_FOUND',
      `no workflow named \`${name}\` in ${root ? `${root}/.gobby/workflows, ` : ''}the user tier or the built-in templates` +
        (available.length > 0 ? ` (available: ${available.join(', ')})` : '') +
        (listing.errors.length > 0 ? `; ${new Set(listing.errors.map((e) => e.file)).size} file(s) do not load, see \`gobby workflow list\`` : ''),
    );
  }

  return { selectSession, requireWorkflow, status, statusLine, auditRows, listWorkflows, showWorkflow, unknownWorkflow, invalidWorkflow };
}

export type ControlQueries = ReturnType<typeof createControlQueries>;

/** A file that does not load, as an error that names every place and problem. */
export function invalidWorkflow(name: string, problem: DefinitionProblem) {
  return gobbyError(
    'GOBBY_ERR_WORKFLOW_INVALID',
    `workflow \`${name}\` does not load: ${problem.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`).join('; ')}. ` +
      `Fix the file; \`gobby workflow validate ${problem.file}\` checks it.`,
  );
}

/** A catalog lookup as a selection, for a project the database has no row (and so no last good version) for. */
function fromCatalog(found: ReturnType<WorkflowCatalog['lookup']>) {
  if (found.workflow) return found.problem ? { kind: 'last-good' as const, workflow: found.workflow, problem: found.problem } : { kind: 'ok' as const, workflow: found.workflow };
  return found.problem ? { kind: 'broken' as const, problem: found.problem } : { kind: 'missing' as const };
}
