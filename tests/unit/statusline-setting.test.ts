// The statusLine entry install writes and uninstall takes back: gobby's line chained with the
// user's own, and the user's entry given back exactly.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildStatusLineSetting, installStatusLineInText, removeGobbyStatusLine, removeStatusLineFromText } from '../../hooks/statusline-setting.js';

const GOBBY = 'gobby statusline';

describe('buildStatusLineSetting', () => {
  it('with no status line: gobby alone', () => {
    expect(buildStatusLineSetting(undefined, GOBBY)).toEqual({ statusLine: { type: 'command', command: GOBBY } });
  });

  it("with the user's own: chained after --then, their other keys kept in place", () => {
    const theirs = { type: 'command', command: '~/.claude/statusline.sh', padding: 0, refreshInterval: 5 };
    const built = buildStatusLineSetting(theirs, GOBBY);
    expect(built.statusLine).toEqual({ type: 'command', command: `${GOBBY} --then '~/.claude/statusline.sh'`, padding: 0, refreshInterval: 5 });
    expect(Object.keys(built.statusLine)).toEqual(['type', 'command', 'padding', 'refreshInterval']);
  });

  it('installing twice, or with another path to gobby, changes only the program', () => {
    const theirs = { type: 'command', command: 'echo "$(pwd)"' };
    const once = buildStatusLineSetting(theirs, GOBBY).statusLine;
    expect(buildStatusLineSetting(once, GOBBY).statusLine).toEqual(once);
    const moved = buildStatusLineSetting(once, '/opt/gobby/bin/gobby statusline').statusLine;
    expect(moved.command).toBe(`/opt/gobby/bin/gobby statusline --then 'echo "$(pwd)"'`);
    expect(buildStatusLineSetting(buildStatusLineSetting(undefined, GOBBY).statusLine, GOBBY).statusLine).toEqual({ type: 'command', command: GOBBY });
  });

  it('recognises its own command even when it does not name gobby', () => {
    const program = '/opt/tools/bin/wf statusline';
    const once = buildStatusLineSetting({ type: 'command', command: 'date' }, program).statusLine;
    expect(once.command).toBe(`${program} --then date`);
    expect(buildStatusLineSetting(once, program).statusLine).toEqual(once);
    expect(removeGobbyStatusLine(once, program)).toEqual({ statusLine: { type: 'command', command: 'date' } });
  });

  it('refuses a status line Claude Code would reject rather than guess', () => {
    for (const bad of ['echo hi', { type: 'command' }, { type: 'prompt', command: 'x' }, [1]]) {
      expect(() => buildStatusLineSetting(bad, GOBBY)).toThrow(/statusLine is not \{"type": "command"/);
    }
  });
});

describe('removeGobbyStatusLine', () => {
  it.each([
    ['a script', { type: 'command', command: '~/.claude/statusline.sh', padding: 2 }],
    ['quotes, $ and pipes', { type: 'command', command: `bash -c 'printf "%s" "$(git branch --show-current)"' | cut -c1-20` }],
    ['a newline', { type: 'command', command: "echo one\necho 'two'" }],
    ['a plain word', { type: 'command', command: 'starship-line' }],
  ])("gives back the user's entry exactly (%s)", (_label, theirs) => {
    const installed = buildStatusLineSetting(theirs, GOBBY).statusLine;
    const removed = removeGobbyStatusLine(JSON.parse(JSON.stringify(installed)));
    expect(JSON.stringify(removed?.statusLine)).toBe(JSON.stringify(theirs));
  });

  it("removes gobby's alone, from this install or an earlier one", () => {
    expect(removeGobbyStatusLine({ type: 'command', command: GOBBY })).toEqual({ statusLine: undefined });
    expect(removeGobbyStatusLine({ type: 'command', command: 'node /home/me/gobby/dist/daemon/cli/main.js statusline' })).toEqual({ statusLine: undefined });
  });

  it("leaves alone what is not gobby's, or what it cannot read back", () => {
    expect(removeGobbyStatusLine(undefined)).toBeNull();
    expect(removeGobbyStatusLine({ type: 'command', command: '~/.claude/statusline.sh' })).toBeNull();
    expect(removeGobbyStatusLine({ type: 'command', command: `${GOBBY} --then 'unterminated` })).toBeNull();
    expect(removeGobbyStatusLine('gobby statusline')).toBeNull();
  });
});

describe('the portable status line of a shared install', () => {
  /** Runs a status line command as Claude Code does (a shell), with PATH given. */
  function run(command: string, path: string): string {
    return execFileSync('/bin/sh', ['-c', command], { env: { PATH: path }, encoding: 'utf8' });
  }

  it('prints nothing for a teammate without gobby, and their team\'s status line when it chains one', () => {
    const alone = buildStatusLineSetting(undefined, GOBBY, { portable: true }).statusLine.command;
    expect(alone).toBe('if command -v gobby >/dev/null 2>&1; then gobby statusline; fi');
    expect(run(alone, '/nonexistent')).toBe('');
    const chained = buildStatusLineSetting({ type: 'command', command: "printf '%s\\n' team # theirs" }, GOBBY, { portable: true }).statusLine.command;
    expect(run(chained, '/nonexistent')).toBe('team\n');
    // With gobby on PATH, gobby runs and gets the team's command as one word.
    const bin = mkdtempSync(join(tmpdir(), 'gobby-sl-'));
    try {
      writeFileSync(join(bin, 'gobby'), '#!/bin/sh\nprintf "[%s]" "$@"\n', { mode: 0o755 });
      expect(run(chained, `${bin}:/usr/bin:/bin`)).toBe("[statusline][--then][printf '%s\\n' team # theirs]");
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('is recognised by the next install and by uninstall, which give the team\'s entry back', () => {
    const theirs = { type: 'command', command: `bash -c 'echo "it'\\''s $PWD"'`, padding: 1 };
    const shared = buildStatusLineSetting(theirs, GOBBY, { portable: true }).statusLine;
    expect(buildStatusLineSetting(shared, GOBBY, { portable: true }).statusLine).toEqual(shared);
    expect(removeGobbyStatusLine(shared, GOBBY)).toEqual({ statusLine: theirs });
    expect(removeGobbyStatusLine(buildStatusLineSetting(undefined, GOBBY, { portable: true }).statusLine)).toEqual({ statusLine: undefined });
    // A personal install over it unwraps it: one chain, never gobby inside gobby.
    const personal = buildStatusLineSetting(shared, GOBBY).statusLine;
    expect(personal.command.startsWith(`${GOBBY} --then 'bash`)).toBe(true);
    expect(removeGobbyStatusLine(personal, GOBBY)).toEqual({ statusLine: theirs });
  });

  it('is not taken for gobby\'s once someone edited its two commands apart', () => {
    const edited = "if command -v gobby >/dev/null 2>&1; then gobby statusline --then 'a'; else eval 'b'; fi";
    expect(removeGobbyStatusLine({ type: 'command', command: edited }, GOBBY)).toBeNull();
  });
});

describe('installStatusLineInText / removeStatusLineFromText', () => {
  const file = (statusLine?: unknown) => `${JSON.stringify(statusLine === undefined ? { model: 'opus' } : { model: 'opus', statusLine }, null, 2)}\n`;

  it('says what it did: added, chained, already there', () => {
    const added = installStatusLineInText(file(), GOBBY);
    expect(added.statusLine).toEqual({ result: 'added', command: GOBBY });
    expect(installStatusLineInText(added.text, GOBBY)).toEqual({ text: added.text, statusLine: { result: 'already', command: GOBBY } });
    const chained = installStatusLineInText(file({ type: 'command', command: 'date' }), GOBBY);
    expect(chained.statusLine).toEqual({ result: 'chained', command: `${GOBBY} --then date` });
    expect(installStatusLineInText(chained.text, GOBBY).statusLine.result).toBe('already');
  });

  it('leaves a status line that is not a command alone, and says so instead of failing', () => {
    for (const bad of ['echo hi', { type: 'prompt', command: 'x' }, { type: 'command' }]) {
      const text = file(bad);
      expect(installStatusLineInText(text, GOBBY)).toEqual({ text, statusLine: { result: 'skipped', reason: 'not-a-command' } });
      expect(removeStatusLineFromText(text, GOBBY)).toEqual({ text, statusLine: 'not-gobbys' });
    }
  });

  it('chains the status line a lower-precedence file shows today, and uninstall does not copy it here', () => {
    const user = { type: 'command', command: '~/.claude/statusline.sh', refreshInterval: 5 };
    const before = file();
    const installed = installStatusLineInText(before, GOBBY, { inherited: [{ path: '/home/me/.claude/settings.json', statusLine: user }] });
    expect(installed.statusLine).toEqual({ result: 'chained', command: `${GOBBY} --then '~/.claude/statusline.sh'`, from: '/home/me/.claude/settings.json' });
    expect(JSON.parse(installed.text).statusLine).toEqual({ ...user, command: `${GOBBY} --then '~/.claude/statusline.sh'` });
    expect(removeStatusLineFromText(installed.text, GOBBY, [user])).toEqual({ text: before, statusLine: 'removed' });
  });

  it('adds nothing when a lower-precedence file already runs gobby\'s (a shared install)', () => {
    const shared = buildStatusLineSetting(undefined, GOBBY, { portable: true }).statusLine;
    const before = file();
    expect(installStatusLineInText(before, GOBBY, { inherited: [{ path: '/p/.claude/settings.json', statusLine: shared }] })).toEqual({
      text: before,
      statusLine: { result: 'already', command: shared.command, from: '/p/.claude/settings.json' },
    });
    const teamChained = buildStatusLineSetting({ type: 'command', command: 'team-line' }, GOBBY, { portable: true }).statusLine;
    const userLine = { type: 'command', command: 'my-line' };
    const inherited = [
      { path: '/p/.claude/settings.json', statusLine: teamChained },
      { path: '/home/me/.claude/settings.json', statusLine: userLine },
    ];
    expect(installStatusLineInText(before, GOBBY, { inherited }).statusLine).toMatchObject({ result: 'already', from: '/p/.claude/settings.json' });
  });

  it("brings back the user's own line that a team's gobby-only status line hides, chained", () => {
    const shared = buildStatusLineSetting(undefined, GOBBY, { portable: true }).statusLine;
    const userLine = { type: 'command', command: 'my-line' };
    const before = file();
    const inherited = [
      { path: '/p/.claude/settings.json', statusLine: shared },
      { path: '/home/me/.claude/settings.json', statusLine: userLine },
    ];
    const installed = installStatusLineInText(before, GOBBY, { inherited });
    expect(installed.statusLine).toEqual({ result: 'chained', command: `${GOBBY} --then my-line`, from: '/home/me/.claude/settings.json' });
    expect(removeStatusLineFromText(installed.text, GOBBY, [shared, userLine])).toEqual({ text: before, statusLine: 'removed' });
  });

  it('gives the user\'s own entry back when it lived in this file', () => {
    const theirs = { type: 'command', command: 'date' };
    const before = file(theirs);
    const installed = installStatusLineInText(before, GOBBY).text;
    expect(removeStatusLineFromText(installed, GOBBY, [])).toEqual({ text: before, statusLine: 'restored' });
  });
});
