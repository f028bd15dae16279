// What the daemon does with input it should not trust: broken hook bodies, oversized
// bodies, and broken workflow files in a project. It answers with a clear error and
// keeps serving.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookPayload, TestDaemon, writeProjectWorkflow, type Json } from './test-daemon.js';

let t: TestDaemon;
beforeEach(() => {
  t = TestDaemon.create();
});
afterEach(async () => {
  await t.dispose();
});

function postRaw(event: string, payload: string | Buffer | object, contentType = 'application/json') {
  return t.inject({
    method: 'POST',
    url: `/hooks/${event}`,
    headers: { host: '127.0.0.1:4517', 'content-type': contentType },
    payload: payload as string,
  });
}

function expectError(reply: { status: number; body: Json }, status: number, code: string): string {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({ error: { code, message: expect.any(String) } });
  return reply.body.error.message as string;
}

async function expectStillServing(session: string): Promise<void> {
  const reply = await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' });
  expect(reply.status).toBe(200);
  expect(reply.body.hookSpecificOutput.permissionDecision).toBe('deny');
}

async function startedSession(): Promise<string> {
  await t.setWorkflow('plan-execute');
  const session = t.newSessionId();
  await t.sessionStart(session);
  return session;
}

describe('malformed hook bodies', () => {
  it('answers malformed JSON with 400, a code and a message about JSON, and keeps serving', async () => {
    const session = await startedSession();
    for (const body of ['{"session_id": "abc", ', '{session_id: abc}', 'not json at all', '{"a":1}}']) {
      const reply = await postRaw('PreToolUse', body);
      const message = expectError(reply, 400, 'GOBBY_ERR_HTTP_BAD_REQUEST');
      expect(message).toMatch(/JSON/);
    }
    await expectStillServing(session);
  });

  it('answers an empty JSON body with 400', async () => {
    const session = await startedSession();
    const reply = await postRaw('PreToolUse', '');
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toMatch(/^GOBBY_ERR_/);
    await expectStillServing(session);
  });

  it('names the missing fields of an incomplete payload', async () => {
    const reply = await postRaw('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'Write' });
    const message = expectError(reply, 400, 'GOBBY_ERR_HOOK_INVALID_PAYLOAD');
    expect(message).toContain('session_id');
    expect(message).toContain('cwd');
    expect(message).not.toContain('tool_name');

    const noTool = await postRaw('PreToolUse', hookPayload('PreToolUse', 's-1', t.project, { tool_input: { file_path: 'a' } }));
    expect(expectError(noTool, 400, 'GOBBY_ERR_HOOK_INVALID_PAYLOAD')).toContain('tool_name');

    const noPrompt = await postRaw('UserPromptSubmit', hookPayload('UserPromptSubmit', 's-1', t.project));
    expect(expectError(noPrompt, 400, 'GOBBY_ERR_HOOK_INVALID_PAYLOAD')).toContain('prompt');
    // Nothing was recorded for the rejected events.
    expectError(await t.status(), 404, 'GOBBY_ERR_SESSION_NONE_IN_PROJECT');
  });

  it('rejects fields of the wrong type', async () => {
    for (const fields of [
      { session_id: 42 },
      { cwd: '' },
      { cwd: 'relative/dir' },
      { tool_input: 'rm -rf /' },
      { session_id: 's'.repeat(201) },
    ]) {
      const body = { ...hookPayload('PreToolUse', 's-1', t.project, { tool_name: 'Bash', tool_input: { command: 'ls' } }), ...fields };
      const reply = await postRaw('PreToolUse', body);
      const message = expectError(reply, 400, 'GOBBY_ERR_HOOK_INVALID_PAYLOAD');
      expect(message).toContain(Object.keys(fields)[0]!);
    }
  });

  it('accepts fields it does not know (newer Claude Code versions add some)', async () => {
    const session = await startedSession();
    const reply = await postRaw(
      'PreToolUse',
      hookPayload('PreToolUse', session, t.project, {
        tool_name: 'Write',
        tool_input: { file_path: 'a', content: 'b' },
        tool_use_id: 'toolu_1',
        effort: { level: 'high' },
        prompt_id: '4b1c…',
        some_future_field: [1, 2, 3],
      }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('rejects a hook_event_name that does not match the URL', async () => {
    const session = await startedSession();
    const body = hookPayload('PostToolUse', session, t.project, { tool_name: 'Write', tool_input: { file_path: 'a' } });
    const message = expectError(await postRaw('PreToolUse', body), 400, 'GOBBY_ERR_HOOK_INVALID_PAYLOAD');
    expect(message).toContain('PostToolUse');
    expect(message).toContain('/hooks/PreToolUse');
    await expectStillServing(session);
  });

  it.each([
    ['an array', '[{"session_id":"s-1"}]'],
    ['a string', '"hello"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('rejects %s as the body', async (_what, body) => {
    const reply = await postRaw('PreToolUse', body);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('GOBBY_ERR_HOOK_INVALID_PAYLOAD');
    expect(reply.body.error.message).toContain('JSON object');
  });

  it('answers a body over the limit with 413 GOBBY_ERR_HTTP_TOO_LARGE and keeps serving', async () => {
    const session = await startedSession();
    const huge = JSON.stringify(
      hookPayload('PreToolUse', session, t.project, { tool_name: 'Write', tool_input: { file_path: 'big.txt', content: 'x'.repeat(1024 * 1024) } }),
    );
    const reply = await postRaw('PreToolUse', huge);
    const message = expectError(reply, 413, 'GOBBY_ERR_HTTP_TOO_LARGE');
    expect(message).toContain(String(1024 * 1024));
    await expectStillServing(session);
  });

  it('takes a large Write under the limit but keeps whole file contents out of the audit log', async () => {
    const session = await startedSession();
    await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'execute' });
    const content = 'y'.repeat(600 * 1024);
    const reply = await t.preToolUse(session, 'Write', { file_path: 'big.txt', content });
    expect(reply.status).toBe(200);
    // Allowed (no verdict); the user is told of the override that moved the phase.
    expect(reply.body).toEqual({ systemMessage: expect.stringContaining('moved from phase `plan` to `execute`: by an override') });
    const row = t.daemon.store.db
      .prepare(`SELECT detail_json FROM audit_log WHERE session_id = ? AND event = 'PreToolUse' ORDER BY id DESC LIMIT 1`)
      .get(session) as { detail_json: string };
    expect(row.detail_json.length).toBeLessThan(2000);
    expect(JSON.parse(row.detail_json)).toMatchObject({ file_path: 'big.txt' });
  });

  it('answers unknown event names with {} whatever their body', async () => {
    const reply = await postRaw('TeammateIdle', { teammate_name: 'x' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({});
  });
});

describe('broken workflow files in a project', () => {
  const BROKEN_YAML = [
    'name: broken',
    'phases:',
    '  - name: plan',
    '    allowed_tools: [Read, Grep',
    '    blocked_tools: [Write]',
    '',
  ].join('\n');

  const UNKNOWN_KEY = ['name: typo', 'phases:', '  - name: plan', '    alowed_tools: [Read]', ''].join('\n');

  it('reports a YAML error with file, line and column and keeps the built-in list', async () => {
    const file = writeProjectWorkflow(t.project, 'broken.yaml', BROKEN_YAML);
    const list = await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(t.project)}`);
    expect(list.status).toBe(200);
    expect(list.body.errors).toHaveLength(1);
    const [error] = list.body.errors as Json[];
    expect(error).toMatchObject({ file, message: expect.stringContaining('invalid YAML') });
    expect(error.line).toBeGreaterThanOrEqual(4);
    expect(error.line).toBeLessThanOrEqual(6);
    expect(error.column).toBeGreaterThanOrEqual(1);
    expect(list.body.workflows).toContainEqual(expect.objectContaining({ name: 'plan-execute', tier: 'builtin' }));
    expect((list.body.workflows as Json[]).some((w) => w.name === 'broken')).toBe(false);
    // Choosing the broken one is refused with its load error; the built-in still works.
    const refused = await t.setWorkflow('broken');
    expectError(refused, 409, 'GOBBY_ERR_WORKFLOW_INVALID');
    expect(refused.body.error.message).toContain(`${file}:${error.line}:${error.column}: invalid YAML`);
    expect((await t.setWorkflow('plan-execute')).status).toBe(200);
  });

  it('refuses two files of one folder that define the same name, naming each other, and loads one again once the copy is gone', async () => {
    const definition = (tools: string): string => ['name: feature', 'phases:', '  - name: plan', `    allowed_tools: [${tools}]`, ''].join('\n');
    const edited = writeProjectWorkflow(t.project, 'feature.yaml', definition('Read'));
    const backup = writeProjectWorkflow(t.project, 'feature-old.yaml', definition('Read, Bash'));
    const list = await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(t.project)}`);
    expect((list.body.workflows as Json[]).some((w) => w.name === 'feature')).toBe(false);
    expect(list.body.errors).toEqual([
      { file: backup, line: 1, column: 1, message: expect.stringContaining('workflow `feature` is also defined in feature.yaml in this folder') },
      { file: edited, line: 1, column: 1, message: expect.stringContaining('workflow `feature` is also defined in feature-old.yaml in this folder') },
    ]);
    expectError(await t.setWorkflow('feature'), 409, 'GOBBY_ERR_WORKFLOW_INVALID');
    rmSync(backup);
    const set = await t.setWorkflow('feature');
    expect(set.status).toBe(200);
    expect(set.body.definition).toEqual({ file: edited, tier: 'project' });
  });

  it('points an unknown key at its line and column', async () => {
    const file = writeProjectWorkflow(t.project, 'typo.yml', UNKNOWN_KEY);
    const list = await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(t.project)}`);
    expect(list.body.errors).toEqual([{ file, line: 4, column: 5, message: expect.stringContaining('alowed_tools') }]);
  });

  it('lets a project definition named like a built-in win (tier project)', async () => {
    const file = writeProjectWorkflow(
      t.project,
      'plan-execute.yaml',
      [
        'name: plan-execute',
        'description: Our plan-execute, where planning may run the tests.',
        'phases:',
        '  - name: plan',
        '    allowed_tools: [Read, Grep, Glob, Bash]',
        '    blocked_tools: [Write, Edit]',
        '    exit_conditions:',
        '      - type: user_approval',
        '        prompt: "Ship it?"',
        '  - name: execute',
        '    allowed_tools: all',
        '',
      ].join('\n'),
    );
    const list = await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(t.project)}`);
    const entries = (list.body.workflows as Json[]).filter((w) => w.name === 'plan-execute');
    expect(entries).toEqual([
      expect.objectContaining({ tier: 'project', file, shadowed_by: null }),
      expect.objectContaining({ tier: 'builtin', shadowed_by: 'project' }),
    ]);
    const set = await t.setWorkflow('plan-execute');
    expect(set.body.definition).toEqual({ file, tier: 'project' });

    const session = t.newSessionId();
    await t.sessionStart(session);
    expect((await t.status()).body.definition).toMatchObject({ file, tier: 'project' });
    // The project's rules apply: Bash is allowed in its plan phase, Write is not.
    expect((await t.preToolUse(session, 'Bash', { command: 'npm test' })).body).toEqual({});
    const write = await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' });
    expect(write.body.hookSpecificOutput.permissionDecisionReason).toContain('Ship it?');
  });

  it('keeps the last good version of a definition that an edit broke, and reports the error', async () => {
    const good = ['name: flow', 'phases:', '  - name: plan', '    allowed_tools: [Read]', ''].join('\n');
    const file = writeProjectWorkflow(t.project, 'flow.yaml', good);
    expect((await t.setWorkflow('flow')).status).toBe(200);
    writeProjectWorkflow(t.project, 'flow.yaml', `${good}    blocked_tools: [Read\n`);
    const list = await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(t.project)}`);
    expect(list.body.errors).toEqual([expect.objectContaining({ file, line: expect.any(Number), column: expect.any(Number) })]);
    expect(list.body.workflows).toContainEqual(expect.objectContaining({ name: 'flow', tier: 'project' }));
    // New sessions run the last good version: Read allowed, Write refused.
    const session = t.newSessionId();
    await t.sessionStart(session);
    expect((await t.preToolUse(session, 'Read', { file_path: 'a' })).body).toEqual({});
    expect((await t.preToolUse(session, 'Write', { file_path: 'a', content: 'b' })).body.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('other projects still get the built-in of that name', async () => {
    writeProjectWorkflow(t.project, 'plan-execute.yaml', 'name: plan-execute\nphases:\n  - name: only\n');
    const other = join(t.project, '..', `${t.project.split(/[/\\]/).pop()}-other`);
    const list = await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(other)}`);
    expect((list.body.workflows as Json[]).filter((w) => w.name === 'plan-execute')).toEqual([
      expect.objectContaining({ tier: 'builtin', shadowed_by: null }),
    ]);
  });
});
