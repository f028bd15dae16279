// The engine's public surface. Everything here is pure: no I/O, no clock, no process.
export { compileWorkflow, BUILTIN_NAMES } from './compile.js';
export type { CompiledWorkflow, CompiledPhase, DefinitionSource, DefinitionTier, LoadError, CompileResult } from './compile.js';
export { startWorkflow, evaluateEvent, evaluateGuardsOnly, movePhase, reachablePhases, renderCurrentPhaseContext, countBlock } from './evaluate.js';
export type { EngineContext, Decision, Effect, Evaluation } from './evaluate.js';
export { addNotice } from './decision-notice.js';
export { isToolEvent } from './events.js';
export type { EngineEvent, EngineEventName, EventOrigin, SubagentRef, ToolEvent } from './events.js';
export { findOverrideCommand } from './guards.js';
export { toolInputPaths } from './tool-paths.js';
export { literalFolderOf } from './shell-through-links.js';
export type { HookSettingsChange, ProtectedGround } from './guards.js';
export { workflowStateSchema } from './state.js';
export type { WorkflowState } from './state.js';
export { APPROVAL_WORDS, REJECTION_WORDS, describeAllowedTools, describeWayOut } from './messages.js';
export { joinNotices } from './notices.js';
export { shellCommandOf } from './tool-commands.js';
export { analyzeShellCommand, summarizeShellEffects, MAX_COMMAND_LENGTH } from './shell/index.js';
export type { PathRef, ShellAnalysis, ShellContext, ShellEffect, ShellEffectKind, ShellEffectsSummary, ShellInvocation, SignalTarget } from './shell/index.js';
