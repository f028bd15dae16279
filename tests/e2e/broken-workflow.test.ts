/**
 * A project's workflow file broken while the daemon was down (issue #11, finding 2), with the
 * real Claude Code CLI: the restarted daemon still enforces the last good version, so the
 * model's Write is refused by the phase's rule, and the user is told in the session that the
 * file does not load.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toolResultsIn } from '../support/fake-anthropic.js';
import { runScriptedSession, setUpGobbyProject, uniqueToolUse } from '../support/scripted-session.js';

const TIMEOUT = 120_000;

const TEST_FIRST = `
name: test-first
phases:
  - name: plan
    allowed_tools: [Read, Glob, Grep]
    exit_conditions:
      - type: user_approval
        prompt: "Tests planned. Ready to write them?"
  - name: write
    allowed_tools: all
`;

/** A project on test-first whose file is then rewritten as `broken` while the daemon restarts. */
async function breakWhileRestarting(broken: string) {
  const { gobby, box } = await setUpGobbyProject({ workflow: { name: 'test-first', yaml: TEST_FIRST } });
  const file = join(box.project, '.gobby', 'workflows', 'test-first.yaml');
  writeFileSync(file, broken);
  await gobby.stop();
  await gobby.start();
  return { gobby, box, file };
}

/** A session whose model tries one Write; what the model was sent back, and whether the file appeared. */
async function tryWrite(box: Awaited<ReturnType<typeof setUpGobbyProject>>['box']) {
  const target = join(box.project, 'notes.txt');
  const { run, requests } = await runScriptedSession(
    box,
    'Write notes.txt',
    [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'hi\n' })] }, { text: 'Refused; I will plan first.' }],
    { id: randomUUID(), resume: false },
  );
  const [write] = toolResultsIn(requests[1]!);
  return { run, write, written: existsSync(target) };
}

describe('a broken workflow file after a daemon restart', () => {
  it('keeps enforcing the last good version and tells the user the file does not load', async () => {
    // A YAML mistake (an unclosed list), then the restart the issue describes.
    const { gobby, box, file } = await breakWhileRestarting(TEST_FIRST.replace('[Read, Glob, Grep]', '[Read, Glob, Grep'));
    const { run, write, written } = await tryWrite(box);
    // What the model was sent: the Write refused by the last good version's plan phase.
    expect(write?.is_error).toBe(true);
    expect(write?.text).toContain('Workflow rule (test-first, phase plan): Write is not allowed in this phase');
    expect(written).toBe(false);
    // What the user saw: a systemMessage naming the file, its position and the error.
    expect(run.stdout).toMatch(/the workflow file does not load: [^"]*test-first\.yaml:\d+:\d+: invalid YAML/);
    expect(run.stdout).toContain('runs the last good version of `test-first`');

    const status = await gobby.json<{ workflow: string | null; workflow_problem: { errors: { file: string }[] } | null }>(
      ['workflow', 'status'],
      box.project,
    );
    expect(status.workflow).toBe('test-first');
    expect(status.workflow_problem?.errors[0]?.file).toBe(file);
  }, TIMEOUT);

  it('reads a misspelled tool name as a load error, names the nearest tool to the user, and keeps the last good version', async () => {
    // `Wirte` would have let Write through unnoticed before (issue #11, finding 3).
    const { box } = await breakWhileRestarting(TEST_FIRST.replace('[Read, Glob, Grep]', '[Read, Glob, Grep]\n    blocked_tools: [Wirte]'));
    const { run, write, written } = await tryWrite(box);
    expect(write?.is_error).toBe(true);
    expect(write?.text).toContain('Workflow rule (test-first, phase plan): Write is not allowed in this phase');
    expect(written).toBe(false);
    // The user is told which name is wrong and what it probably meant.
    expect(run.stdout).toMatch(/test-first\.yaml:\d+:\d+: [^"]*Wirte[^"]*did you mean `Write`\?/);
  }, TIMEOUT);
});
