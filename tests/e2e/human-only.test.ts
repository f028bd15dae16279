/**
 * The human-only overrides hold against the real Claude Code CLI: the agent's Bash tool runs
 * the override CLI with CLAUDECODE unset, by its node path, and detached with `setsid -f`.
 * The plain spelling is refused by the engine's text guard before it runs; the same command
 * from a script file (which no text guard can read) reaches the daemon, which refuses it
 * because the process descends from, or writes its output to, the session's Claude Code.
 * The phase does not move, and `gobby workflow audit --tamper` lists the attempts.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultsIn } from '../support/fake-anthropic.js';
import { GOBBY_CLI } from '../support/gobby-process.js';
import { PLAN_WITH_SHELL, runScriptedSession, setUpGobbyProject, uniqueToolUse } from '../support/scripted-session.js';

interface AuditJson {
  rows: { event: string; decision: string; actor: string; because: string; detail: { endpoint: string; signals: string[] } }[];
}

describe('human-only overrides', () => {
  it('an override from the Bash tool is refused however it is run, and the attempt is listed', async () => {
    const { gobby, box } = await setUpGobbyProject({ workflow: PLAN_WITH_SHELL });
    const daemonEnv = `GOBBY_HOME=${gobby.home} GOBBY_PORT=${gobby.port}`;
    const override = `env -u CLAUDECODE ${daemonEnv} node ${GOBBY_CLI} workflow phase execute --force --reason x`;
    const scripts = join(box.home, 'agent-scripts');
    mkdirSync(scripts, { recursive: true });
    const inScript = join(scripts, 'override.sh');
    writeFileSync(inScript, `${override}\n`);
    const detachedDone = join(scripts, 'detached.exit');
    const detached = join(scripts, 'detached.sh');
    writeFileSync(detached, `${override}\necho $? > ${detachedDone}\n`);

    const session = { id: randomUUID(), resume: false };
    const { requests } = await runScriptedSession(
      box,
      'plan the feature',
      [
        { toolUses: [uniqueToolUse('Bash', { command: override, description: 'move on to execute' })] },
        { toolUses: [uniqueToolUse('Bash', { command: `bash ${inScript}`, description: 'move on to execute' })] },
        {
          toolUses: [
            uniqueToolUse('Bash', {
              command: `setsid -f bash ${detached}; for i in $(seq 50); do [ -f ${detachedDone} ] && break; sleep 0.1; done`,
              description: 'move on to execute, detached',
            }),
          ],
        },
        { text: 'Still planning.' },
      ],
      session,
    );

    // The plain spelling: the engine's text guard refuses the tool call before it runs.
    const [plain] = toolResultsIn(requests[1]!);
    expect(plain!.text).toContain('only the user may run it');
    // From a script: the daemon refuses, naming the process and how it is tied to Claude Code.
    const [scripted] = toolResultsIn(requests[2]!);
    expect(scripted!.text).toContain('GOBBY_ERR_OVERRIDE_FROM_AGENT');
    expect(scripted!.text).toMatch(/`changePhase` is a human-only override and was refused: pid \d+ \(node\) was started by the tools of Claude Code session/);
    // Detached by setsid: reparented to init and out of the Bash tool's session, still refused.
    const [setsid] = toolResultsIn(requests[3]!);
    expect(setsid!.text).toContain('GOBBY_ERR_OVERRIDE_FROM_AGENT');
    expect(existsSync(detachedDone) && readFileSync(detachedDone, 'utf8').trim()).toBe('1');

    const status = await gobby.json<{ phase: string }>(['workflow', 'status'], box.project);
    expect(status.phase).toBe('plan');
    const audit = await gobby.json<AuditJson>(['workflow', 'audit', '--tamper'], box.project);
    // The plain spelling was refused by the engine before it ran (its tool call's row); the
    // two scripted attempts reached the daemon and were refused there, naming the process.
    const tamper = audit.rows.filter((row) => row.event === 'tamper:override');
    expect(tamper.filter((row) => row.actor === 'claude-code')).toHaveLength(1);
    const refused = tamper.filter((row) => row.actor !== 'claude-code');
    expect(refused).toHaveLength(2);
    for (const row of refused) {
      expect(row).toMatchObject({ decision: 'deny', detail: { endpoint: 'changePhase' } });
      expect(row.actor).toMatch(/^process:node\[\d+\]$/);
    }
    // Newest first: the detached attempt, which only its output file ties to Claude Code.
    expect(refused[0]!.detail.signals.join('; ')).toContain('is the output file of a Claude Code Bash tool call');
    expect(refused[0]!.detail.signals.join('; ')).not.toContain('descends from Claude Code');
    expect(refused[1]!.detail.signals.join('; ')).toContain('descends from Claude Code');

    // The human's own terminal still works.
    const human = await gobby.cli(['workflow', 'phase', 'execute', '--force', '--reason', 'the user moved it'], box.project);
    expect(human.code, human.stderr).toBe(0);
    expect((await gobby.json<{ phase: string }>(['workflow', 'status'], box.project)).phase).toBe('execute');
  }, 120_000);
});
