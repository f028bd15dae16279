// One `claude -p` run against a fresh fake Messages API playing `script`: the building
// block of gobby's e2e tests.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { runClaude, type ClaudeRunResult, type ClaudeSandbox } from './claude-cli.js';
import { startFakeAnthropic, type RecordedRequest, type ScriptedTurn } from './fake-anthropic.js';

/** A scripted tool call whose id is unique across a resumed session's whole transcript. */
export function uniqueToolUse(name: string, input: Record<string, unknown>) {
  return { name, input, id: `toolu_${randomUUID().replaceAll('-', '')}` };
}

export interface ScriptedRun {
  readonly run: ClaudeRunResult;
  /** The model-facing requests the CLI made, in order. */
  readonly requests: RecordedRequest[];
}

/** Runs the prompt in the sandbox's project as session `session.id` (resumed or new). */
export async function runScriptedSession(
  box: ClaudeSandbox,
  prompt: string,
  script: ScriptedTurn[],
  session: { id: string; resume: boolean },
): Promise<ScriptedRun> {
  const api = await startFakeAnthropic(script);
  try {
    const run = await runClaude({
      prompt,
      cwd: box.project,
      home: box.home,
      baseUrl: api.url,
      ...(session.resume ? { resume: session.id } : { sessionId: session.id }),
      timeoutMs: 60_000,
    });
    const context = `stderr:\n${run.stderr}\nstdout tail:\n${run.stdout.slice(-3000)}`;
    expect(run.timedOut, context).toBe(false);
    expect(run.exitCode, context).toBe(0);
    return { run, requests: api.mainRequests() };
  } finally {
    await api.close();
  }
}
