// One project under plan-execute with one Claude Code session, brought to the state a test
// needs: the building blocks of the plan-execute e2e files, so each test runs alone.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ClaudeSandbox } from './claude-cli.js';
import type { ScriptedTurn } from './fake-anthropic.js';
import type { GobbyInstance } from './gobby-process.js';
import { runScriptedSession, setUpGobbyProject, uniqueToolUse } from './scripted-session.js';

export const TIMEOUT = 90_000;

export interface Status {
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

export async function planExecuteSession(): Promise<PlanExecuteSession> {
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
export async function awaitingApproval(): Promise<PlanExecuteSession> {
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
export async function executing(): Promise<PlanExecuteSession> {
  const session = await planExecuteSession();
  writeFileSync(session.target, 'hi\n');
  // Claude Code edits only files the session has read.
  await session.turn('look at hello.txt', [{ toolUses: [uniqueToolUse('Read', { file_path: session.target })] }, { text: 'It says hi.' }]);
  await session.gobby.json(['workflow', 'phase', 'execute'], session.box.project);
  expect((await session.status()).phase).toBe('execute');
  return session;
}

