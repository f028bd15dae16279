// Engine decisions → Claude Code's hook output (design/claude-code-hooks.md §5.2).
// Getting these shapes exactly right is what makes a block reach the model: a deny
// without hookSpecificOutput.hookEventName is silently ignored by Claude Code.
import type { Decision } from '../workflows/index.js';
import type { KnownHookEvent } from './payloads.js';

export type HookAnswer = Record<string, unknown>;

/** Events whose hookSpecificOutput.additionalContext reaches the model. */
const CONTEXT_EVENTS: ReadonlySet<string> = new Set([
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
]);

export function renderHookAnswer(event: KnownHookEvent, decision: Decision | null): HookAnswer {
  if (!decision) return {};
  if (decision.kind === 'deny') {
    if (event === 'PreToolUse') {
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: decision.reason,
        },
      };
    }
    // Stop, SubagentStop and UserPromptSubmit block through the top-level decision.
    return { decision: 'block', reason: decision.reason };
  }
  // An allow is answered with no permissionDecision: "allow" would skip the user's own
  // permission prompts, and gobby only ever narrows what may run.
  if (decision.context && CONTEXT_EVENTS.has(event)) {
    return { hookSpecificOutput: { hookEventName: event, additionalContext: decision.context } };
  }
  return {};
}
