// The engine's public surface. Everything here is pure: no I/O, no clock, no process.
export { compileWorkflow, BUILTIN_NAMES } from './compile.js';
export type { CompiledWorkflow, CompiledPhase, DefinitionSource, DefinitionTier, LoadError, CompileResult } from './compile.js';
export { startWorkflow, evaluateEvent, movePhase, reachablePhases, renderCurrentPhaseContext } from './evaluate.js';
export type { EngineEvent, EngineContext, Decision, Effect, Evaluation } from './evaluate.js';
export { workflowStateSchema } from './state.js';
export type { WorkflowState } from './state.js';
export { describeAllowedTools, describeWayOut, APPROVAL_WORDS, REJECTION_WORDS } from './messages.js';
export { findOverrideCommand } from './override-guard.js';
export { canonicalToolName } from './tool-names.js';
export { analyzeShellCommand, summarizeShellEffects, MAX_COMMAND_LENGTH } from './shell/index.js';
export type { PathRef, ShellAnalysis, ShellContext, ShellEffect, ShellEffectKind, ShellEffectsSummary, ShellInvocation, SignalTarget } from './shell/index.js';
