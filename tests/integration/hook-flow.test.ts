// The hot path as Claude Code drives it: hook events in, Claude Code's hook JSON out,
// with the built-in plan-execute workflow chosen for the project through the control API.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastDecisionFor, TestDaemon, type Json } from './test-daemon.js';

let t: TestDaemon;
beforeEach(() => {
  t = TestDaemon.create();
});
afterEach(async () => {
  await t.dispose();
});

async function startPlanExecuteSession(): Promise<{ session: string; start: Json }> {
  const set = await t.setWorkflow('plan-execute');
  expect(set.status).toBe(200);
  const session = t.newSessionId();
  const start = await t.sessionStart(session);
  expect(start.status).toBe(200);
  return { session, start: start.body };
}

/** A PreToolUse deny; a refusal on gobby's own ground may carry a notice for the user (systemMessage). */
function expectDeny(body: Json): string {
  const { systemMessage, ...answer } = body;
  expect(answer).toEqual({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.any(String) },
  });
  if (systemMessage !== undefined) expect(systemMessage).toMatch(/^gobby refused an attempt by the agent on gobby's own ground/);
  return body.hookSpecificOutput.permissionDecisionReason as string;
}

describe('plan-execute through the hooks', () => {
  it('SessionStart injects the plan phase instructions as additionalContext', async () => {
    const { start } = await startPlanExecuteSession();
    expect(start.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const context = start.hookSpecificOutput.additionalContext as string;
    expect(context).toContain('PLANNING phase');
    expect(context).toContain('phase `plan`');
    expect(context).toContain('reply with a concise, numbered implementation plan');
    expect(context).toContain('Plan complete. Ready to implement?');
    // Nothing else at the top level: no decision, no permission verdict.
    expect(Object.keys(start)).toEqual(['hookSpecificOutput']);
  });

  it.each([
    ['Write', { file_path: 'src/a.ts', content: 'x' }],
    ['Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }],
    ['NotebookEdit', { notebook_path: 'n.ipynb', new_source: 'print(1)' }],
    ['Bash', { command: 'npm test', description: 'run tests' }],
  ])('denies %s in the plan phase with a reason that names the phase and the way on', async (tool, input) => {
    const { session } = await startPlanExecuteSession();
    const reply = await t.preToolUse(session, tool, input);
    expect(reply.status).toBe(200);
    const reason = expectDeny(reply.body);
    // The first words say it is the workflow's rule, not a failure (Claude Code shows it after "hook error:").
    expect(reason).toMatch(new RegExp(`^Workflow rule \\(plan-execute, phase plan\\): ${tool} is not allowed in this phase\\.`));
    expect(reason).toContain('Plan complete. Ready to implement?');
    expect(reason).toContain('`execute`');

    const status = await t.status();
    const row = lastDecisionFor(status.body, 'PreToolUse');
    expect(row).toMatchObject({ tool, decision: 'deny', phase: 'plan', because: 'phase plan: blocked_tools', reason, actor: 'claude-code' });
    expect(status.body.action_counts.blocked).toBe(1);
  });

  it('answers an allowed tool with {} so the user keeps their own permission prompts', async () => {
    const { session } = await startPlanExecuteSession();
    for (const [tool, input] of [
      ['Read', { file_path: join(t.project, 'README.md') }],
      ['Grep', { pattern: 'TODO' }],
      ['Glob', { pattern: '**/*.ts' }],
    ] as const) {
      const reply = await t.preToolUse(session, tool, input);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({});
      expect(reply.text).not.toContain('allow');
    }
  });

  it('walks plan → approval → execute the way a user would see it', async () => {
    const { session } = await startPlanExecuteSession();
    expect((await t.prompt(session, 'Add a --verbose flag')).body.hookSpecificOutput.additionalContext).toContain('phase `plan`');
    expect((await t.preToolUse(session, 'Read', { file_path: 'src/cli.ts' })).body).toEqual({});
    expect((await t.postToolUse(session, 'Read', { file_path: 'src/cli.ts' })).body).toEqual({});
    expectDeny((await t.preToolUse(session, 'Write', { file_path: 'src/cli.ts', content: '' })).body);

    // The agent presents the plan and ends its turn: gobby lets it stop, waits for the user,
    // and tells the user (only) the words that answer.
    const stop = await t.stop(session);
    expect(stop.status).toBe(200);
    expect(stop.body).toEqual({ systemMessage: expect.stringContaining('gobby: plan-execute waits for your approval to leave `plan`') });
    let status = (await t.status()).body;
    expect(status.phase).toBe('plan');
    expect(status.pending_approval).toMatchObject({ phase: 'plan', prompt: 'Plan complete. Ready to implement?' });

    // The user says yes: the prompt's context carries the execute instructions.
    const yes = await t.prompt(session, 'yes, go ahead');
    expect(yes.body.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(yes.body.systemMessage).toBe('gobby: plan-execute moved from phase `plan` to `execute`: you approved.');
    const context = yes.body.hookSpecificOutput.additionalContext as string;
    expect(context).toContain('EXECUTION phase');
    expect(context).toContain('phase `execute`');
    expect(context).toContain('Implement it step by step');
    status = (await t.status()).body;
    expect(status.phase).toBe('execute');
    expect(status.pending_approval).toBeNull();
    expect(status.tools_summary).toBe('all tools');

    // Now files may change; still no permissionDecision, so the user's prompts apply.
    expect((await t.preToolUse(session, 'Write', { file_path: 'src/cli.ts', content: 'x' })).body).toEqual({});
    expect((await t.postToolUse(session, 'Write', { file_path: 'src/cli.ts', content: 'x' })).body).toEqual({});
    expect((await t.preToolUse(session, 'Bash', { command: 'npm test' })).body).toEqual({});
    expect((await t.postToolUse(session, 'Bash', { command: 'npm test' })).body).toEqual({});

    status = (await t.status()).body;
    // One Read in plan, Write and Bash in execute.
    expect(status.action_counts).toEqual({ phase: 2, total: 3, blocked: 1 });

    const rows = t.auditRows(session);
    const phaseChange = rows.find((row) => row.event === 'phase_changed' && row.phase === 'execute');
    expect(phaseChange?.because).toContain('plan → execute: user approved');
    expect(rows.some((row) => row.event === 'approval_requested' && row.phase === 'plan')).toBe(true);
  });

  it('does not move on a "yes" that answers nothing (no approval pending)', async () => {
    const { session } = await startPlanExecuteSession();
    const reply = await t.prompt(session, 'yes');
    expect(reply.body.hookSpecificOutput.additionalContext).toContain('phase `plan`');
    expect((await t.status()).body.phase).toBe('plan');
  });

  it('keeps planning when the user declines, and tells the agent so', async () => {
    const { session } = await startPlanExecuteSession();
    await t.stop(session);
    const no = await t.prompt(session, 'no, also handle the config file');
    const context = no.body.hookSpecificOutput.additionalContext as string;
    expect(context).toContain('did not approve');
    const status = (await t.status()).body;
    expect(status.phase).toBe('plan');
    expect(status.pending_approval).toBeNull();
    expectDeny((await t.preToolUse(session, 'Edit', { file_path: 'a', old_string: 'a', new_string: 'b' })).body);
  });

  it('counts every tool result, failed ones included', async () => {
    const { session } = await startPlanExecuteSession();
    await t.postToolUse(session, 'Read', { file_path: 'a' });
    await t.postToolUse(session, 'Grep', { pattern: 'x' });
    await t.hook('PostToolUseFailure', session, {
      tool_name: 'Read',
      tool_input: { file_path: 'missing' },
      tool_use_id: 'toolu_fail',
      error: 'File does not exist.',
      is_interrupt: false,
    });
    expect((await t.status()).body.action_counts).toEqual({ phase: 3, total: 3, blocked: 0 });
  });

  it('tells a subagent the phase it works in at SubagentStart', async () => {
    const { session } = await startPlanExecuteSession();
    const answer = (await t.hook('SubagentStart', session, { agent_id: 'a1', agent_type: 'Explore' })).body;
    expect(answer.hookSpecificOutput.hookEventName).toBe('SubagentStart');
    expect(answer.hookSpecificOutput.additionalContext).toContain('is in phase `plan`');
    expect(answer.hookSpecificOutput.additionalContext).toContain('Tools allowed in this phase: Read');
  });

  it('writes one audit row per hook event, and deny rows name the rule', async () => {
    const { session } = await startPlanExecuteSession();
    const sent: string[] = ['SessionStart'];
    const steps: [string, () => Promise<unknown>][] = [
      ['UserPromptSubmit', () => t.prompt(session, 'Plan a refactor')],
      ['PreToolUse', () => t.preToolUse(session, 'Read', { file_path: 'a.ts' })],
      ['PostToolUse', () => t.postToolUse(session, 'Read', { file_path: 'a.ts' })],
      ['PreToolUse', () => t.preToolUse(session, 'Edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b' })],
      ['SubagentStart', () => t.hook('SubagentStart', session, { agent_id: 'a1', agent_type: 'Explore' })],
      ['SubagentStop', () => t.hook('SubagentStop', session, { agent_id: 'a1', agent_type: 'Explore', stop_hook_active: false })],
      ['PreCompact', () => t.hook('PreCompact', session, { trigger: 'auto', custom_instructions: null })],
      ['Stop', () => t.stop(session)],
    ];
    for (const [event, send] of steps) {
      await send();
      sent.push(event);
      const status = (await t.status()).body;
      expect(lastDecisionFor(status, event)).toBeDefined();
    }
    const hookRows = t.auditRows(session).filter((row) => row.actor === 'claude-code' && /^[A-Z]/.test(row.event));
    expect(hookRows.map((row) => row.event)).toEqual(sent);
    const denies = hookRows.filter((row) => row.decision === 'deny');
    expect(denies).toEqual([
      expect.objectContaining({ event: 'PreToolUse', tool: 'Edit', phase: 'plan', because: 'phase plan: blocked_tools' }),
    ]);
    expect(denies[0]!.reason).toContain('Edit is not allowed');
    // SessionStart and prompts carry context; the rest are plain allows.
    expect(hookRows.find((row) => row.event === 'SessionStart')?.decision).toBe('context');
    expect(hookRows.find((row) => row.event === 'UserPromptSubmit')?.decision).toBe('context');
    expect(hookRows.find((row) => row.event === 'Stop')?.decision).toBe('allow');
    expect(hookRows.find((row) => row.event === 'SubagentStart')?.decision).toBe('context');
    const counts = (await t.status()).body.decision_counts;
    expect(counts.deny).toBe(1);
  });

  it('answers an event gobby does not handle with {} and 200', async () => {
    const { session } = await startPlanExecuteSession();
    const reply = await t.hook('Notification', session, { message: 'Claude needs your permission', notification_type: 'permission_prompt' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({});
    const other = await t.hook('PostToolBatch', session, { tool_calls: [] });
    expect(other.status).toBe(200);
    expect(other.body).toEqual({});
  });

  it('marks the session ended on SessionEnd, and a resumed session is active again', async () => {
    const { session } = await startPlanExecuteSession();
    const end = await t.hook('SessionEnd', session, { reason: 'prompt_input_exit' });
    expect(end.status).toBe(200);
    expect(end.body).toEqual({});
    let status = (await t.status()).body;
    expect(status.session.ended_at).not.toBeNull();
    expect(status.session.end_reason).toBe('prompt_input_exit');
    expect((await t.api('GET', '/api/daemon')).body.active_sessions).toBe(0);

    const resumed = await t.sessionStart(session, t.project, 'resume');
    expect(resumed.body.hookSpecificOutput.additionalContext).toContain('phase `plan`');
    status = (await t.status()).body;
    expect(status.session.ended_at).toBeNull();
    expect(status.phase).toBe('plan');
  });
});

describe('projects without a workflow', () => {
  it('answers {} to every event of a session whose project has no workflow', async () => {
    const session = t.newSessionId();
    expect((await t.sessionStart(session)).body).toEqual({});
    expect((await t.prompt(session, 'hello')).body).toEqual({});
    expect((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body).toEqual({});
    expect((await t.preToolUse(session, 'Bash', { command: 'rm -rf build' })).body).toEqual({});
    expect((await t.postToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body).toEqual({});
    expect((await t.stop(session)).body).toEqual({});
    const status = (await t.status()).body;
    expect(status.workflow).toBeNull();
    expect(status.phase).toBeNull();
    expect(lastDecisionFor(status, 'PreToolUse')).toMatchObject({ decision: 'none', because: 'no workflow for this session' });
  });

  it('starts the workflow for a running session when `gobby workflow set` is run', async () => {
    const session = t.newSessionId();
    await t.sessionStart(session);
    expect((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body).toEqual({});

    const set = await t.setWorkflow('plan-execute');
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ project: t.project, workflow: 'plan-execute', started_sessions: [session] });
    expect(set.body.definition.tier).toBe('builtin');
    const status = (await t.status()).body;
    expect(status.workflow).toBe('plan-execute');
    expect(status.phase).toBe('plan');

    // The next prompt tells the agent about the phase it is now in; Write is refused.
    const prompt = await t.prompt(session, 'continue');
    expect(prompt.body.hookSpecificOutput.additionalContext).toContain('PLANNING phase');
    expectDeny((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body);
  });

  it('a subdirectory cwd belongs to the git root project', async () => {
    await t.setWorkflow('plan-execute');
    const session = t.newSessionId();
    const sub = join(t.project, 'packages', 'core');
    await t.sessionStart(session, sub);
    expectDeny((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' }, sub)).body);
    expect((await t.status(sub)).body.project).toBe(t.project);
  });
});

describe('human-only guards', () => {
  it.each([
    'gobby workflow phase execute --force --reason "plan is fine"',
    'cd /tmp && gobby workflow disable --reason x',
    'npx gobby workflow reset --reason "start over"',
  ])('denies the agent running `%s`, even without a workflow', async (command) => {
    const session = t.newSessionId();
    await t.sessionStart(session);
    const reply = await t.preToolUse(session, 'Bash', { command });
    const reason = expectDeny(reply.body);
    expect(reason).toContain('only the user may run it');
    const status = (await t.status()).body;
    expect(lastDecisionFor(status, 'PreToolUse')).toMatchObject({ decision: 'deny', because: 'guard: human-only override' });
  });

  it('denies the override in the execute phase too, where Bash is otherwise allowed', async () => {
    const { session } = await startPlanExecuteSession();
    await t.stop(session);
    await t.prompt(session, 'yes');
    expect((await t.preToolUse(session, 'Bash', { command: 'ls' })).body).toEqual({});
    expectDeny((await t.preToolUse(session, 'Bash', { command: 'gobby workflow phase plan --force --reason r' })).body);
  });

  it("tells the user about the first attempt on gobby's own ground, and records every one", async () => {
    const { session } = await startPlanExecuteSession();
    const first = (await t.preToolUse(session, 'Read', { file_path: t.layout.token })).body;
    expectDeny(first);
    expect(first.systemMessage).toContain('control token');
    const second = (await t.preToolUse(session, 'Read', { file_path: t.layout.token })).body;
    expectDeny(second);
    expect(second.systemMessage).toBeUndefined();
    expect(t.auditRows(session).filter((row) => row.event === 'tamper:secret')).toHaveLength(2);
    expect((await t.status()).body.action_counts.blocked).toBe(2);
  });

  it('still lets the agent run read-only gobby commands', async () => {
    const session = t.newSessionId();
    await t.sessionStart(session);
    expect((await t.preToolUse(session, 'Bash', { command: 'gobby workflow status' })).body).toEqual({});
  });

  it('denies reading or touching the control token file', async () => {
    const session = t.newSessionId();
    await t.sessionStart(session);
    const read = expectDeny((await t.preToolUse(session, 'Read', { file_path: t.layout.token })).body);
    expect(read).toContain('control token');
    expectDeny((await t.preToolUse(session, 'Bash', { command: `cat ${t.layout.token}` })).body);
    expectDeny((await t.preToolUse(session, 'Grep', { pattern: '.', path: t.layout.token })).body);
    // Spelled through ~ or a variable, the path still ends in <home folder>/token.
    const tail = t.layout.token.split('/').slice(-2).join('/');
    expectDeny((await t.preToolUse(session, 'Bash', { command: `cat ~/${tail}` })).body);
  });

  it('keeps the token guard when enforcement is disabled', async () => {
    const { session } = await startPlanExecuteSession();
    const disabled = await t.api('POST', '/api/sessions/disable', { cwd: t.project, reason: 'debugging' });
    expect(disabled.status).toBe(200);
    expect((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body).toEqual({});
    expectDeny((await t.preToolUse(session, 'Read', { file_path: t.layout.token })).body);
  });
});
