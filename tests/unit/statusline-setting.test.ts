// The statusLine entry install writes and uninstall takes back: gobby's line chained with the
// user's own, and the user's entry given back exactly.
import { describe, expect, it } from 'vitest';
import { buildStatusLineSetting, removeGobbyStatusLine } from '../../hooks/statusline-setting.js';

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
