// docs/workflows.md's stop-gate example ("the tests must have passed after the last edit"),
// loaded from the docs exactly as a user would copy it and driven through the daemon: a test run
// whose success is the tests' own settles the gate; one whose status a pipe or `|| true` hides
// does not, and a change made through the shell makes the tests due again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workflowExampleAfter } from '../support/docs-example.js';
import { TestDaemon, writeProjectWorkflow } from './test-daemon.js';

const ANCHOR = 'The example a project can copy: the tests must have passed after the last edit.';

let t: TestDaemon;
let session: string;

beforeEach(async () => {
  t = TestDaemon.create();
  writeProjectWorkflow(t.project, 'tested.yaml', workflowExampleAfter(ANCHOR));
  const set = await t.setWorkflow('tested');
  expect(set.status, set.text).toBe(200);
  session = t.newSessionId();
  await t.sessionStart(session);
  await t.prompt(session, 'fix the bug in parse()');
  await t.postToolUse(session, 'Edit', { file_path: 'src/parse.ts', old_string: 'a', new_string: 'b' });
});
afterEach(async () => t?.dispose());

async function stopDecision(): Promise<string | undefined> {
  const answer = await t.hook('Stop', session, { stop_hook_active: false, last_assistant_message: 'Done.', background_tasks: [], session_crons: [] });
  return answer.body.decision as string | undefined;
}

describe('the docs example: the tests must have passed after the last edit', () => {
  it.each(['npm test', 'npx vitest run', 'set -o pipefail; npm test 2>&1 | tail -20', 'npm test || exit 1', 'cd src && npm test'])('lets the turn end after `%s` succeeded', async (command) => {
    expect(await stopDecision()).toBe('block');
    await t.postToolUse(session, 'Bash', { command });
    expect(await stopDecision()).toBeUndefined();
  });

  it.each(['npm test || true', 'npm test 2>&1 | tail -20', 'npm test; echo done', 'if npm test; then echo ok; fi', 'for i in 1; do npm test; done', '! npm test'])(
    'still holds the turn after `%s`, whose success does not say the tests passed',
    async (command) => {
      await t.postToolUse(session, 'Bash', { command });
      expect(await stopDecision()).toBe('block');
    },
  );

  it.each(["sed -i 's/a/b/' src/parse.ts", 'echo x >> src/parse.ts', "python3 -c 'print(1)'", 'rm src/old.ts'])('makes the tests due again after `%s`', async (command) => {
    await t.postToolUse(session, 'Bash', { command: 'npm test' });
    await t.postToolUse(session, 'Bash', { command });
    expect(await stopDecision()).toBe('block');
  });

  it.each(['git status', 'ls src', 'cat src/parse.ts', 'echo done > /tmp/notes.txt'])('keeps them passed after `%s`, which changes no project file', async (command) => {
    await t.postToolUse(session, 'Bash', { command: 'npm test' });
    await t.postToolUse(session, 'Bash', { command });
    expect(await stopDecision()).toBeUndefined();
  });
});
