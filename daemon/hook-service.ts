// One hook event = one transaction: load the session's state and pinned definition,
// evaluate (pure), save the state, append the audit row. Nothing slow happens here.
import { renderHookAnswer, type HookAnswer } from '../hooks/render.js';
import type { HookPayload, KnownHookEvent } from '../hooks/payloads.js';
import { evaluateEvent, findOverrideCommand, type Decision, type EngineEvent, type Effect } from '../workflows/index.js';
import { auditEffects, type SessionWorkflows } from './session-workflows.js';
import type { Store } from './store/store.js';

export interface HookServiceDeps {
  readonly store: Store;
  readonly sessionWorkflows: SessionWorkflows;
  readonly resolveProjectRoot: (cwd: string) => string;
  readonly clock: () => number;
  /** Files the agent must not read (the control token): reading one would let it forge overrides. */
  readonly protectedPaths: readonly string[];
}

const DETAIL_TEXT_LIMIT = 300;

export function createHookService(deps: HookServiceDeps) {
  const { store, sessionWorkflows, clock } = deps;

  function handle(event: KnownHookEvent, payload: HookPayload & Record<string, unknown>): HookAnswer {
    const now = clock();
    const root = deps.resolveProjectRoot(payload.cwd);
    const engineEvent = toEngineEvent(event, payload);
    const decision = store.transaction((): Decision | null => {
      const project = store.projects.ensure(root, now);
      store.sessions.touch({
        id: payload.session_id,
        projectId: project.id,
        cwd: payload.cwd,
        transcriptPath: payload.transcript_path ?? null,
        now,
      });
      const session = sessionWorkflows.loadOrStart(payload.session_id, project, now);
      const running = session && !('missing' in session) ? session : undefined;
      const audit = { at: now, sessionId: payload.session_id, actor: 'claude-code' };
      if (running) auditEffects(store, { ...audit, workflow: running.workflow.name, effects: running.effects });

      let outcome: { decision: Decision; effects: readonly Effect[] } | null = null;
      const guardReason = event === 'PreToolUse' ? findGuardViolation(engineEvent, deps.protectedPaths) : null;
      if (guardReason) {
        outcome = { decision: { kind: 'deny', reason: guardReason, because: 'guard: human-only override' }, effects: [] };
      } else if (running) {
        const evaluation = evaluateEvent(running.workflow, running.state, engineEvent, { now });
        if (evaluation.state !== running.state) sessionWorkflows.save(payload.session_id, evaluation.state, now);
        outcome = evaluation;
      }
      if (event === 'SessionEnd') store.sessions.end(payload.session_id, stringField(payload, 'reason') ?? 'other', now);

      store.audit.append({
        ...audit,
        event,
        toolName: engineEvent.toolName ?? null,
        toolUseId: stringField(payload, 'tool_use_id') ?? null,
        decision: !outcome ? 'none' : outcome.decision.kind === 'deny' ? 'deny' : outcome.decision.context ? 'context' : 'allow',
        workflow: running?.workflow.name ?? null,
        phase: running?.state.phase ?? null,
        because: outcome?.decision.because ?? describeNoWorkflow(session),
        reason: !outcome ? null : outcome.decision.kind === 'deny' ? outcome.decision.reason : (outcome.decision.context ?? null),
        detail: summarizeEvent(engineEvent, payload),
      });
      if (running && outcome) auditEffects(store, { ...audit, workflow: running.workflow.name, effects: outcome.effects });
      return outcome?.decision ?? null;
    });
    return renderHookAnswer(event, decision);
  }

  return { handle };
}

export type HookService = ReturnType<typeof createHookService>;

function toEngineEvent(event: KnownHookEvent, payload: HookPayload & Record<string, unknown>): EngineEvent {
  const toolInput = payload.tool_input;
  return {
    name: event,
    toolName: stringField(payload, 'tool_name'),
    toolInput: toolInput && typeof toolInput === 'object' ? (toolInput as Record<string, unknown>) : undefined,
    prompt: stringField(payload, 'prompt'),
    source: stringField(payload, 'source'),
    error: stringField(payload, 'error'),
    lastAssistantMessage: stringField(payload, 'last_assistant_message'),
  };
}

function findGuardViolation(event: EngineEvent, protectedPaths: readonly string[]): string | null {
  const command = typeof event.toolInput?.command === 'string' ? event.toolInput.command : undefined;
  if (command) {
    const reason = findOverrideCommand(command);
    if (reason) return reason;
  }
  const touched = [command, event.toolInput?.file_path, event.toolInput?.path].filter((v): v is string => typeof v === 'string');
  const secret = protectedPaths.find((path) => touched.some((text) => mentionsPath(text, path)));
  return secret ? `gobby: ${secret} holds gobby's control token; the agent may not read or change it.` : null;
}

/** The full path, or its last two segments (`~/.gobby/token`, `$GOBBY_HOME/../.gobby/token`). */
function mentionsPath(text: string, path: string): boolean {
  const tail = path.split(/[\\/]/).slice(-2).join('/');
  return text.includes(path) || text.includes(tail);
}

function describeNoWorkflow(session: { missing: string } | object | undefined): string {
  if (session && 'missing' in session) {
    return `project workflow \`${session.missing}\` was not found in any tier; nothing enforced`;
  }
  return 'no workflow for this session';
}

/** What the audit row keeps of the event: enough to read the log, never whole file contents. */
function summarizeEvent(event: EngineEvent, payload: Record<string, unknown>): Record<string, unknown> | undefined {
  const input = event.toolInput ?? {};
  const summary: Record<string, unknown> = {};
  for (const key of ['command', 'file_path', 'notebook_path', 'path', 'pattern', 'url', 'description', 'subagent_type']) {
    if (typeof input[key] === 'string') summary[key] = truncate(input[key]);
  }
  if (event.prompt !== undefined) summary.prompt = truncate(event.prompt);
  if (event.source !== undefined) summary.source = event.source;
  if (event.error !== undefined) summary.error = truncate(event.error);
  for (const key of ['agent_id', 'agent_type', 'permission_mode', 'stop_hook_active']) {
    if (payload[key] !== undefined) summary[key] = payload[key];
  }
  return Object.keys(summary).length > 0 ? summary : undefined;
}

function truncate(text: string): string {
  return text.length > DETAIL_TEXT_LIMIT ? `${text.slice(0, DETAIL_TEXT_LIMIT)}…` : text;
}

function stringField(payload: Record<string, unknown>, key: string): string | undefined {
  const value = payload[key];
  return typeof value === 'string' ? value : undefined;
}
