// One hook event = one transaction: load the session's state and pinned definition,
// evaluate (pure), save the state, append the audit row, stage the effects; after the
// commit the effects run. The service speaks engine events and decisions only: Claude
// Code's JSON stays in hooks/, so any other boundary (MCP, a step runner) can call it.
import {
  addNotice,
  analyzeShellCommand,
  shellCommandOf,
  evaluateEvent,
  evaluateGuardsOnly,
  isToolEvent,
  type CompiledWorkflow,
  type Decision,
  type Effect,
  type EngineEvent,
  type EventOrigin,
  type ProtectedGround,
} from '../workflows/index.js';
import type { EffectEnvelope, EffectRunner } from './effects/effect-runner.js';
import type { HookSettingsWatch } from './hook-settings-watch.js';
import type { Provenance } from './provenance/event-provenance.js';
import { groundOnDisk } from './ground-on-disk.js';
import { projectScriptsOf } from './project-scripts.js';
import { realPathsOf, realPathsOfShell } from './real-paths.js';
import { describeProblem, type Selection } from './selected-workflow.js';
import type { SessionWorkflows, UnavailableWorkflow } from './session-workflows.js';
import type { Store } from './store/store.js';
import type { WorkflowCatalog } from './workflow-catalog.js';
import { truncate } from '../hooks/truncate.js';

export interface HookServiceDeps {
  readonly store: Store;
  /** To tell a running session that its workflow's file no longer loads. */
  readonly catalog: WorkflowCatalog;
  readonly sessionWorkflows: SessionWorkflows;
  readonly effects: EffectRunner;
  readonly resolveProjectRoot: (cwd: string) => string;
  readonly clock: () => number;
  /** What gobby's own guards protect in a project (the token, gobby's folders, the hook settings, the daemon): handed to the engine. */
  readonly groundFor: (projectRoot: string) => ProtectedGround;
  /** The user's home, where `~` in the agent's shell commands points. */
  readonly home: string;
  /** gobby's home, where `$GOBBY_HOME` in the agent's shell commands points. */
  readonly gobbyHome: string;
  /** What the session's settings files hold of gobby's hooks, to judge a ConfigChange. */
  readonly hookSettings: HookSettingsWatch;
}

/** What the service decided, and the effects that ran after the commit. */
export interface HookOutcome {
  /** null: no workflow and no guard had anything to say; the event passes untouched. */
  readonly decision: Decision | null;
  readonly effects: readonly EffectEnvelope[];
}

const HOOK_ACTOR = 'claude-code';
const DETAIL_TEXT_LIMIT = 300;

export function createHookService(deps: HookServiceDeps) {
  const { store, sessionWorkflows, clock } = deps;

  /** `sender` is what the boundary found out about who sent the event (see daemon/provenance/). */
  function handle(origin: EventOrigin, event: EngineEvent, sender?: Provenance): HookOutcome {
    const now = clock();
    const root = deps.resolveProjectRoot(origin.cwd);
    // Files are read here, before the transaction: the engine only sees what they held. A
    // ConfigChange is judged against what was read before it (its accept() records the rest).
    if (event.name !== 'ConfigChange') deps.hookSettings.observe(origin.sessionId, origin.cwd, root);
    const settings = event.name === 'ConfigChange' && event.filePath !== undefined ? deps.hookSettings.judge(origin.sessionId, origin.cwd, root, event.filePath) : undefined;
    const shell = { cwd: origin.cwd, home: deps.home, projectRoot: root, gobbyHome: deps.gobbyHome };
    let realPaths = event.name === 'PreToolUse' ? realPathsOf(event.toolName, event.toolInput, origin.cwd, deps.home) : undefined;
    // A Bash command's paths too (or an MCP tool's that runs one): analysed once here, and the engine is handed that analysis.
    const command = event.name === 'PreToolUse' ? shellCommandOf(event.toolName, event.toolInput) : undefined;
    const bashAnalysis = command !== undefined ? analyzeShellCommand(command, shell) : undefined;
    // The package.json scripts it runs (`npm run lint`), judged by what they do; their paths too.
    const projectScripts = bashAnalysis ? projectScriptsOf(bashAnalysis, shell) : undefined;
    if (bashAnalysis) realPaths = realPathsOfShell(bashAnalysis, realPaths);
    for (const script of projectScripts?.values() ?? []) for (const step of script.steps) realPaths = realPathsOfShell(step.analysis, realPaths);
    const ctx = {
      now,
      ground: groundOnDisk(deps.groundFor(root), bashAnalysis),
      shell,
      settingsChange: settings?.change,
      realPaths,
      bashAnalysis,
      projectScripts,
    };
    const { result: decision, effects } = deps.effects.commitThenRun(() => {
      const project = store.projects.ensure(root, now);
      store.sessions.touch({ id: origin.sessionId, projectId: project.id, cwd: origin.cwd, transcriptPath: origin.transcriptPath ?? null, now });
      if (sender?.kind === 'claude-code' && sender.register) store.sessionProcesses.register(origin.sessionId, sender.register, now);
      if (origin.failureMode) store.sessions.setFailureMode(origin.sessionId, origin.failureMode);
      const session = sessionWorkflows.loadOrStart(origin.sessionId, project, now);
      const running = session && !('unavailable' in session) ? session : undefined;
      const unavailable = session && 'unavailable' in session ? session.unavailable : undefined;
      const envelope = (effect: Effect): EffectEnvelope => ({
        effect,
        sessionId: origin.sessionId,
        workflow: running?.workflow.name ?? null,
        actor: HOOK_ACTOR,
        at: now,
      });
      const envelopes = running ? running.effects.map(envelope) : [];

      let decision: Decision | null;
      if (running) {
        const evaluation = evaluateEvent(running.workflow, running.state, event, { ...ctx, toolCallSeen: toolCallSeen(origin.sessionId, event) });
        if (evaluation.state !== running.state) sessionWorkflows.save(origin.sessionId, evaluation.state, now);
        envelopes.push(...evaluation.effects.map(envelope));
        decision = evaluation.decision;
      } else {
        const guarded = evaluateGuardsOnly(event, ctx);
        decision = guarded?.decision ?? null;
        if (guarded) envelopes.push(...guarded.effects.map(envelope));
      }
      // Never silently off: a workflow file that does not load is told to the user, and with
      // no good version to run a strict session is refused its tools.
      if (unavailable) {
        const mode = origin.failureMode ?? store.sessions.get(origin.sessionId)?.failureMode ?? 'strict';
        decision = decideWithoutWorkflow(unavailable, mode, project.root, event, decision);
      } else if (running && tellsTheUser(event)) {
        const notice = brokenFileNotice(running, project.root);
        if (notice) decision = addNotice(decision, notice, `workflow ${running.workflow.name}: its file does not load`);
      }
      if (event.name === 'SessionStart') decision = withOutdatedInstallNotice(decision, deps.hookSettings.missingEvents(origin.sessionId));
      if (event.name === 'SessionEnd') store.sessions.end(origin.sessionId, event.reason, now);
      if (settings && decision?.kind !== 'deny') settings.accept();

      store.audit.append({
        at: now,
        sessionId: origin.sessionId,
        event: event.name,
        toolName: isToolEvent(event) ? event.toolName : null,
        toolUseId: isToolEvent(event) ? (event.toolUseId ?? null) : null,
        decision: auditDecisionOf(decision),
        workflow: running?.workflow.name ?? null,
        phase: running?.state.phase ?? null,
        because: decision?.because ?? 'no workflow for this session',
        reason: !decision ? null : decision.kind === 'deny' ? decision.reason : (decision.context ?? null),
        actor: HOOK_ACTOR,
        detail: withUnregisteredRunner(summarizeEvent(event, origin), sender),
      });
      return { result: decision, effects: envelopes };
    });
    if (event.name === 'SessionEnd') deps.hookSettings.forget(origin.sessionId);
    return { decision, effects };
  }

  /**
   * For a tool result: whether gobby allowed the call before it ran (its PreToolUse, by
   * tool_use_id, in the audit log). A result without a tool_use_id cannot be matched: not seen.
   */
  function toolCallSeen(sessionId: string, event: EngineEvent): boolean | undefined {
    if (event.name !== 'PostToolUse' && event.name !== 'PostToolUseFailure') return undefined;
    return event.toolUseId !== undefined && store.audit.allowedToolCall(sessionId, event.toolUseId);
  }

  /** What to tell the user of a session whose workflow's file (the one new sessions would load) does not load now. */
  function brokenFileNotice(running: { workflow: CompiledWorkflow; selection?: Selection | undefined }, projectRoot: string): string | undefined {
    const { name } = running.workflow;
    if (running.selection?.kind === 'last-good') {
      return (
        `gobby: the workflow file does not load: ${describeProblem(running.selection.problem)}. This session runs the last good ` +
        `version of \`${name}\` (${running.workflow.source.file}, definition ${running.workflow.hash}). Fix the file; \`gobby workflow validate\` checks it.`
      );
    }
    const problem = deps.catalog.lookup(name, projectRoot).problem;
    if (!problem) return undefined;
    return (
      `gobby: the workflow file does not load: ${describeProblem(problem)}. This session keeps the version of \`${name}\` it ` +
      'started with, and new sessions get the last version that loaded. Fix the file; `gobby workflow validate` checks it.'
    );
  }

  /**
   * A forged event changes nothing; it is recorded as a tamper attempt against the session
   * it names, with the process that sent it.
   */
  function refuseForged(origin: EventOrigin, event: EngineEvent, sender: Extract<Provenance, { kind: 'forged' }>): void {
    const now = clock();
    store.transaction(() => {
      store.audit.append({
        at: now,
        sessionId: origin.sessionId,
        event: `tamper:forged-${event.name}`,
        toolName: isToolEvent(event) ? event.toolName : null,
        decision: 'deny',
        because: `forged hook event: ${sender.why}`,
        actor: sender.sender ? `process:${sender.sender.comm}[${sender.sender.pid}]` : 'process:unknown',
        detail: summarizeEvent(event, origin),
      });
      store.workflowStates.countBlock(origin.sessionId, now);
    });
  }

  return { handle, refuseForged };
}

export type HookService = ReturnType<typeof createHookService>;

/** An install by an older gobby lacks hooks this one relies on (ConfigChange, for one): the user is told how to update it. */
function withOutdatedInstallNotice(decision: Decision | null, missing: readonly string[]): Decision | null {
  if (missing.length === 0) return decision;
  return addNotice(
    decision,
    `gobby: the hooks installed in this project's Claude Code settings come from an older gobby and lack ${missing.join(', ')}. ` +
      'Run `gobby install` again (with the same flags, e.g. `--shared`) to update them.',
    `install lacks hooks: ${missing.join(', ')}`,
  );
}

/** A SessionStart whose hook runner was left unregistered says so in its audit row: which process, and why. */
function withUnregisteredRunner(detail: Record<string, unknown> | undefined, sender: Provenance | undefined): Record<string, unknown> | undefined {
  if (sender?.kind !== 'unverified' || !sender.notRegistered) return detail;
  const { pid, comm } = sender.notRegistered;
  return { ...detail, hook_runner_not_registered: { pid, comm, why: sender.why } };
}

/** The audit row's decision column for what the service decided. */
function auditDecisionOf(decision: Decision | null): 'allow' | 'deny' | 'context' | 'none' | 'ran-unchecked' {
  if (!decision) return 'none';
  if (decision.kind === 'deny') return 'deny';
  if (decision.ranUnchecked) return 'ran-unchecked';
  return decision.context ? 'context' : 'allow';
}

/** The events on which the user hears about a workflow file that does not load: once per session and per prompt. */
function tellsTheUser(event: EngineEvent): boolean {
  return event.name === 'SessionStart' || event.name === 'UserPromptSubmit';
}

/**
 * The project selected a workflow that cannot run: its file does not load and no version of
 * it ever did, or no tier has it. Strict sessions are refused their tools (gobby's guards
 * still answered first); lenient ones run unchecked, and the user hears of it either way.
 */
function decideWithoutWorkflow(
  unavailable: UnavailableWorkflow,
  mode: 'strict' | 'lenient',
  projectRoot: string,
  event: EngineEvent,
  decision: Decision | null,
): Decision | null {
  const { workflow, selection } = unavailable;
  const what =
    selection.kind === 'broken'
      ? `the project's workflow \`${workflow}\` does not load: ${describeProblem(selection.problem)}`
      : `the project's workflow \`${workflow}\` is defined in no tier (${projectRoot}/.gobby/workflows, the user tier, the built-in templates)`;
  const fix =
    (selection.kind === 'broken' ? `Fix the file (\`gobby workflow validate ${selection.problem.file}\` checks it), or choose` : 'Choose') +
    ' another workflow with `gobby workflow set <name>`, or none with `gobby workflow clear --reason …`.';
  if (mode === 'strict') {
    const because = `no good version of workflow ${workflow}: strict mode refuses tools`;
    if (event.name === 'PreToolUse' && decision?.kind !== 'deny') {
      return {
        kind: 'deny',
        because,
        reason:
          `Workflow rule (${workflow}, no version loads): no tool may run, because ${what}. gobby runs in strict mode, so tools are refused until the ` +
          'workflow loads. Tell the user; the workflow file is theirs to fix.',
      };
    }
    return tellsTheUser(event) ? addNotice(decision, `gobby: ${what}. Strict mode: every tool is refused until it loads. ${fix}`, because) : decision;
  }
  const because = `no good version of workflow ${workflow}: lenient mode lets tools run unchecked`;
  return tellsTheUser(event)
    ? addNotice(decision, `gobby: ${what}. Lenient mode: tools run WITHOUT workflow enforcement until it loads. ${fix}`, because)
    : (decision ?? { kind: 'allow', because });
}

/** What the audit row keeps of the event: enough to read the log, never whole file contents. */
function summarizeEvent(event: EngineEvent, origin: EventOrigin): Record<string, unknown> | undefined {
  const summary: Record<string, unknown> = {};
  if (isToolEvent(event)) {
    for (const key of ['command', 'file_path', 'notebook_path', 'path', 'pattern', 'url', 'description', 'subagent_type']) {
      const value = event.toolInput[key];
      if (typeof value === 'string') summary[key] = truncate(value, DETAIL_TEXT_LIMIT);
    }
    if (event.agent) Object.assign(summary, describeAgent(event.agent));
  }
  switch (event.name) {
    case 'UserPromptSubmit':
      summary.prompt = truncate(event.prompt, DETAIL_TEXT_LIMIT);
      break;
    case 'SessionStart':
      summary.source = event.source;
      break;
    case 'ConfigChange':
      summary.source = event.source;
      if (event.filePath !== undefined) summary.file_path = truncate(event.filePath, DETAIL_TEXT_LIMIT);
      break;
    case 'PostToolUseFailure':
      summary.error = truncate(event.error, DETAIL_TEXT_LIMIT);
      break;
    case 'Stop':
      summary.stop_hook_active = event.stopHookActive;
      break;
    case 'SubagentStart':
      Object.assign(summary, describeAgent(event.agent));
      break;
    case 'SubagentStop':
      Object.assign(summary, describeAgent(event.agent), { stop_hook_active: event.stopHookActive });
      break;
    default:
      break;
  }
  if (origin.permissionMode !== undefined) summary.permission_mode = origin.permissionMode;
  return Object.keys(summary).length > 0 ? summary : undefined;
}

function describeAgent(agent: { id: string; type?: string | undefined }): Record<string, string> {
  return agent.type === undefined
    ? { agent_id: truncate(agent.id, DETAIL_TEXT_LIMIT) }
    : { agent_id: truncate(agent.id, DETAIL_TEXT_LIMIT), agent_type: truncate(agent.type, DETAIL_TEXT_LIMIT) };
}
