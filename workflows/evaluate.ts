// The engine: (definition, state, event, context) → (state, decision, effects).
// Pure: no clock, no I/O. Time comes in as `ctx.now`; what should happen outside
// (audit rows for phase changes) goes out as effects.
import type { CompiledAction, CompiledPhase, CompiledStopRequirement, CompiledWorkflow } from './compile.js';
import { EVENT_FACTS_NAME, type ExpressionScope } from './expressions.js';
import {
  classifyApprovalReply,
  renderApprovalDeclined,
  renderPhaseContext,
  renderRuleDeniedReason,
  renderShellDeniedReason,
  renderStopBlockedReason,
  renderStopReleasedNotice,
  renderRanUncheckedReminder,
  renderToolDeniedReason,
  type StopReleaseReason,
} from './messages.js';
import {
  joinNotices,
  renderApprovalDeclinedNotice,
  renderApprovalNotTakenNotice,
  renderApprovalPendingNotice,
  renderDisabledNotice,
  renderEnforcementResumedNotice,
  renderPhaseChangedNotice,
  renderRanUncheckedNotice,
} from './notices.js';
import { INITIAL_STOP_GATE_STATE, type WorkflowState } from './state.js';
import { STOP_GATE_MAX_BLOCKS } from './definition-schema.js';
import { canonicalToolName } from './tool-names.js';
import { assertNever, isToolEvent, type EngineEvent, type ToolEvent } from './events.js';
import { checkProtectedGround, checkSettingsChange, NO_PROTECTED_GROUND, type GuardDenial, type HookSettingsChange, type ProtectedGround, type TamperKind } from './guards.js';
import { analyzeShellCommand, summarizeShellEffects, type ShellAnalysis, type ShellContext, type ShellEffectsSummary } from './shell/index.js';
import { judgeShellCommand, mcpToolChangesFiles, mcpToolRunsCode, type ProjectScript, type ShellPolicy } from './shell-policy.js';
import { shellCommandOf } from './tool-commands.js';
import { OTHER_FILE_TOOLS, phaseRefusesTool, toolListsPermit } from './phase-tools.js';

export interface EngineContext {
  /** Milliseconds since the epoch. */
  readonly now: number;
  /** What gobby's own guards protect; without it only the human-only commands are guarded. */
  readonly ground?: ProtectedGround | undefined;
  /** Where the event's Bash commands run (cwd, home, project root); without it Bash is judged by its tool name only. */
  readonly shell?: ShellContext | undefined;
  /** For a ConfigChange: what the changed settings file would take from gobby's hooks, as the daemon read it. */
  readonly settingsChange?: HookSettingsChange | undefined;
  /** For a file tool or a Bash command: each path → the real path behind symbolic links, as the daemon found it. */
  readonly realPaths?: ReadonlyMap<string, string> | undefined;
  /**
   * The event's Bash command, already analysed in `shell` by the caller (the daemon needs its paths
   * first): it is used as is, not analysed again (a command over 1 KB is not remembered).
   */
  readonly bashAnalysis?: ShellAnalysis | undefined;
  /** The package.json scripts the event's Bash command runs (`npm run lint`), as the daemon read them. */
  readonly projectScripts?: ReadonlyMap<string, ProjectScript> | undefined;
  /**
   * For a tool result (PostToolUse, PostToolUseFailure): whether gobby allowed that call's
   * PreToolUse (same tool_use_id), as the daemon's audit log says. False when it never saw one
   * (lenient mode, a PreToolUse hook that timed out, a daemon restart): a result of a tool the
   * phase refuses is then not counted. Undefined: not known, the call is taken as checked.
   */
  readonly toolCallSeen?: boolean | undefined;
}

/** The context inside one evaluation: the event's Bash command, analysed once. */
interface EvaluationContext extends EngineContext {
  readonly bash?: { readonly analysis: ShellAnalysis; readonly summary: ShellEffectsSummary } | undefined;
}

export type Decision =
  | {
      readonly kind: 'allow';
      readonly context?: string | undefined;
      /** Shown to the user, not the model (a stop gate that let the turn end, and why). */
      readonly notice?: string | undefined;
      readonly because: string;
      /**
       * The result of a tool the phase refuses, whose call gobby never saw before it ran: not
       * counted, its `on_tool_result` and transitions not run. Audited as `ran-unchecked`.
       */
      readonly ranUnchecked?: true | undefined;
    }
  | {
      readonly kind: 'deny';
      readonly reason: string;
      readonly because: string;
      /** Shown to the user, not the model (Claude Code's systemMessage). */
      readonly notice?: string | undefined;
    };

export type Effect =
  | { readonly type: 'phase_changed'; readonly from: string | null; readonly to: string; readonly cause: string }
  | { readonly type: 'approval_requested'; readonly phase: string; readonly prompt: string }
  | { readonly type: 'approval_declined'; readonly phase: string }
  /** An attempt on gobby's own ground, recorded as a `tamper:<kind>` audit row. */
  | { readonly type: 'tamper_attempt'; readonly kind: TamperKind; readonly tool: string; readonly because: string }
  | {
      readonly type: 'stop_released';
      readonly phase: string;
      /** Why the gate let the turn end with requirements unmet. */
      readonly reason: StopReleaseReason;
      /** What was still missing, as told to the model. */
      readonly unmet: readonly string[];
      /** Stop blocks this turn before the release. */
      readonly blocks: number;
    }
  /** A `disable --for` ran out: enforcement is back, from the event that noticed it. */
  | { readonly type: 'enforcement_resumed'; readonly phase: string; readonly disabledAt: number; readonly until: number; readonly reason: string };

export interface Evaluation {
  readonly state: WorkflowState;
  readonly decision: Decision;
  readonly effects: readonly Effect[];
}

/** Actions run outside any hook event (a session's start, a human's override) see no event. */
const NO_EVENT = undefined;
type EventInScope = EngineEvent | typeof NO_EVENT;

/** A session's first state: the on_session_start triggers run, then the first phase is entered. */
export function startWorkflow(workflow: CompiledWorkflow, ctx: EngineContext): { state: WorkflowState; effects: Effect[] } {
  const firstPhase = workflow.phases[0]!;
  let state: WorkflowState = {
    workflow: workflow.name,
    definitionHash: workflow.hash,
    phase: firstPhase.name,
    phaseEnteredAt: ctx.now,
    phaseActionCount: 0,
    totalActionCount: 0,
    blockedCount: 0,
    blockedThisTurn: 0,
    variables: { ...workflow.variables },
    pendingApproval: null,
    pendingMessages: [],
    pendingNotices: [],
    tamperNoticeGiven: false,
    disabled: null,
    stopGate: INITIAL_STOP_GATE_STATE,
  };
  let target = firstPhase.name;
  // Before the first phase is entered, `workflow_state.phase` is empty, which is what the
  // seed's `enter_phase … when: "not workflow_state.phase"` tests for. Each trigger sees
  // the variables the triggers before it set.
  for (const action of workflow.onSessionStart) {
    if (action.when && !action.when.evaluate(buildScope(workflow, state, NO_EVENT, ctx, { fresh: true }))) continue;
    if (action.kind === 'enter_phase') target = action.phase;
    else state = applyAction(workflow, state, action, NO_EVENT, ctx);
  }
  const phase = workflow.phase(target)!;
  state = { ...state, phase: phase.name };
  state = runActions(workflow, state, phase.onEnter, NO_EVENT, ctx);
  return { state, effects: [{ type: 'phase_changed', from: null, to: phase.name, cause: 'workflow started' }] };
}

export function evaluateEvent(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  event: EngineEvent,
  engineCtx: EngineContext,
): Evaluation {
  const ctx = withBashAnalysis(event, engineCtx);
  // gobby's own ground holds even while the workflow is disabled: disabling enforcement
  // is the user's choice about the workflow, not a way for the agent to reach the overrides.
  const guarded = checkOwnGround(event, ctx);
  if (guarded) return denyTamper(state, event, guarded);
  return withUserNotices(workflow, event, evaluateWorkflowEvent(workflow, state, event, ctx));
}

function evaluateWorkflowEvent(workflow: CompiledWorkflow, state: WorkflowState, event: EngineEvent, ctx: EvaluationContext): Evaluation {
  const { disabled } = state;
  if (disabled && (disabled.until === undefined || disabled.until === null || ctx.now < disabled.until)) {
    // Told at the start of the session and of every turn, so enforcement is never off unseen;
    // not on every tool call, where it would bury everything else.
    const notice = event.name === 'SessionStart' || event.name === 'UserPromptSubmit'
      ? renderDisabledNotice(workflow, currentPhase(workflow, state), disabled, ctx.now)
      : undefined;
    // A prompt still opens a new turn: the refusals of the last one are not this one's.
    const next = event.name === 'UserPromptSubmit' && state.blockedThisTurn !== 0 ? { ...state, blockedThisTurn: 0 } : state;
    return { state: next, decision: { kind: 'allow', because: `workflow disabled: ${disabled.reason}`, notice }, effects: [] };
  }
  if (disabled) {
    // A `disable --for` that ran out: this event is judged with enforcement back on.
    const resumed: Effect = { type: 'enforcement_resumed', phase: state.phase, disabledAt: disabled.at, until: disabled.until!, reason: disabled.reason };
    const evaluation = evaluateWorkflowEvent(workflow, { ...state, disabled: null }, event, ctx);
    return { ...evaluation, effects: [resumed, ...evaluation.effects] };
  }
  const phase = currentPhase(workflow, state);
  switch (event.name) {
    case 'SessionStart':
      return withContext(workflow, state, event, ctx, [], `phase ${phase.name}: session ${event.source}`, true);
    case 'UserPromptSubmit':
      return evaluatePrompt(workflow, state, event, ctx);
    case 'PreToolUse':
      return evaluateToolCall(workflow, state, event, ctx);
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return evaluateToolResult(workflow, state, event, ctx);
    case 'Stop':
      return evaluateStop(workflow, state, event, ctx);
    case 'SubagentStart':
      // A subagent's tool calls are held to the same phase; tell it so up front. Queued
      // messages stay for the main agent.
      return {
        state,
        decision: { kind: 'allow', context: renderCurrentPhaseContext(workflow, state, ctx), because: `phase ${phase.name}: subagent told the phase` },
        effects: [],
      };
    case 'SubagentStop':
    case 'PreCompact':
    case 'ConfigChange':
    case 'SessionEnd':
      return { state, decision: { kind: 'allow', because: `phase ${phase.name}: ${event.name} observed` }, effects: [] };
    default:
      return assertNever(event, 'engine event');
  }
}

/**
 * What the user is told with this event's answer (Claude Code's systemMessage): notices
 * queued since the last answer (a human's override from the CLI), then one per phase change,
 * approval asked and enforcement resumed, then the decision's own (a stop gate's release, a
 * reply not taken as approval, enforcement off).
 */
function withUserNotices(workflow: CompiledWorkflow, event: EngineEvent, evaluation: Evaluation): Evaluation {
  const { state, decision, effects } = evaluation;
  const notice = joinNotices(...state.pendingNotices, ...effects.map((effect) => noticeForEffect(workflow, effect, event)), decision.notice);
  if (notice === decision.notice && state.pendingNotices.length === 0) return evaluation;
  return {
    state: state.pendingNotices.length === 0 ? state : { ...state, pendingNotices: [] },
    decision: { ...decision, notice },
    effects,
  };
}

function noticeForEffect(workflow: CompiledWorkflow, effect: Effect, event: EngineEvent): string | undefined {
  switch (effect.type) {
    case 'phase_changed':
      return renderPhaseChangedNotice(workflow, effect.from, effect.to, describePhaseChangeCause(effect.cause, event));
    case 'approval_requested': {
      const phase = workflow.phase(effect.phase);
      return phase ? renderApprovalPendingNotice(workflow, phase) : undefined;
    }
    case 'approval_declined': {
      const phase = workflow.phase(effect.phase);
      return phase ? renderApprovalDeclinedNotice(workflow, phase) : undefined;
    }
    case 'enforcement_resumed': {
      const phase = workflow.phase(effect.phase);
      return phase ? renderEnforcementResumedNotice(workflow, phase) : undefined;
    }
    case 'tamper_attempt':
    case 'stop_released':
      return undefined; // their notices are the decision's own
  }
}

/** The causes enterPhase records, said to the user, with the event that triggered the move. */
function describePhaseChangeCause(cause: string, event: EngineEvent): string {
  const when =
    isToolEvent(event) ? ` after the ${canonicalToolName(event.toolName)} call${event.name === 'PostToolUseFailure' ? ' failed' : ''}`
    : event.name === 'UserPromptSubmit' ? ' on your prompt'
    : event.name === 'Stop' ? ' when the agent ended its turn'
    : '';
  if (cause === 'user approved') return 'you approved';
  if (cause === 'exit conditions met') return `its exit conditions were met${when}`;
  if (cause.startsWith('when ')) return `its transition condition \`${cause.slice('when '.length)}\` held${when}`;
  return cause;
}

/**
 * gobby's own ground for a session that runs no workflow: the same checks evaluateEvent
 * makes first, without a state to count them in.
 */
export function evaluateGuardsOnly(event: EngineEvent, engineCtx: EngineContext): { decision: Decision; effects: Effect[] } | null {
  const ctx = withBashAnalysis(event, engineCtx);
  const guarded = checkOwnGround(event, ctx);
  if (!guarded) return null;
  return { decision: { kind: 'deny', reason: guarded.reason, because: guarded.because, notice: guarded.notice }, effects: [tamperEffect(event, guarded)] };
}

/** gobby's own ground, asked first for every event: the tool call's guards, then a change of the hook settings. */
function checkOwnGround(event: EngineEvent, ctx: EvaluationContext): GuardDenial | null {
  const place = ctx.shell ? { cwd: ctx.shell.cwd, home: ctx.shell.home, realPaths: ctx.realPaths, projectScripts: ctx.projectScripts } : undefined;
  return checkProtectedGround(event, ctx.ground ?? NO_PROTECTED_GROUND, ctx.bash?.analysis, place) ?? checkSettingsChange(event, ctx.settingsChange);
}

/**
 * A Bash tool call's command (or an MCP tool's that runs shell commands), analysed once for the
 * guards, the phase's shell policy and `effects.*`.
 */
function withBashAnalysis(event: EngineEvent, ctx: EngineContext): EvaluationContext {
  if (!ctx.shell || !isToolEvent(event)) return ctx;
  const command = shellCommandOf(event.toolName, event.toolInput);
  if (command === undefined) return ctx;
  const analysis = ctx.bashAnalysis ?? analyzeShellCommand(command, ctx.shell);
  const summary = summarizeShellEffects(analysis);
  // `effects.changes_files`: judged as a phase that restricts file changes would judge it, scripts
  // the daemon read included; only when a condition reads it, once (most workflows never do).
  const shell = ctx.shell;
  let changesFiles: boolean | undefined;
  Object.defineProperty(summary, 'changes_files', {
    enumerable: true,
    get: () => (changesFiles ??= judgeShellCommand(analysis, CHANGES_FILES, { projectRoot: shell.projectRoot, home: shell.home }, { realPaths: ctx.realPaths, projectScripts: ctx.projectScripts }) !== null),
  });
  return { ...ctx, bash: { analysis, summary } };
}

const CHANGES_FILES: ShellPolicy = { restrictsFileChanges: true, allowPrograms: [], allowOpaque: false };

function tamperEffect(event: EngineEvent, denial: GuardDenial): Effect {
  return { type: 'tamper_attempt', kind: denial.kind, tool: isToolEvent(event) ? event.toolName : event.name, because: denial.because };
}

/** A denial on gobby's own ground: counted as a block, recorded as a tamper attempt, and the user told once per session. */
function denyTamper(state: WorkflowState, event: EngineEvent, denial: GuardDenial): Evaluation {
  const effects = [tamperEffect(event, denial)];
  const decision = { kind: 'deny', reason: denial.reason, because: denial.because } as const;
  if (denial.notice !== undefined) {
    return { state: { ...countBlock(state), pendingNotices: [...state.pendingNotices, denial.notice] }, decision, effects };
  }
  const notice = state.tamperNoticeGiven
    ? undefined
    : `gobby refused an attempt by the agent on gobby's own ground (${denial.because.replace(/^guard: /, '')}). ` +
      'It is recorded: `gobby workflow status` lists it. Later attempts in this session are recorded without this message.';
  return { state: { ...countBlock(state), tamperNoticeGiven: true }, decision: { ...decision, notice }, effects };
}

/**
 * A human's override (`gobby workflow phase <name>`): moves at once, running the current
 * phase's on_exit and the target's on_enter; the entry messages reach the model with its
 * next prompt, and the notice of the move the user with the session's next hook answer.
 */
export function movePhase(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  target: string,
  cause: string,
  ctx: EngineContext,
): { state: WorkflowState; effects: Effect[] } {
  const moved = enterPhase(workflow, state, target, currentPhase(workflow, state).onExit, cause, NO_EVENT, ctx);
  const notice = renderPhaseChangedNotice(workflow, state.phase, target, `by an override (${cause})`);
  return { state: { ...moved.state, pendingNotices: [...moved.state.pendingNotices, notice] }, effects: moved.effects };
}

/** The phases a non-forced `gobby workflow phase` may move to: what the definition itself allows. */
export function reachablePhases(workflow: CompiledWorkflow, state: WorkflowState, ctx: EngineContext): string[] {
  const phase = currentPhase(workflow, state);
  const targets = new Set(phase.transitions.map((transition) => transition.to));
  if (phase.nextPhase && phase.hasExitConditions) {
    const scope = buildScope(workflow, state, NO_EVENT, ctx);
    if (phase.exitChecks.every((check) => check.holds.evaluate(scope))) targets.add(phase.nextPhase);
  }
  return [...targets];
}

export function renderCurrentPhaseContext(workflow: CompiledWorkflow, state: WorkflowState, ctx: EngineContext): string {
  return renderPhaseContext(workflow, currentPhase(workflow, state), buildScope(workflow, state, NO_EVENT, ctx));
}

function evaluatePrompt(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  event: Extract<EngineEvent, { name: 'UserPromptSubmit' }>,
  ctx: EvaluationContext,
): Evaluation {
  const phase = currentPhase(workflow, state);
  const effects: Effect[] = [];
  // A prompt opens a new turn: the stop gate and the turn's refusals count afresh.
  let next: WorkflowState = state.stopGate === INITIAL_STOP_GATE_STATE ? state : { ...state, stopGate: INITIAL_STOP_GATE_STATE };
  if (next.blockedThisTurn !== 0) next = { ...next, blockedThisTurn: 0 };
  let because = `phase ${phase.name}: prompt`;
  let notice: string | undefined;
  const reply = classifyApprovalReply(event.prompt);
  if (state.pendingApproval && phase.nextPhase) {
    if (reply === 'approve') {
      const moved = enterPhase(workflow, next, phase.nextPhase, phase.onExit, 'user approved', event, ctx);
      next = moved.state;
      effects.push(...moved.effects);
      because = `phase ${phase.name}: user approved, moved to ${phase.nextPhase}`;
    } else if (reply === 'reject') {
      next = { ...next, pendingApproval: null, pendingMessages: [...next.pendingMessages, renderApprovalDeclined(phase)] };
      effects.push({ type: 'approval_declined', phase: phase.name });
      because = `phase ${phase.name}: user declined approval`;
    }
  } else if (reply === 'approve' && phase.approvalPrompt !== undefined && phase.nextPhase) {
    // The user may believe they approved: tell them why nothing moved, and what would.
    const scope = buildScope(workflow, next, event, ctx);
    const unmet = phase.exitChecks.filter((check) => !check.holds.evaluate(scope)).map((check) => check.label);
    notice = renderApprovalNotTakenNotice(workflow, phase, unmet.length > 0 ? { kind: 'exit_conditions', unmet } : { kind: 'not_asked' });
    because = `phase ${phase.name}: prompt, not taken as approval (${unmet.length > 0 ? 'exit conditions unmet' : 'approval not asked'})`;
  }
  if (effects.length === 0) {
    const moved = fireTransitions(workflow, next, event, ctx);
    next = moved.state;
    effects.push(...moved.effects);
    if (moved.effects.length > 0) because = `phase ${phase.name}: transition to ${next.phase}`;
  }
  const evaluation = withContext(workflow, next, event, ctx, effects, because, true);
  return notice === undefined ? evaluation : { ...evaluation, decision: { ...evaluation.decision, notice } };
}

/**
 * Claude Code's tools that run code gobby does not parse: PowerShell (Bash's sibling on Windows),
 * and the code-running REPL and JavaScript tools. In a phase that blocks the file tools they are
 * judged like opaque shell code, whatever the phase's tool list says.
 */
const RUNS_UNREAD_CODE = new Set(['PowerShell', 'REPL', 'JavaScript']);

function evaluateToolCall(workflow: CompiledWorkflow, state: WorkflowState, event: ToolEvent, ctx: EvaluationContext): Evaluation {
  const phase = currentPhase(workflow, state);
  const toolName = canonicalToolName(event.toolName);
  const { allowed, isBlocked } = phase.tools;
  if (!toolListsPermit(phase, toolName)) {
    return deny(state, renderToolDeniedReason(workflow, phase, toolName), `phase ${phase.name}: ${isBlocked(toolName) ? 'blocked_tools' : 'allowed_tools'}`);
  }
  if (phase.shell.restrictsFileChanges) {
    // The file tools are blocked here, so no other tool may change files instead of them.
    const refusal = ctx.bash
      ? judgeShellCommand(ctx.bash.analysis, phase.shell, { projectRoot: ctx.shell?.projectRoot ?? '/', home: ctx.shell?.home ?? '/' }, { realPaths: ctx.realPaths, projectScripts: ctx.projectScripts })
      : RUNS_UNREAD_CODE.has(toolName) && !phase.shell.allowOpaque
        ? { what: `runs code gobby cannot see into (${toolName})`, allowedBy: 'shell: { allow_opaque: true }' }
        : allowed === 'all' && OTHER_FILE_TOOLS.has(toolName)
          ? { what: `changes files (${toolName})`, allowedBy: `allowed_tools listing ${toolName}` }
        : allowed === 'all' && mcpToolChangesFiles(toolName)
          ? { what: `is an MCP tool whose name says it changes something (\`${toolName}\`)` }
          : allowed === 'all' && mcpToolRunsCode(toolName) && !phase.shell.allowOpaque
            ? { what: `is an MCP tool whose name says it runs code gobby cannot see into (\`${toolName}\`)`, allowedBy: 'shell: { allow_opaque: true }' }
          : null;
    if (refusal) return deny(state, renderShellDeniedReason(workflow, phase, refusal), `phase ${phase.name}: no file changes (${toolName})`);
  }
  const scope = buildScope(workflow, state, event, ctx);
  let next = state;
  for (const rule of phase.rules) {
    if (!rule.when.evaluate(scope)) continue;
    const message = rule.message.render(scope);
    if (rule.action === 'block') return deny(state, renderRuleDeniedReason(workflow, phase, message), rule.label);
    next = { ...next, pendingMessages: [...next.pendingMessages, `[gobby] ${message}`] };
  }
  return { state: next, decision: { kind: 'allow', because: `phase ${phase.name}: ${toolName} allowed` }, effects: [] };
}

function evaluateToolResult(workflow: CompiledWorkflow, state: WorkflowState, event: ToolEvent, ctx: EvaluationContext): Evaluation {
  const phase = currentPhase(workflow, state);
  const toolName = canonicalToolName(event.toolName);
  if (ctx.toolCallSeen === false && phaseRefusesTool(phase, toolName)) {
    // It ran without gobby's say: a fact of the session, not progress in the workflow. Nothing
    // is counted and no condition sees it, so a refused tool cannot satisfy a gate or a transition.
    return {
      state,
      decision: {
        kind: 'allow',
        ranUnchecked: true,
        because: `phase ${phase.name}: ${toolName} ran unchecked (no PreToolUse seen); not counted`,
        context: renderRanUncheckedReminder(workflow, phase, toolName),
        notice: renderRanUncheckedNotice(workflow, phase, toolName, event.name === 'PostToolUseFailure'),
      },
      effects: [],
    };
  }
  let counted: WorkflowState = {
    ...state,
    phaseActionCount: state.phaseActionCount + 1,
    totalActionCount: state.totalActionCount + 1,
  };
  // Facts (the tests ran, a file was edited) are recorded before transitions read them.
  counted = runActions(workflow, counted, workflow.onToolResult, event, ctx);
  counted = runActions(workflow, counted, currentPhase(workflow, counted).onToolResult, event, ctx);
  const moved = fireTransitions(workflow, counted, event, ctx);
  const because = moved.effects.length > 0 ? `phase ${state.phase}: transition to ${moved.state.phase}` : `phase ${state.phase}: action counted`;
  // Pending messages (a phase entered, a rule's warning) ride on this tool_result.
  return withContext(workflow, moved.state, event, ctx, moved.effects, because, moved.effects.length > 0);
}

function evaluateStop(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  event: Extract<EngineEvent, { name: 'Stop' }>,
  ctx: EvaluationContext,
): Evaluation {
  const moved = fireTransitions(workflow, state, event, ctx);
  let next = moved.state;
  const effects: Effect[] = [...moved.effects];
  const phase = currentPhase(workflow, next);
  // The model ended its turn asking the phase's approval question: the user's next reply is
  // read as the answer. A turn that ends with anything else (a clarifying question, say)
  // does not turn the user's "yes" into an approval. A Stop without the message (older
  // Claude Code) cannot be told apart and counts as asked. The latest turn decides, so a
  // question asked after the approval question withdraws it.
  if (phase.approvalPrompt !== undefined) {
    const asked = asksForApproval(event.lastAssistantMessage, phase.approvalPrompt) && exitChecksHold(workflow, next, event, ctx);
    if (asked && !next.pendingApproval) {
      next = { ...next, pendingApproval: { phase: phase.name, prompt: phase.approvalPrompt, askedAt: ctx.now } };
      effects.push({ type: 'approval_requested', phase: phase.name, prompt: phase.approvalPrompt });
    } else if (!asked && next.pendingApproval) {
      next = { ...next, pendingApproval: null };
    }
  }
  return applyStopGate(workflow, next, event, ctx, effects);
}

/**
 * The stop gate (docs/workflows.md, "Stop gate"). The turn may not end while a requirement
 * does not hold, except when ending it cannot be the agent's way out of work:
 *  - it waits for the user (an approval pending, or its last message asks a question);
 *  - no tool ran since the last block (blocking again would only loop);
 *  - `max_blocks` blocks passed without fewer requirements unmet, or the turn's blocks
 *    reach STOP_GATE_MAX_BLOCKS (Claude Code overrides a hook after 8 in a row).
 * A release with requirements unmet is told to the user (`notice`) and recorded.
 */
function applyStopGate(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  event: Extract<EngineEvent, { name: 'Stop' }>,
  ctx: EngineContext,
  effects: Effect[],
): Evaluation {
  const phase = currentPhase(workflow, state);
  const requires = [...(workflow.stopGate?.requires ?? []), ...(phase.stopGate?.requires ?? [])];
  // Stop answers carry no context: additionalContext on Stop makes the agent continue.
  // Messages queued here are delivered with the next prompt.
  const ended = (next: WorkflowState, because: string, notice?: string): Evaluation => ({
    state: next,
    decision: notice === undefined ? { kind: 'allow', because } : { kind: 'allow', notice, because },
    effects,
  });
  if (requires.length === 0) return ended(state, `phase ${phase.name}: turn ended`);
  const scope = buildScope(workflow, state, event, ctx);
  const unmet = requires.filter((requirement) => !requirement.when.evaluate(scope));
  const gate = state.stopGate;
  const fresh = { ...state, stopGate: INITIAL_STOP_GATE_STATE };
  if (unmet.length === 0) return ended(fresh, `phase ${phase.name}: turn ended, stop gate satisfied`);

  const described = unmet.map((requirement) => describeRequirement(requirement, scope));
  const release = (reason: StopReleaseReason): Evaluation => {
    effects.push({ type: 'stop_released', phase: phase.name, reason, unmet: described.map((item) => item.missing), blocks: gate.blocksThisTurn });
    return ended(fresh, `phase ${phase.name}: stop gate released (${reason})`, renderStopReleasedNotice(workflow, phase, described, reason, gate.blocksThisTurn));
  };
  if (state.pendingApproval) return release('approval_pending');
  if (asksTheUser(event.lastAssistantMessage)) return release('asks_user');
  const blockedBefore = gate.actionsAtLastBlock !== null;
  if (blockedBefore && state.totalActionCount === gate.actionsAtLastBlock) return release('no_tool_since_block');

  const keys = unmet.map((requirement) => requirement.key);
  const progressed = blockedBefore && keys.length < gate.unmetAtLastBlock.length && keys.every((key) => gate.unmetAtLastBlock.includes(key));
  const withoutProgress = progressed ? 0 : gate.blocksWithoutProgress;
  const maxBlocks = Math.min(workflow.stopGate?.maxBlocks ?? STOP_GATE_MAX_BLOCKS, phase.stopGate?.maxBlocks ?? STOP_GATE_MAX_BLOCKS);
  if (withoutProgress >= maxBlocks || gate.blocksThisTurn >= STOP_GATE_MAX_BLOCKS) return release('max_blocks');

  const blocks = gate.blocksThisTurn + 1;
  const next: WorkflowState = {
    ...state,
    stopGate: { blocksWithoutProgress: withoutProgress + 1, blocksThisTurn: blocks, actionsAtLastBlock: state.totalActionCount, unmetAtLastBlock: keys },
  };
  return {
    state: next,
    decision: {
      kind: 'deny',
      reason: renderStopBlockedReason(workflow, phase, described),
      because: `phase ${phase.name}: stop gate block ${withoutProgress + 1} of ${maxBlocks} (${keys.join(', ')})${event.stopHookActive ? ', after a blocked stop' : ''}`,
    },
    effects,
  };
}

function describeRequirement(requirement: CompiledStopRequirement, scope: ExpressionScope): { missing: string; how: string } {
  return { missing: requirement.missing.render(scope).trim(), how: requirement.how.render(scope).trim() };
}

/**
 * The agent is waiting for the user when its last message ends with a question: the last
 * line that has text, stripped of closing quotes, brackets and markdown emphasis, ends in
 * `?`. A question in the middle of a report ("Why did this fail? Because …") does not count.
 * A Stop without the message (older Claude Code) cannot be read and does not count.
 */
function asksTheUser(lastMessage: string | undefined): boolean {
  if (lastMessage === undefined) return false;
  const lines = lastMessage.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
  const last = lines[lines.length - 1];
  if (last === undefined) return false;
  return /[?？]$/u.test(last.replace(/[\s*_`"'”’)\]>]+$/u, ''));
}

/** The first transition whose condition holds fires; then exit conditions without approval are checked. */
function fireTransitions(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  event: EventInScope,
  ctx: EvaluationContext,
): { state: WorkflowState; effects: Effect[] } {
  const phase = currentPhase(workflow, state);
  const scope = buildScope(workflow, state, event, ctx);
  for (const transition of phase.transitions) {
    if (transition.when.evaluate(scope)) {
      return enterPhase(workflow, state, transition.to, [...phase.onExit, ...transition.onTransition], `when ${transition.when.source}`, event, ctx);
    }
  }
  if (phase.hasExitConditions && phase.approvalPrompt === undefined && phase.nextPhase && exitChecksHold(workflow, state, event, ctx)) {
    return enterPhase(workflow, state, phase.nextPhase, phase.onExit, 'exit conditions met', event, ctx);
  }
  return { state, effects: [] };
}

function exitChecksHold(workflow: CompiledWorkflow, state: WorkflowState, event: EventInScope, ctx: EvaluationContext): boolean {
  const phase = currentPhase(workflow, state);
  const scope = buildScope(workflow, state, event, ctx);
  return phase.exitChecks.every((check) => check.holds.evaluate(scope));
}

function enterPhase(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  target: string,
  leavingActions: readonly CompiledAction[],
  cause: string,
  event: EventInScope,
  ctx: EvaluationContext,
): { state: WorkflowState; effects: Effect[] } {
  const to = workflow.phase(target);
  if (!to) throw new Error(`unknown phase ${target}`); // compile() guarantees targets exist
  let next = runActions(workflow, state, leavingActions, event, ctx);
  next = { ...next, phase: to.name, phaseEnteredAt: ctx.now, phaseActionCount: 0, pendingApproval: null };
  next = runActions(workflow, next, to.onEnter, event, ctx);
  return { state: next, effects: [{ type: 'phase_changed', from: state.phase, to: to.name, cause }] };
}

function runActions(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  actions: readonly CompiledAction[],
  event: EventInScope,
  ctx: EvaluationContext,
): WorkflowState {
  return actions.reduce((current, action) => {
    if (action.when && !action.when.evaluate(buildScope(workflow, current, event, ctx))) return current;
    return applyAction(workflow, current, action, event, ctx);
  }, state);
}

function applyAction(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  action: CompiledAction,
  event: EventInScope,
  ctx: EvaluationContext,
): WorkflowState {
  switch (action.kind) {
    case 'inject_message': {
      const text = action.content.render(buildScope(workflow, state, event, ctx));
      return text ? { ...state, pendingMessages: [...state.pendingMessages, text] } : state;
    }
    case 'set_variable':
      return { ...state, variables: { ...state.variables, [action.name]: action.value } };
    case 'increment_variable': {
      const current = Number(state.variables[action.name] ?? 0);
      return { ...state, variables: { ...state.variables, [action.name]: (Number.isFinite(current) ? current : 0) + action.by } };
    }
    case 'enter_phase':
      return state; // only meaningful in on_session_start, handled by startWorkflow
  }
}

/** Delivers queued messages, then (when asked) the current phase's standing instructions. */
function withContext(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  event: EventInScope,
  ctx: EvaluationContext,
  effects: readonly Effect[],
  because: string,
  includePhaseContext: boolean,
): Evaluation {
  const parts = [...state.pendingMessages];
  if (includePhaseContext) parts.push(renderCurrentPhaseContext(workflow, state, ctx));
  const context = parts.length > 0 ? parts.join('\n\n') : undefined;
  return {
    state: parts.length > 0 ? { ...state, pendingMessages: [] } : state,
    decision: { kind: 'allow', context, because },
    effects,
  };
}

function deny(state: WorkflowState, reason: string, because: string): Evaluation {
  return { state: countBlock(state), decision: { kind: 'deny', reason, because }, effects: [] };
}

/** One more refusal, in the session's total and in this turn's (the status line shows both). */
export function countBlock(state: WorkflowState): WorkflowState {
  return { ...state, blockedCount: state.blockedCount + 1, blockedThisTurn: state.blockedThisTurn + 1 };
}

function currentPhase(workflow: CompiledWorkflow, state: WorkflowState): CompiledPhase {
  // A pinned definition always has the phase its state names; the first phase is a
  // safe floor should a state row ever disagree.
  return workflow.phase(state.phase) ?? workflow.phases[0]!;
}

function buildScope(
  workflow: CompiledWorkflow,
  state: WorkflowState,
  event: EventInScope,
  ctx: EvaluationContext,
  options: { fresh?: boolean } = {},
): ExpressionScope {
  const tool = event && isToolEvent(event) ? event : undefined;
  const toolInput = tool?.toolInput ?? {};
  const command = typeof toolInput.command === 'string' ? toolInput.command : undefined;
  const file = firstString(toolInput.file_path, toolInput.notebook_path, toolInput.path);
  const phase = options.fresh ? undefined : state.phase;
  const toolName = tool ? canonicalToolName(tool.toolName) : undefined;
  const prompt = event?.name === 'UserPromptSubmit' ? event.prompt : undefined;
  const agent = tool?.agent ?? (event?.name === 'SubagentStart' || event?.name === 'SubagentStop' ? event.agent : undefined);
  // Variables go in last: on Node 20 an object literal that opens with a spread is built
  // on a slow path (a third of a decision's time). The compiler already refuses variables
  // named like a built-in, so the order changes nothing.
  const values: Record<string, unknown> = {
    workflow: workflow.name,
    phase,
    phase_action_count: state.phaseActionCount,
    total_action_count: state.totalActionCount,
    blocked_count: state.blockedCount,
    seconds_in_phase: Math.max(0, Math.floor((ctx.now - state.phaseEnteredAt) / 1000)),
    variables: state.variables,
    event: event?.name ?? 'none',
    tool: toolName,
    tool_name: toolName,
    tool_input: tool?.toolInput,
    command,
    file,
    prompt,
    tool_result:
      event?.name === 'PostToolUseFailure'
        ? { is_error: true, error: event.error }
        : event?.name === 'PostToolUse'
          ? { is_error: false }
          : undefined,
    workflow_state: {
      phase,
      phase_action_count: state.phaseActionCount,
      total_action_count: state.totalActionCount,
      variables: state.variables,
    },
    approval_pending: state.pendingApproval !== null,
    effects: ctx.bash?.summary,
    agent_type: agent?.type,
    agent_id: agent?.id,
    null: null,
    [EVENT_FACTS_NAME]: { prompt, command },
    ...state.variables,
  };
  return { values };
}

function asksForApproval(lastMessage: string | undefined, approvalPrompt: string): boolean {
  if (lastMessage === undefined) return true;
  const normalize = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  // The question must end the turn: a "yes" answers whatever was asked last (`Ready to implement? Or should I update the docs first?`).
  const prompt = normalize(approvalPrompt);
  return prompt !== '' && normalize(lastMessage).endsWith(prompt);
}

function firstString(...candidates: unknown[]): string | undefined {
  return candidates.find((candidate): candidate is string => typeof candidate === 'string');
}
