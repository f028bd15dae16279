// Claude Code's hook payloads (design/claude-code-hooks.md §4) → the engine's typed events.
// This is the only place that knows Claude Code's field names: each event has a zod
// schema and a function that builds its engine event from the parsed data, so every field
// is checked once, here, and nothing downstream re-reads the raw payload.
// Objects are loose: Claude Code adds fields between versions, and a field gobby does not
// read must never make a hook fail.
import { z } from 'zod';
import type { EngineEvent, EngineEventName, EventOrigin, SubagentRef } from '../workflows/index.js';
import { describeZodIssues } from '../workflows/zod-issues.js';

const common = {
  session_id: z.string().min(1).max(200),
  transcript_path: z.string().optional(),
  // Claude Code sends the absolute path it runs in; a relative one would be taken against the daemon's own folder.
  cwd: z.string().max(4096).regex(/^\/[^\0]*$/, 'must be an absolute path (without NUL characters), as Claude Code sends it'),
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

type CommonFields = { agent_id?: string | undefined; agent_type?: string | undefined };
type ToolCallFields = CommonFields & { tool_name: string; tool_input: Record<string, unknown>; tool_use_id?: string | undefined };

function subagentOf(data: CommonFields): SubagentRef | undefined {
  return data.agent_id ? { id: data.agent_id, type: data.agent_type } : undefined;
}

function toolFields(data: ToolCallFields) {
  return { toolName: data.tool_name, toolInput: data.tool_input, toolUseId: data.tool_use_id, agent: subagentOf(data) };
}

/** One event's schema and how its parsed data becomes an engine event. */
interface HookEventDefinition<Name extends EngineEventName> {
  parse(body: object): { ok: true; data: z.infer<z.ZodObject<typeof common>>; event: Extract<EngineEvent, { name: Name }> } | { ok: false; issues: z.core.$ZodIssue[] };
}

function defineEvent<Name extends EngineEventName, Schema extends z.ZodType<z.infer<z.ZodObject<typeof common>>>>(
  schema: Schema,
  toEvent: (data: z.infer<Schema>) => Extract<EngineEvent, { name: Name }>,
): HookEventDefinition<Name> {
  return {
    parse(body) {
      const parsed = schema.safeParse(body);
      if (!parsed.success) return { ok: false, issues: parsed.error.issues };
      return { ok: true, data: parsed.data, event: toEvent(parsed.data) };
    },
  };
}

const HOOK_EVENTS: { readonly [Name in EngineEventName]: HookEventDefinition<Name> } = {
  SessionStart: defineEvent(z.looseObject({ ...common, source: z.string().optional() }), (data) => ({
    name: 'SessionStart',
    source: data.source ?? 'startup',
  })),
  UserPromptSubmit: defineEvent(z.looseObject({ ...common, prompt: z.string() }), (data) => ({
    name: 'UserPromptSubmit',
    prompt: data.prompt,
  })),
  PreToolUse: defineEvent(z.looseObject(toolCall), (data) => ({ name: 'PreToolUse', ...toolFields(data) })),
  PostToolUse: defineEvent(z.looseObject({ ...toolCall, tool_response: z.unknown().optional() }), (data) => ({
    name: 'PostToolUse',
    ...toolFields(data),
    toolResponse: data.tool_response,
  })),
  PostToolUseFailure: defineEvent(
    z.looseObject({ ...toolCall, error: z.string().optional(), is_interrupt: z.boolean().optional() }),
    (data) => ({ name: 'PostToolUseFailure', ...toolFields(data), error: data.error ?? '', isInterrupt: data.is_interrupt ?? false }),
  ),
  Stop: defineEvent(
    z.looseObject({ ...common, stop_hook_active: z.boolean().optional(), last_assistant_message: z.string().optional() }),
    (data) => ({ name: 'Stop', stopHookActive: data.stop_hook_active ?? false, lastAssistantMessage: data.last_assistant_message }),
  ),
  SubagentStart: defineEvent(z.looseObject({ ...common, agent_id: z.string().min(1) }), (data) => ({
    name: 'SubagentStart',
    agent: { id: data.agent_id, type: data.agent_type },
  })),
  SubagentStop: defineEvent(
    z.looseObject({
      ...common,
      agent_id: z.string().min(1),
      stop_hook_active: z.boolean().optional(),
      last_assistant_message: z.string().optional(),
    }),
    (data) => ({
      name: 'SubagentStop',
      agent: { id: data.agent_id, type: data.agent_type },
      stopHookActive: data.stop_hook_active ?? false,
      lastAssistantMessage: data.last_assistant_message,
    }),
  ),
  PreCompact: defineEvent(z.looseObject({ ...common, trigger: z.string().optional() }), (data) => ({
    name: 'PreCompact',
    trigger: data.trigger,
  })),
  ConfigChange: defineEvent(z.looseObject({ ...common, source: z.string(), file_path: z.string().optional() }), (data) => ({
    name: 'ConfigChange',
    source: data.source,
    filePath: data.file_path,
  })),
  SessionEnd: defineEvent(z.looseObject({ ...common, reason: z.string().optional() }), (data) => ({
    name: 'SessionEnd',
    reason: data.reason ?? 'other',
  })),
};

export function isKnownHookEvent(name: string): name is EngineEventName {
  return Object.hasOwn(HOOK_EVENTS, name);
}

export type ParsedHookEvent =
  | { readonly ok: true; readonly origin: EventOrigin; readonly event: EngineEvent }
  | { readonly ok: false; readonly message: string };

/** Validates a payload for the endpoint's event; the message names the first bad fields. */
export function parseHookEvent(name: EngineEventName, body: unknown): ParsedHookEvent {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: `the ${name} payload must be a JSON object` };
  }
  const parsed = HOOK_EVENTS[name].parse(body);
  if (!parsed.ok) {
    return { ok: false, message: `invalid ${name} payload: ${describeZodIssues(parsed.issues, '(body)', 5)}` };
  }
  const { data } = parsed;
  if (data.hook_event_name !== name) {
    return { ok: false, message: `hook_event_name "${data.hook_event_name}" does not match the endpoint /hooks/${name}` };
  }
  return {
    ok: true,
    origin: { sessionId: data.session_id, cwd: data.cwd, transcriptPath: data.transcript_path, permissionMode: data.permission_mode },
    event: parsed.event,
  };
}
