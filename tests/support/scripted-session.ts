// The building blocks of gobby's e2e tests: a running daemon with a project set up as a
// user would, and one `claude -p` run against a fresh fake Messages API playing `script`.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { makeClaudeSandbox, runClaude, type ClaudeRunResult, type ClaudeSandbox } from './claude-cli.js';
import { createGobby, type GobbyInstance } from './gobby-process.js';
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
  session: { id: string; resume: boolean; env?: Record<string, string> },
): Promise<ScriptedRun> {
  const api = await startFakeAnthropic(script);
  try {
    const run = await runClaude({
      prompt,
      cwd: box.project,
      home: box.home,
      baseUrl: api.url,
      ...(session.resume ? { resume: session.id } : { sessionId: session.id }),
      ...(session.env ? { env: session.env } : {}),
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

/**
 * A running gobby daemon and a Claude Code sandbox whose project is a git root, both torn
 * down when the test ends. By default the project is set up as the README says (`gobby
 * install`, `gobby workflow set plan-execute`); `workflow` puts a project workflow in
 * `.gobby/workflows/` and sets that one instead; `install: 'none'` leaves it all to the test.
 */
export async function setUpGobbyProject(
  options: { install?: 'project' | 'none'; workflow?: { readonly name: string; readonly yaml: string } } = {},
): Promise<{ gobby: GobbyInstance; box: ClaudeSandbox }> {
  const gobby = await createGobby();
  onTestFinished(() => gobby.cleanup());
  await gobby.start();
  const box = makeClaudeSandbox();
  onTestFinished(() => box.cleanup());
  mkdirSync(join(box.project, '.git'));
  if (options.workflow) {
    mkdirSync(join(box.project, '.gobby', 'workflows'), { recursive: true });
    writeFileSync(join(box.project, '.gobby', 'workflows', `${options.workflow.name}.yaml`), options.workflow.yaml);
  }
  if ((options.install ?? 'project') === 'project') {
    for (const args of [['install'], ['workflow', 'set', options.workflow?.name ?? 'plan-execute']]) {
      const run = await gobby.cli(args, box.project);
      expect(run.code, `gobby ${args.join(' ')}: ${run.stderr}`).toBe(0);
    }
  }
  return { gobby, box };
}

/**
 * A plan phase that lets the agent run shell commands and scripts (its author allows code
 * gobby cannot see into): the case where only the daemon's own checks stand between the
 * agent and what it tries through a script.
 */
export const PLAN_WITH_SHELL = {
  name: 'plan-with-shell',
  yaml: `
name: plan-with-shell
phases:
  - name: plan
    allowed_tools: [Read, Glob, Grep, Bash]
    blocked_tools: [Write, Edit, NotebookEdit]
    shell:
      allow_opaque: true
    exit_conditions:
      - type: user_approval
        prompt: "Plan complete. Ready to implement?"
  - name: execute
    allowed_tools: all
`,
} as const;
