/**
 * A "yes" is an approval only after the model asked the phase's approval question: proven
 * with the real Claude Code CLI, whose Stop payload carries the model's last message.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { makeClaudeSandbox } from '../support/claude-cli.js';
import { allText } from '../support/fake-anthropic.js';
import { createGobby } from '../support/gobby-process.js';
import { runScriptedSession } from '../support/scripted-session.js';

describe('approval in plan-execute', () => {
  it('a yes to a clarifying question stays in plan; a yes to the approval question moves on', async () => {
    const gobby = await createGobby();
    onTestFinished(() => gobby.cleanup());
    await gobby.start();
    const box = makeClaudeSandbox();
    onTestFinished(() => box.cleanup());
    mkdirSync(join(box.project, '.git'));
    expect((await gobby.cli(['install'], box.project)).code).toBe(0);
    expect((await gobby.cli(['workflow', 'set', 'plan-execute'], box.project)).code).toBe(0);
    const phase = async () => (await gobby.json<{ phase: string }>(['workflow', 'status'], box.project)).phase;
    const session = { id: randomUUID(), resume: false };

    await runScriptedSession(box, 'add a feature', [{ text: 'Should the feature also cover the CLI?' }], session);
    await runScriptedSession(box, 'yes', [{ text: 'Plan: 1. core 2. CLI. Plan complete. Ready to implement?' }], { ...session, resume: true });
    expect(await phase()).toBe('plan');

    const { requests } = await runScriptedSession(box, 'yes', [{ text: 'Starting.' }], { ...session, resume: true });
    expect(await phase()).toBe('execute');
    expect(allText(requests[0]!)).toContain('EXECUTION phase: the user approved the plan');
  }, 90_000);
});
