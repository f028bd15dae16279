// Which tools a phase refuses by name alone: the engine's refusals and the load-time checks
// (a gate whose only setter is a refused tool) must agree, so both ask here.
import type { CompiledPhase } from './compile.js';

/**
 * Claude Code's file tools besides Write and Edit: where those two are blocked, no tool may change
 * files, so these are refused too unless the phase lists them by name (`blocked_tools: [Write, Edit]`
 * does not let MultiEdit or NotebookEdit through).
 */
export const OTHER_FILE_TOOLS: ReadonlySet<string> = new Set(['MultiEdit', 'NotebookEdit']);

/** The phase's `allowed_tools` and `blocked_tools` let the tool run. */
export function toolListsPermit(phase: CompiledPhase, toolName: string): boolean {
  const { allowed, isBlocked } = phase.tools;
  return !isBlocked(toolName) && (allowed === 'all' || allowed.matches(toolName));
}

/** The phase refuses the tool by name alone: its tool lists, or a file tool where files may not change. */
export function phaseRefusesTool(phase: CompiledPhase, toolName: string): boolean {
  if (!toolListsPermit(phase, toolName)) return true;
  return phase.shell.restrictsFileChanges && phase.tools.allowed === 'all' && OTHER_FILE_TOOLS.has(toolName);
}
