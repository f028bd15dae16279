// Shell commands judged by what they do (issue #6): parse with unbash, classify into effects.
export { analyzeShellCommand, DIRECTORY_BUILTINS } from './classify.js';
export { MAX_COMMAND_LENGTH } from './parse.js';
export { EFFECTS_SUMMARY_FIELDS, summarizeShellEffects } from './summary.js';
export type { ShellEffectsSummary } from './summary.js';
export { projectScriptKey, scriptArguments, SHELLS_READ_AS_BASH } from './types.js';
export type { PathRef, ProjectScriptCall, ShellAnalysis, ShellContext, ShellEffect, ShellEffectKind, ShellInvocation, SignalTarget } from './types.js';
