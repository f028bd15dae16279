// Claude Code's hook payloads (design/claude-code-hooks.md §4), checked at the boundary.
// Objects are loose: Claude Code adds fields between versions, and a field gobby does not
// read must never make a hook fail.
import { z } from 'zod';

const common = {
  session_id: z.string().min(1).max(200),
  transcript_path: z.string().optional(),
  cwd: z.string().min(1),
  hook_event_name: z.string(),
  permission_mode: z.string().optional(),
  agent_id: z.string().optional(),
  agent_type: z.string().optional(),
};

const toolCall = {
  ...common,
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()).default({}),
  tool_use_id: z.string().optional(),
};

export const hookPayloadSchemas = {
  SessionStart: z.looseObject({ ...common, source: z.string().optional() }),
  UserPromptSubmit: z.looseObject({ ...common, prompt: z.string() }),
  PreToolUse: z.looseObject(toolCall),
  PostToolUse: z.looseObject({ ...toolCall, tool_response: z.unknown().optional() }),
  PostToolUseFailure: z.looseObject({ ...toolCall, error: z.string().optional(), is_interrupt: z.boolean().optional() }),
  Stop: z.looseObject({ ...common, stop_hook_active: z.boolean().optional() }),
  SubagentStart: z.looseObject(common),
  SubagentStop: z.looseObject({ ...common, stop_hook_active: z.boolean().optional() }),
  PreCompact: z.looseObject({ ...common, trigger: z.string().optional() }),
  SessionEnd: z.looseObject({ ...common, reason: z.string().optional() }),
} as const;

export type KnownHookEvent = keyof typeof hookPayloadSchemas;
export type HookPayload = z.infer<(typeof hookPayloadSchemas)[KnownHookEvent]>;

export const KNOWN_HOOK_EVENTS = Object.keys(hookPayloadSchemas) as KnownHookEvent[];

export function isKnownHookEvent(name: string): name is KnownHookEvent {
  return Object.hasOwn(hookPayloadSchemas, name);
}

export type ParsedPayload =
  | { ok: true; payload: HookPayload & Record<string, unknown> }
  | { ok: false; message: string };

/** Validates a payload for `event`; the message names the first bad fields. */
export function parseHookPayload(event: KnownHookEvent, body: unknown): ParsedPayload {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: `the ${event} payload must be a JSON object` };
  }
  const parsed = hookPayloadSchemas[event].safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
    return { ok: false, message: `invalid ${event} payload: ${problems.join('; ')}` };
  }
  if (parsed.data.hook_event_name !== event) {
    return {
      ok: false,
      message: `hook_event_name "${parsed.data.hook_event_name}" does not match the endpoint /hooks/${event}`,
    };
  }
  return { ok: true, payload: parsed.data as HookPayload & Record<string, unknown> };
}
