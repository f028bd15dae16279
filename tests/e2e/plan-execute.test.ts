/**
 * The enforcement loop end to end, as a user meets it: the built gobby daemon, `gobby
 * install` and `gobby workflow set plan-execute` in a project, and the real Claude Code CLI
 * driven offline by a fake Messages API. What the model was sent back is the proof that a
 * block or an injection worked. Each test sets up its own daemon, project and session, so
 * any one of them runs alone (`-t`).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookEvents, type ClaudeSandbox } from '../support/claude-cli.js';
import { newestTurnText, toolResultsIn, type ScriptedTurn } from '../support/fake-anthropic.js';
import type { GobbyInstance } from '../support/gobby-process.js';
import { runScriptedSession, setUpGobbyProject, uniqueToolUse } from '../support/scripted-session.js';

const TIMEOUT = 90_000;

interface Status {
  session_id: string;
  workflow: string | null;
  phase: string | null;
  action_counts: { phase: number; total: number; blocked: number };
  pending_approval: { prompt: string } | null;
  last_decisions: { event: string; tool: string | null; decision: string; phase: string | null; because: string; reason: string | null; actor: string }[];
}

/** One project under plan-execute with one Claude Code session, and ways to bring it to a state. */
interface PlanExecuteSession {
  readonly gobby: GobbyInstance;
  readonly box: ClaudeSandbox;
  readonly target: string;
  /** Runs a prompt in this session: the first call starts it, later ones resume it. */
  turn(prompt: string, script: ScriptedTurn[]): ReturnType<typeof runScriptedSession>;
  status(): Promise<Status>;
}

async function planExecuteSession(): Promise<PlanExecuteSession> {
  const { gobby, box } = await setUpGobbyProject();
  const id = randomUUID();
  let started = false;
  return {
    gobby,
    box,
    target: join(box.project, 'hello.txt'),
    async turn(prompt, script) {
      const run = await runScriptedSession(box, prompt, script, { id, resume: started });
      started = true;
      return run;
    },
    status: () => gobby.json<Status>(['workflow', 'status'], box.project),
  };
}

/**
 * As after the first test: the model tried a Write (denied), then wrote its plan and asked
 * the approval question; the user has not answered.
 */
async function awaitingApproval(): Promise<PlanExecuteSession> {
  const session = await planExecuteSession();
  await session.turn('Create hello.txt saying hi', [
    { toolUses: [uniqueToolUse('Write', { file_path: session.target, content: 'hi\n' })] },
    { text: 'Plan: 1. create hello.txt. Plan complete. Ready to implement?' },
  ]);
  expect((await session.status()).pending_approval).not.toBeNull();
  return session;
}

/**
 * In execute with hello.txt written, as after an approved plan. The user moves the phase
 * (`gobby workflow phase execute`, which plan → execute allows) to save a model turn.
 */
async function executing(): Promise<PlanExecuteSession> {
  const session = await planExecuteSession();
  writeFileSync(session.target, 'hi\n');
  // Claude Code edits only files the session has read.
  await session.turn('look at hello.txt', [{ toolUses: [uniqueToolUse('Read', { file_path: session.target })] }, { text: 'It says hi.' }]);
  await session.gobby.json(['workflow', 'phase', 'execute'], session.box.project);
  expect((await session.status()).phase).toBe('execute');
  return session;
}

describe('plan-execute with the real Claude Code CLI', () => {
  it('denies Write in plan with the phase reason and injects the plan instructions', async () => {
    const { gobby, box, target, turn } = await planExecuteSession();
    const { run, requests: main } = await turn('Create hello.txt saying hi', [
      { toolUses: [uniqueToolUse('Write', { file_path: target, content: 'hi\n' })] },
      { text: 'Plan: 1. create hello.txt. Plan complete. Ready to implement?' },
    ]);
    expect(main.length).toBe(2);
    // SessionStart and UserPromptSubmit context reached the model.
    const firstSeen = newestTurnText(main[0]!);
    expect(firstSeen).toContain('PLANNING phase');
    expect(firstSeen).toContain('Workflow `plan-execute` is in phase `plan`');
    // The Write came back to the model as an error carrying the phase's reason.
    const [writeResult] = toolResultsIn(main[1]!);
    expect(writeResult?.is_error).toBe(true);
    expect(writeResult?.text).toContain('PreToolUse:Write hook error');
    expect(writeResult?.text).toContain('Write is not allowed in the `plan` phase');
    expect(writeResult?.text).toContain('Ready to implement?');
    expect(existsSync(target)).toBe(false);
    // The SessionStart command client ran and answered.
    const sessionStart = hookEvents(run.events, 'SessionStart').find((event) => event.subtype === 'hook_response');
    expect(sessionStart?.exit_code).toBe(0);

    const status = await gobby.json<Status>(['workflow', 'status'], box.project);
    expect(status).toMatchObject({ workflow: 'plan-execute', phase: 'plan' });
    expect(status.pending_approval?.prompt).toBe('Plan complete. Ready to implement?');
    expect(status.action_counts.blocked).toBe(1);
    expect(status.last_decisions).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', tool: 'Write', decision: 'deny', phase: 'plan', because: 'phase plan: blocked_tools' }),
    );
  }, TIMEOUT);

  it('moves to execute when the user answers yes, and the Write then succeeds', async () => {
    const { target, turn, status: statusNow } = await awaitingApproval();
    const { requests: main } = await turn('yes', [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'hi\n' })] }, { text: 'Done.' }]);
    expect(newestTurnText(main[0]!)).toContain('EXECUTION phase: the user approved the plan');
    const [writeResult] = toolResultsIn(main[1]!);
    expect(writeResult?.is_error).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('hi\n');

    const status = await statusNow();
    expect(status).toMatchObject({ phase: 'execute', pending_approval: null });
    expect(status.action_counts).toMatchObject({ phase: 1, total: 1, blocked: 1 });
    const events = status.last_decisions.map((d) => `${d.event}:${d.tool ?? ''}:${d.decision}:${d.phase}`);
    expect(events).toContain('phase_changed::none:execute');
    expect(events).toContain('PreToolUse:Write:allow:execute');
    expect(events).toContain('PostToolUse:Write:allow:execute');
  }, TIMEOUT);

  it('lets a human force a phase with a reason, audited, and the model is held to it', async () => {
    const { gobby, box, target, turn } = await executing();
    const refused = await gobby.cli(['workflow', 'phase', 'plan'], box.project);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('does not allow execute → plan');

    const noReason = await gobby.cli(['workflow', 'phase', 'plan', '--force'], box.project);
    expect(noReason.code).not.toBe(0);
    expect(noReason.stderr).toContain('--reason');

    const forced = await gobby.json<{ from: string; to: string; forced: boolean }>(
      ['workflow', 'phase', 'plan', '--force', '--reason', 'plan needs another look'],
      box.project,
    );
    expect(forced).toMatchObject({ from: 'execute', to: 'plan', forced: true });

    const { requests: main } = await turn('Edit hello.txt again', [
      { toolUses: [uniqueToolUse('Edit', { file_path: target, old_string: 'hi', new_string: 'bye' })] },
      { text: 'ok' },
    ]);
    // The newest turn tells the model it is in plan again, with the phase's on_enter message
    // (handed out with SessionStart:resume); earlier turns' context does not count.
    expect(newestTurnText(main[0]!)).toContain('Workflow `plan-execute` is in phase `plan`');
    expect(newestTurnText(main[0]!)).toContain('[gobby] PLANNING phase.');
    const [editResult] = toolResultsIn(main[1]!);
    expect(editResult?.is_error).toBe(true);
    expect(editResult?.text).toContain('Edit is not allowed in the `plan` phase');
    expect(readFileSync(target, 'utf8')).toBe('hi\n');

    const status = await gobby.json<Status>(['workflow', 'status'], box.project);
    expect(status.phase).toBe('plan');
    expect(status.last_decisions).toContainEqual(
      expect.objectContaining({ event: 'override:phase', reason: 'plan needs another look', actor: expect.stringMatching(/^cli:/) }),
    );
  }, TIMEOUT);

  it('refuses the agent running the human-only override through Bash', async () => {
    const { gobby, box, turn } = await planExecuteSession();
    await turn('hello', [{ text: 'Hello.' }]);
    await gobby.json(['workflow', 'phase', 'execute', '--force', '--reason', 'let bash run'], box.project);
    const { requests: main } = await turn('switch phase yourself', [
      { toolUses: [uniqueToolUse('Bash', { command: 'npx gobby workflow phase plan --force --reason x' })] },
      { text: 'ok' },
    ]);
    const [bashResult] = toolResultsIn(main[1]!);
    expect(bashResult?.is_error).toBe(true);
    expect(bashResult?.text).toContain('only the user may run it');
    const status = await gobby.json<Status>(['workflow', 'status'], box.project);
    expect(status.phase).toBe('execute');
  }, TIMEOUT);
});
