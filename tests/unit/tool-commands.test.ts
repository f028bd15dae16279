// Which tool calls run a shell command: Bash, and MCP tools whose name says they run commands and
// that are given one. Those are judged by their command (tests/integration/shell-policy.test.ts).
import { describe, expect, it } from 'vitest';
import { shellCommandOf } from '../../workflows/tool-commands.js';

describe('shellCommandOf', () => {
  it.each<[string, Record<string, unknown>]>([
    ['Bash', { command: 'ls' }],
    ['mcp__shell__run', { command: 'ls' }],
    ['mcp__desktop-commander__execute_command', { command: 'ls' }],
    ['mcp__term__runTerminalCommand', { cmd: 'ls' }],
    ['mcp__my_tools__shell', { script: 'ls' }],
    ['mcp__ci__exec', { commandLine: 'ls' }],
  ])('reads the command %s is given', (tool, input) => {
    expect(shellCommandOf(tool, input)).toBe('ls');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['mcp__docs__runbook_search', { command: 'rm -rf .claude' }, 'a word of the name that only starts with "run"'],
    ['mcp__git__prune', { command: 'x' }, '"run" inside another word'],
    ['mcp__ps__processes_list', { command: 'x' }, 'a listing, not a process to start'],
    ['mcp__shell__run', { args: ['ls'] }, 'no command key'],
    ['mcp__shell__run', { command: ['ls'] }, 'a command that is not text'],
    ['Read', { command: 'ls' }, 'a built-in tool other than Bash'],
  ])('finds none for %s %j (%s)', (tool, input, _why) => {
    expect(shellCommandOf(tool, input)).toBeUndefined();
  });
});
