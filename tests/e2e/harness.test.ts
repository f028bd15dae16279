/**
 * Proves the e2e harness (fake Messages API + real Claude Code CLI) works, independent of
 * gobby: scripted tool calls execute, project hooks from `.claude/settings.json` run in
 * `-p` mode, and what hooks return (a deny, injected context) reaches the model.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  hookEvents,
  makeClaudeSandbox,
  runClaude,
  writeProjectSettings,
  type ClaudeRunResult,
  type ClaudeSandbox,
} from '../support/claude-cli.js';
import { allText, startFakeAnthropic, toolResultsIn, type FakeAnthropic, type ScriptedTurn } from '../support/fake-anthropic.js';

const TIMEOUT = 60_000;

/** Hook input as Claude Code posts it (only the fields these tests read). */
interface HookInput {
  hook_event_name: string;
  session_id: string;
  cwd: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  prompt?: string;
  source?: string;
}

interface HookServer {
  url: string;
  received: { path: string; body: HookInput }[];
}

/**
 * A tiny HTTP hook endpoint: records every POST and answers with `respond(path, body)`
 * as JSON (`{}` = no opinion).
 */
async function startHookServer(respond: (path: string, body: HookInput) => object = () => ({})): Promise<HookServer> {
  const received: HookServer['received'] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw) as HookInput;
      const path = req.url ?? '/';
      received.push({ path, body });
      const reply = JSON.stringify(respond(path, body));
      res.writeHead(200, { 'content-type': 'application/json' }).end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/**
 * A sandbox and a fake API, both torn down when the test ends. The script is built from the
 * sandbox so scripted tool calls can name files inside the project.
 */
async function setup(
  script: (box: ClaudeSandbox) => ScriptedTurn[],
): Promise<{ box: ClaudeSandbox; api: FakeAnthropic }> {
  const box = makeClaudeSandbox();
  const api = await startFakeAnthropic(script(box));
  onTestFinished(async () => {
    await api.close();
    box.cleanup();
  });
  return { box, api };
}

/** A failed CLI run should show why, not just "expected 1 to be 0". */
function expectCleanRun(run: ClaudeRunResult, api: FakeAnthropic): void {
  const context = `stderr:\n${run.stderr}\nlast events:\n${run.stdout.slice(-2000)}`;
  expect(run.timedOut, context).toBe(false);
  expect(run.exitCode, context).toBe(0);
  expect(run.result?.is_error, context).toBe(false);
  expect(api.unknownRequests().map((r) => `${r.method} ${r.path}`)).toEqual([]);
}

describe('fake Messages API (no CLI)', () => {
  const post = async (url: string, body: unknown): Promise<Response> =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const tools = [{ name: 'Bash', input_schema: { type: 'object' } }];

  it('scripts main requests, answers side requests, count_tokens and unknown paths', async () => {
    const api = await startFakeAnthropic([
      { toolUses: [{ name: 'Bash', input: { command: 'ls' } }] },
      (req) => ({ text: `results: ${toolResultsIn(req).map((r) => r.text).join(',')}` }),
    ]);
    onTestFinished(() => api.close());
    const user = (content: unknown) => ({ role: 'user', content });

    // Side request (no tools): does not consume the script.
    const side = (await (await post(`${api.url}/v1/messages`, { messages: [user('title?')] })).json()) as {
      content: { type: string; text?: string }[];
    };
    expect(side.content).toEqual([{ type: 'text', text: 'Fake side reply' }]);

    // Main request, non-streaming: first scripted turn.
    const first = (await (await post(`${api.url}/v1/messages?beta=true`, { tools, messages: [user('go')] })).json()) as {
      stop_reason: string;
      content: { type: string; id?: string; input?: unknown }[];
    };
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content[0]).toMatchObject({ type: 'tool_use', input: { command: 'ls' } });

    // Main request, streaming: the function turn sees the tool_result.
    const toolResult = { type: 'tool_result', tool_use_id: first.content[0]!.id, content: [{ type: 'text', text: 'a.txt' }] };
    const sse = await (
      await post(`${api.url}/v1/messages?beta=true`, { stream: true, tools, messages: [user('go'), user([toolResult])] })
    ).text();
    expect(sse).toContain('event: message_start');
    expect(sse).toContain('"text":"results: a.txt"');
    expect(sse).toContain('"stop_reason":"end_turn"');

    // Script exhausted: "done".
    const last = await (await post(`${api.url}/v1/messages`, { tools, messages: [user('more')] })).json();
    expect(last).toMatchObject({ content: [{ type: 'text', text: 'done' }] });

    expect(await (await post(`${api.url}/v1/messages/count_tokens`, { messages: [] })).json()).toMatchObject({
      input_tokens: expect.any(Number),
    });
    expect((await post(`${api.url}/v1/other`, {})).status).toBe(404);

    expect(api.requests.map((r) => [r.kind, r.isMain, r.scriptIndex])).toEqual([
      ['messages', false, undefined],
      ['messages', true, 0],
      ['messages', true, 1],
      ['messages', true, 2],
      ['count_tokens', false, undefined],
      ['other', false, undefined],
    ]);
    expect(api.unknownRequests()).toHaveLength(1);
  });
});

describe('e2e harness: real claude CLI against the fake Messages API', () => {
  it('runs a scripted Write tool call that creates the file', { timeout: TIMEOUT }, async () => {
    const { box, api } = await setup(({ project }) => [
      { toolUses: [{ name: 'Write', input: { file_path: join(project, 'hello.txt'), content: 'hello from the fake model\n' } }] },
      { text: 'wrote it' },
    ]);

    const run = await runClaude({ prompt: 'Create hello.txt', cwd: box.project, home: box.home, baseUrl: api.url });

    expectCleanRun(run, api);
    expect(readFileSync(join(box.project, 'hello.txt'), 'utf8')).toBe('hello from the fake model\n');
    const [first, second] = api.mainRequests();
    expect(api.mainRequests()).toHaveLength(2);
    expect(allText(first!)).toContain('Create hello.txt');
    expect(toolResultsIn(second!)).toEqual([
      expect.objectContaining({ tool_use_id: 'toolu_fake_0001', is_error: false }),
    ]);
    expect(run.result?.result).toBe('wrote it');
  });

  it('delivers an http PreToolUse deny to the model and skips the tool', { timeout: TIMEOUT }, async () => {
    const hooks = await startHookServer(() => ({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'nope: phase plan',
      },
    }));
    const { box, api } = await setup(({ project }) => [
      { toolUses: [{ name: 'Write', input: { file_path: join(project, 'blocked.txt'), content: 'nope\n' } }] },
      { text: 'ok, I will plan first' },
    ]);
    const target = join(box.project, 'blocked.txt');
    writeProjectSettings(box.project, {
      hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'http', url: `${hooks.url}/pre-tool-use`, timeout: 10 }] }] },
    });

    const run = await runClaude({ prompt: 'Write blocked.txt', cwd: box.project, home: box.home, baseUrl: api.url });

    expectCleanRun(run, api);
    expect(existsSync(target)).toBe(false);
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0]!.path).toBe('/pre-tool-use');
    expect(hooks.received[0]!.body).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Write' });
    const [result] = toolResultsIn(api.mainRequests()[1]!);
    expect(result?.is_error).toBe(true);
    expect(result?.text).toContain('nope: phase plan');
    // The stream reports the http hook's status as exit_code.
    expect(hookEvents(run.events, 'PreToolUse:Write').find((e) => e.subtype === 'hook_response')).toMatchObject({
      exit_code: 200,
      outcome: 'success',
    });
  });

  it('injects SessionStart additionalContext from a command hook', { timeout: TIMEOUT }, async () => {
    const { box, api } = await setup(() => [{ text: 'seen' }]);
    const output = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'CTX-MARKER' } };
    writeProjectSettings(box.project, {
      // http hooks never run for SessionStart, hence a command hook.
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `echo '${JSON.stringify(output)}'` }] }] },
    });

    const run = await runClaude({ prompt: 'hello', cwd: box.project, home: box.home, baseUrl: api.url });

    expectCleanRun(run, api);
    expect(hookEvents(run.events, 'SessionStart:startup').map((e) => e.subtype)).toEqual(['hook_started', 'hook_response']);
    expect(allText(api.mainRequests()[0]!)).toContain('CTX-MARKER');
  });

  it('injects UserPromptSubmit additionalContext from an http hook', { timeout: TIMEOUT }, async () => {
    const hooks = await startHookServer(() => ({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'UPS-MARKER: stay in phase plan' },
    }));
    const { box, api } = await setup(() => [{ text: 'seen' }]);
    writeProjectSettings(box.project, {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'http', url: `${hooks.url}/prompt`, timeout: 10 }] }] },
    });

    const run = await runClaude({ prompt: 'what phase?', cwd: box.project, home: box.home, baseUrl: api.url });

    expectCleanRun(run, api);
    expect(hooks.received.map((r) => r.body)).toEqual([
      expect.objectContaining({ hook_event_name: 'UserPromptSubmit', prompt: 'what phase?' }),
    ]);
    const seen = allText(api.mainRequests()[0]!);
    expect(seen).toContain('UPS-MARKER: stay in phase plan');
    expect(seen).toContain('what phase?');
  });

  it('resumes a session with a second prompt; hooks see the same session_id', { timeout: TIMEOUT }, async () => {
    const hooks = await startHookServer();
    // One fake server across both runs: the script continues where the first run stopped.
    const { box, api } = await setup(() => [{ text: 'first answer' }, { text: 'second answer' }]);
    writeProjectSettings(box.project, {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'http', url: `${hooks.url}/prompt`, timeout: 10 }] }],
        Stop: [{ hooks: [{ type: 'http', url: `${hooks.url}/stop`, timeout: 10 }] }],
      },
    });
    const sessionId = randomUUID();

    const first = await runClaude({ prompt: 'first prompt', cwd: box.project, home: box.home, baseUrl: api.url, sessionId });
    expectCleanRun(first, api);
    expect(first.sessionId).toBe(sessionId);

    const second = await runClaude({
      prompt: 'second prompt',
      cwd: box.project,
      home: box.home,
      baseUrl: api.url,
      resume: sessionId,
    });
    expectCleanRun(second, api);
    expect(second.sessionId).toBe(sessionId);
    expect(second.result?.result).toBe('second answer');

    const prompts = hooks.received.filter((r) => r.path === '/prompt').map((r) => r.body);
    expect(prompts.map((b) => b.prompt)).toEqual(['first prompt', 'second prompt']);
    expect(new Set(hooks.received.map((r) => r.body.session_id))).toEqual(new Set([sessionId]));
    expect(hooks.received.filter((r) => r.path === '/stop')).toHaveLength(2);

    // The resumed request carries the first exchange as history.
    const resumed = allText(api.mainRequests()[1]!);
    expect(resumed).toContain('first prompt');
    expect(resumed).toContain('first answer');
    expect(resumed).toContain('second prompt');
  });
});
