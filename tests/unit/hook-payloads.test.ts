// The hooks/ adapter: Claude Code's payload for each event becomes exactly one typed engine
// event, with every field the engine and the service need; anything else is refused with
// the field named.
import { describe, expect, it } from 'vitest';
import { isKnownHookEvent, parseHookEvent } from '../../hooks/payloads.js';
import { renderHookAnswer } from '../../hooks/render.js';
import type { EngineEvent, EngineEventName } from '../../workflows/index.js';

const SESSION = '4b1d7c62-0c3e-4f57-9a0e-1f2e3d4c5b6a';
const base = (event: string) => ({
  session_id: SESSION,
  transcript_path: `/home/u/.claude/projects/-p/${SESSION}.jsonl`,
  cwd: '/home/u/p',
  hook_event_name: event,
  permission_mode: 'default',
});

const cases: [EngineEventName, Record<string, unknown>, EngineEvent][] = [
  ['SessionStart', { source: 'resume', model: 'claude-sonnet-4-5' }, { name: 'SessionStart', source: 'resume' }],
  ['SessionStart', {}, { name: 'SessionStart', source: 'startup' }],
  ['UserPromptSubmit', { prompt: 'yes', prompt_id: 'p1' }, { name: 'UserPromptSubmit', prompt: 'yes' }],
  [
    'PreToolUse',
    { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' },
    { name: 'PreToolUse', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: 'toolu_1', agent: undefined },
  ],
  [
    'PreToolUse',
    { tool_name: 'Read', tool_input: { file_path: '/x' }, agent_id: 'a7', agent_type: 'Explore' },
    { name: 'PreToolUse', toolName: 'Read', toolInput: { file_path: '/x' }, toolUseId: undefined, agent: { id: 'a7', type: 'Explore' } },
  ],
  [
    'PostToolUse',
    { tool_name: 'Write', tool_input: { file_path: '/x' }, tool_use_id: 't2', tool_response: { type: 'create', filePath: '/x' } },
    {
      name: 'PostToolUse',
      toolName: 'Write',
      toolInput: { file_path: '/x' },
      toolUseId: 't2',
      agent: undefined,
      toolResponse: { type: 'create', filePath: '/x' },
    },
  ],
  [
    'PostToolUseFailure',
    { tool_name: 'Bash', tool_input: { command: 'false' }, tool_use_id: 't3', error: 'Exit code 1', is_interrupt: false },
    { name: 'PostToolUseFailure', toolName: 'Bash', toolInput: { command: 'false' }, toolUseId: 't3', agent: undefined, error: 'Exit code 1', isInterrupt: false },
  ],
  [
    'Stop',
    { stop_hook_active: true, last_assistant_message: 'Done. Ready?', background_tasks: [] },
    { name: 'Stop', stopHookActive: true, lastAssistantMessage: 'Done. Ready?' },
  ],
  ['Stop', {}, { name: 'Stop', stopHookActive: false, lastAssistantMessage: undefined }],
  ['SubagentStart', { agent_id: 'a1', agent_type: 'Plan' }, { name: 'SubagentStart', agent: { id: 'a1', type: 'Plan' } }],
  [
    'SubagentStop',
    { agent_id: 'a1', agent_type: 'Plan', stop_hook_active: false, last_assistant_message: 'found it' },
    { name: 'SubagentStop', agent: { id: 'a1', type: 'Plan' }, stopHookActive: false, lastAssistantMessage: 'found it' },
  ],
  ['PreCompact', { trigger: 'auto', custom_instructions: null }, { name: 'PreCompact', trigger: 'auto' }],
  ['ConfigChange', { source: 'local_settings', file_path: '/p/.claude/settings.local.json' }, { name: 'ConfigChange', source: 'local_settings', filePath: '/p/.claude/settings.local.json' }],
  ['ConfigChange', { source: 'skills' }, { name: 'ConfigChange', source: 'skills', filePath: undefined }],
  ['SessionEnd', { reason: 'prompt_input_exit' }, { name: 'SessionEnd', reason: 'prompt_input_exit' }],
];

describe('parseHookEvent', () => {
  it.each(cases)('%s %j', (name, fields, expected) => {
    const parsed = parseHookEvent(name, { ...base(name), ...fields });
    expect(parsed).toEqual({
      ok: true,
      origin: { sessionId: SESSION, cwd: '/home/u/p', transcriptPath: `/home/u/.claude/projects/-p/${SESSION}.jsonl`, permissionMode: 'default' },
      event: expected,
    });
  });

  it.each<[EngineEventName, unknown, string]>([
    ['PreToolUse', [], 'the PreToolUse payload must be a JSON object'],
    ['PreToolUse', { ...base('PreToolUse'), tool_input: {} }, 'invalid PreToolUse payload: tool_name:'],
    ['UserPromptSubmit', { ...base('UserPromptSubmit'), prompt: 42 }, 'invalid UserPromptSubmit payload: prompt:'],
    ['Stop', { ...base('Stop'), stop_hook_active: { nested: true } }, 'invalid Stop payload: stop_hook_active:'],
    ['SubagentStart', base('SubagentStart'), 'invalid SubagentStart payload: agent_id:'],
    ['Stop', { ...base('PreToolUse') }, 'hook_event_name "PreToolUse" does not match the endpoint /hooks/Stop'],
    ['SessionStart', { ...base('SessionStart'), source: 'startup', cwd: 'relative/dir' }, 'invalid SessionStart payload: cwd: must be an absolute path'],
    ['PreToolUse', { ...base('PreToolUse'), tool_name: 'Read', cwd: '/home/u/p\u0000x' }, 'invalid PreToolUse payload: cwd: must be an absolute path'],
  ])('refuses a bad %s payload', (name, body, message) => {
    const parsed = parseHookEvent(name, body);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toContain(message);
  });

  it('knows the events gobby installs and no others', () => {
    expect(cases.every(([name]) => isKnownHookEvent(name))).toBe(true);
    for (const other of ['Notification', 'PermissionRequest', 'toString', '__proto__', 'pretooluse']) expect(isKnownHookEvent(other)).toBe(false);
  });
});

describe('renderHookAnswer', () => {
  const deny = { kind: 'deny', reason: 'not now', because: 'test' } as const;
  const context = { kind: 'allow', context: 'phase plan', because: 'test' } as const;

  it('denies a tool call in the shape Claude Code honours', () => {
    expect(renderHookAnswer('PreToolUse', deny)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not now' },
    });
  });

  it('blocks a prompt or a stop with the top-level decision', () => {
    expect(renderHookAnswer('UserPromptSubmit', deny)).toEqual({ decision: 'block', reason: 'not now' });
    expect(renderHookAnswer('Stop', deny)).toEqual({ decision: 'block', reason: 'not now' });
  });

  it('never attaches context to a Stop: that would make the agent continue', () => {
    expect(renderHookAnswer('Stop', context)).toEqual({});
    expect(renderHookAnswer('UserPromptSubmit', context)).toEqual({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'phase plan' },
    });
  });

  it('answers nothing to say with an empty object', () => {
    expect(renderHookAnswer('PreToolUse', null)).toEqual({});
    expect(renderHookAnswer('PreToolUse', { kind: 'allow', because: 'ok' })).toEqual({});
  });
});
