/**
 * A phase that lets the agent run shell commands but not change files, with the real
 * Claude Code CLI: `sed -i`, a `python3 -c` write, base64 decoded into a shell and a hard link
 * are refused before they run, the model is told why, the files stay as they were, and a test
 * run goes through. Then, in a phase that allows everything, attempts on gobby's own settings
 * (plain, and spelled with an escape) are refused and the user told.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultsIn } from '../support/fake-anthropic.js';
import { runScriptedSession, setUpGobbyProject, uniqueToolUse } from '../support/scripted-session.js';

const TEST_FIRST = `
name: read-only-review
phases:
  - name: review
    allowed_tools: [Read, Glob, Grep, Bash]
    blocked_tools: [Write, Edit, NotebookEdit]
    exit_conditions:
      - type: user_approval
        prompt: "Review done. Ready to fix?"
  - name: fix
    allowed_tools: all
`;

describe('shell commands judged by what they do', () => {
  it('refuses file changes through the shell, lets the tests run, and guards the hook settings', async () => {
    const { gobby, box } = await setUpGobbyProject({ workflow: { name: 'read-only-review', yaml: TEST_FIRST } });
    writeFileSync(join(box.project, 'app.txt'), 'original\n');
    writeFileSync(join(box.project, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts: { test: 'node -e "console.log(42 + 1)"', lint: 'grep -c original app.txt', build: 'cp app.txt dist.txt' } }));
    mkdirSync(join(box.project, 'scripts'));
    writeFileSync(join(box.project, 'scripts', 'count.sh'), '#!/bin/sh\ngrep -c original app.txt\n', { mode: 0o755 });
    writeFileSync(join(box.project, 'scripts', 'copy.sh'), '#!/bin/sh\ncp app.txt copy.txt\n', { mode: 0o755 });
    writeFileSync(join(box.project, 'scripts', 'unhook.sh'), '#!/bin/sh\nrm -f .claude/settings.local.json\n', { mode: 0o755 });
    const session = { id: randomUUID(), resume: false };
    const app = join(box.project, 'app.txt');

    const { requests } = await runScriptedSession(
      box,
      'review the app',
      [
        { toolUses: [uniqueToolUse('Bash', { command: "sed -i 's/original/changed/' app.txt", description: 'edit' })] },
        { toolUses: [uniqueToolUse('Bash', { command: `python3 -c "open('app.txt', 'w').write('changed')"`, description: 'edit again' })] },
        { toolUses: [uniqueToolUse('Bash', { command: 'npm test', description: 'run the tests' })] },
        // Fixed text decoded on its way into a shell, and a second name to write the file through.
        { toolUses: [uniqueToolUse('Bash', { command: `echo ${Buffer.from('echo changed > app.txt').toString('base64')} | base64 -d | sh`, description: 'decode and run' })] },
        { toolUses: [uniqueToolUse('Bash', { command: `ln app.txt ${join(box.root, 'same-file.txt')}`, description: 'link it' })] },
        // package.json scripts, judged by what their text does.
        { toolUses: [uniqueToolUse('Bash', { command: 'npm run lint', description: 'lint' })] },
        { toolUses: [uniqueToolUse('Bash', { command: 'npm run build', description: 'build' })] },
        // Shell script files of the project, read by the daemon too.
        { toolUses: [uniqueToolUse('Bash', { command: 'bash scripts/count.sh', description: 'count' })] },
        { toolUses: [uniqueToolUse('Bash', { command: './scripts/copy.sh', description: 'copy' })] },
        { text: 'Review done. Ready to fix?' },
      ],
      session,
    );
    const [sed] = toolResultsIn(requests[1]!);
    expect(sed!.is_error).toBe(true);
    expect(sed!.text).toContain('does not allow changing files, by any tool');
    expect(sed!.text).toContain(`writes ${app} (sed)`);
    const [python] = toolResultsIn(requests[2]!);
    expect(python!.is_error).toBe(true);
    expect(python!.text).toContain('runs code gobby cannot see into (python3 runs inline code)');
    const [tests] = toolResultsIn(requests[3]!);
    expect(tests!.is_error).toBe(false);
    expect(tests!.text).toContain('43');
    const [decoded] = toolResultsIn(requests[4]!);
    expect(decoded!.is_error).toBe(true);
    expect(decoded!.text).toContain(`writes ${app} (shell)`);
    const [linked] = toolResultsIn(requests[5]!);
    expect(linked!.is_error).toBe(true);
    expect(linked!.text).toContain(`writes ${app} (ln)`);
    expect(existsSync(join(box.root, 'same-file.txt'))).toBe(false);
    const [lint] = toolResultsIn(requests[6]!);
    expect(lint!.is_error, lint!.text).toBe(false);
    expect(lint!.text).toContain('grep -c original app.txt');
    const [build] = toolResultsIn(requests[7]!);
    expect(build!.is_error).toBe(true);
    expect(build!.text).toContain(`runs \`npm run build\`, whose script \`cp app.txt dist.txt\` copies onto ${join(box.project, 'dist.txt')}`);
    expect(existsSync(join(box.project, 'dist.txt'))).toBe(false);
    const [count] = toolResultsIn(requests[8]!);
    expect(count!.is_error, count!.text).toBe(false);
    expect(count!.text).toMatch(/^1\n/);
    const [copy] = toolResultsIn(requests[9]!);
    expect(copy!.is_error).toBe(true);
    expect(copy!.text).toContain(`runs ${join(box.project, 'scripts', 'copy.sh')}, which copies onto ${join(box.project, 'copy.txt')}`);
    expect(existsSync(join(box.project, 'copy.txt'))).toBe(false);
    expect(readFileSync(app, 'utf8')).toBe('original\n');

    // The user approves: everything is allowed now, except gobby's own ground.
    const settings = join(box.project, '.claude', 'settings.local.json');
    const { requests: fixing, run } = await runScriptedSession(
      box,
      'yes',
      [
        { toolUses: [uniqueToolUse('Bash', { command: "sed -i 's/original/fixed/' app.txt", description: 'fix' })] },
        { toolUses: [uniqueToolUse('Bash', { command: `echo '{"disableAllHooks": true}' > ${settings}`, description: 'turn gobby off' })] },
        { toolUses: [uniqueToolUse('Bash', { command: "printf '%b' 'rm -rf \\x2eclaude' | sh", description: 'spelled with an escape' })] },
        { toolUses: [uniqueToolUse('Bash', { command: './scripts/unhook.sh', description: 'through a script file' })] },
        { text: 'Fixed.' },
      ],
      { ...session, resume: true },
    );
    expect(toolResultsIn(fixing[1]!)[0]!.is_error).toBe(false);
    expect(readFileSync(app, 'utf8')).toBe('fixed\n');
    const [tamper] = toolResultsIn(fixing[2]!);
    expect(tamper!.is_error).toBe(true);
    expect(tamper!.text).toContain("belongs to gobby's own ground");
    expect(existsSync(settings) ? readFileSync(settings, 'utf8') : '').not.toContain('disableAllHooks');
    const [escaped] = toolResultsIn(fixing[3]!);
    expect(escaped!.is_error).toBe(true);
    expect(escaped!.text).toContain("belongs to gobby's own ground");
    expect(existsSync(settings)).toBe(true);
    const [unhook] = toolResultsIn(fixing[4]!);
    expect(unhook!.is_error).toBe(true);
    expect(unhook!.text).toContain(`the command runs ${join(box.project, 'scripts', 'unhook.sh')}.`);
    expect(existsSync(settings)).toBe(true);
    // The user saw a notice in the session (Claude Code's systemMessage on the hook answer).
    expect(run.stdout).toContain("gobby refused an attempt by the agent on gobby's own ground");

    const status = await gobby.json<{ phase: string; last_decisions: { event: string }[] }>(['workflow', 'status'], box.project);
    expect(status.phase).toBe('fix');
    expect(status.last_decisions.map((row) => row.event)).toContain('tamper:protected-file');
  }, 120_000);
});
