// A bounded memo of recent analyses. Claude Code sends each Bash command twice (PreToolUse, then
// PostToolUse or PostToolUseFailure) and agents repeat commands (`git status`, `npm test`), so most
// analyses were already made. An analysis depends only on the command and the context, so a
// remembered one is the same answer: the engine stays deterministic.
import type { ShellAnalysis, ShellContext } from './types.js';

/**
 * Longer commands are analysed each time. The commands that repeat are short (`git status`, `npm
 * test`); a long script is sent once, and its PostToolUse then costs one more analysis (~0.2 ms at
 * 4 KB). Remembering it cost more: each analysis of a one-off script (tens of kilobytes) outlived
 * two young collections, was moved to the old generation and was evicted later, and that churn
 * came back as old-generation marking steps inside later requests (docs/benchmarks.md).
 */
const MAX_CACHED_LENGTH = 1024;
/**
 * Small on purpose: the memo has to bridge PreToolUse → PostToolUse and the commands an agent
 * repeats, no more. Every remembered analysis outlives a young-generation GC, and with 256 entries
 * of 4 KB scripts the benchmark's GC pauses grew several-fold (docs/benchmarks.md).
 */
const MAX_ENTRIES = 64;
/** Characters of commands held at once, so the memo's memory stays bounded whatever is sent (< 1 MB with the analyses). */
const MAX_CACHED_CHARACTERS = 64 * 1024;

interface Entry {
  readonly ctx: ShellContext;
  readonly analysis: ShellAnalysis;
}

/** Least recently used first: a Map iterates in insertion order, and a hit is moved to the end. */
const entries = new Map<string, Entry>();
let characters = 0;

/**
 * The remembered analysis of `command` in `ctx`, or a new one from `analyze`, remembered. Answers are
 * shared between callers, so their lists are frozen: a caller that tried to add or remove an
 * effect would throw instead of changing the next caller's answer.
 */
export function cachedAnalysis(command: string, ctx: ShellContext, analyze: (command: string, ctx: ShellContext) => ShellAnalysis): ShellAnalysis {
  // A script file's text is analysed with its parameters, which the remembered context does not hold.
  if (command.length > MAX_CACHED_LENGTH || ctx.scriptParameters !== undefined) return analyze(command, ctx);
  const hit = entries.get(command);
  if (hit !== undefined && sameContext(hit.ctx, ctx)) {
    entries.delete(command);
    entries.set(command, hit);
    return hit.analysis;
  }
  const analysis = freezeAnalysis(analyze(command, ctx));
  if (hit !== undefined) {
    entries.delete(command);
    characters -= command.length;
  }
  entries.set(command, { ctx: { cwd: ctx.cwd, home: ctx.home, projectRoot: ctx.projectRoot, gobbyHome: ctx.gobbyHome }, analysis });
  characters += command.length;
  while (entries.size > MAX_ENTRIES || characters > MAX_CACHED_CHARACTERS) {
    const oldest = entries.keys().next().value as string;
    entries.delete(oldest);
    characters -= oldest.length;
  }
  return analysis;
}

function sameContext(a: ShellContext, b: ShellContext): boolean {
  return a.cwd === b.cwd && a.home === b.home && a.projectRoot === b.projectRoot && a.gobbyHome === b.gobbyHome;
}

/** The lists only: freezing every effect and invocation would cost more than some analyses (their types are readonly). */
function freezeAnalysis(analysis: ShellAnalysis): ShellAnalysis {
  Object.freeze(analysis.effects);
  Object.freeze(analysis.programs);
  Object.freeze(analysis.invocations);
  return Object.freeze(analysis);
}
