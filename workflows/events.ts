// What the engine evaluates: one case per hook event, each with exactly the fields that
// event carries. The hooks/ adapter builds these from Claude Code's payloads; an MCP
// server or a step runner can build them too, without speaking Claude Code's JSON.
// `switch (event.name)` over this union is checked for exhaustiveness (assertNever), so a
// new event cannot fall through a silent default.

/** Set when the event fired inside a subagent (Claude Code's agent_id / agent_type). */
export interface SubagentRef {
  readonly id: string;
  readonly type?: string | undefined;
}

interface ToolEventFields {
  readonly toolName: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
  readonly toolUseId?: string | undefined;
  readonly agent?: SubagentRef | undefined;
}

export type EngineEvent =
  | { readonly name: 'SessionStart'; readonly source: string }
  | { readonly name: 'UserPromptSubmit'; readonly prompt: string }
  | ({ readonly name: 'PreToolUse' } & ToolEventFields)
  | ({ readonly name: 'PostToolUse'; readonly toolResponse?: unknown } & ToolEventFields)
  | ({ readonly name: 'PostToolUseFailure'; readonly error: string; readonly isInterrupt: boolean } & ToolEventFields)
  | {
      readonly name: 'Stop';
      /** True when this Stop follows a Stop that a hook blocked (Claude Code's loop guard bit). */
      readonly stopHookActive: boolean;
      /** What the model ended its turn with; older Claude Code builds omit it. */
      readonly lastAssistantMessage?: string | undefined;
    }
  | { readonly name: 'SubagentStart'; readonly agent: SubagentRef }
  | {
      readonly name: 'SubagentStop';
      readonly agent: SubagentRef;
      readonly stopHookActive: boolean;
      readonly lastAssistantMessage?: string | undefined;
    }
  | { readonly name: 'PreCompact'; readonly trigger?: string | undefined }
  | {
      readonly name: 'ConfigChange';
      /** Which settings changed: user_settings, project_settings, local_settings, policy_settings or skills. */
      readonly source: string;
      readonly filePath?: string | undefined;
    }
  | { readonly name: 'SessionEnd'; readonly reason: string };

export type EngineEventName = EngineEvent['name'];

/** The tool events: the ones a phase's tool policy and rules look at. */
export type ToolEvent = Extract<EngineEvent, { readonly toolName: string }>;

export function isToolEvent(event: EngineEvent): event is ToolEvent {
  return event.name === 'PreToolUse' || event.name === 'PostToolUse' || event.name === 'PostToolUseFailure';
}

/**
 * Which session an event belongs to and where it happened. Not the engine's business
 * (it never reads it), but every boundary hands it to the service with the event.
 */
export interface EventOrigin {
  readonly sessionId: string;
  readonly cwd: string;
  readonly transcriptPath?: string | undefined;
  readonly permissionMode?: string | undefined;
  /** How the session's hooks fail when the daemon cannot answer, when the hook said so (the SessionStart client does). */
  readonly failureMode?: 'strict' | 'lenient' | undefined;
}

/** Compile-time proof that a switch over a union handled every case. */
export function assertNever(value: never, what: string): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}
