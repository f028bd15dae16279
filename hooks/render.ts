// Engine decisions → Claude Code's hook output (design/claude-code-hooks.md §5.2).
// Getting these shapes exactly right is what makes a block reach the model: a deny
// without hookSpecificOutput.hookEventName is silently ignored by Claude Code.
import type { Decision, EngineEventName } from '../workflows/index.js';

export type HookAnswer = Record<string, unknown>;

/** Events whose hookSpecificOutput.additionalContext reaches the model. */
const CONTEXT_EVENTS: ReadonlySet<EngineEventName> = new Set<EngineEventName>([
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
]);

export function renderHookAnswer(event: EngineEventName, decision: Decision | null): HookAnswer {
  if (!decision) return {};
  if (decision.kind === 'deny') {
    // The notice is for the user (Claude Code shows systemMessage in the terminal); the reason is for the model.
    const notice = decision.notice === undefined ? {} : { systemMessage: decision.notice };
    if (event === 'PreToolUse') {
      return {
        ...notice,
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: decision.reason,
        },
      };
    }
    // Stop, SubagentStop and UserPromptSubmit block through the top-level decision.
    return { ...notice, decision: 'block', reason: decision.reason };
  }
  // An allow is answered with no permissionDecision: "allow" would skip the user's own
  // permission prompts, and gobby only ever narrows what may run.
  const answer: HookAnswer = {};
  if (decision.context && CONTEXT_EVENTS.has(event)) {
    answer.hookSpecificOutput = { hookEventName: event, additionalContext: decision.context };
  }
  // systemMessage is shown to the user only; it never makes the agent continue.
  if (decision.notice) answer.systemMessage = decision.notice;
  return answer;
}
