// The shell command a tool call runs. Bash is one such tool; an MCP server can be another
// (`mcp__shell__run {command}`, `mcp__desktop-commander__execute_command {command}`), and
// what it runs is as much the agent's doing as a Bash command: it is judged the same way, by
// gobby's own ground and by a phase that restricts changing files.
import { canonicalToolName, mcpToolWords } from './tool-names.js';

/** Words in an MCP tool's name (after `mcp__<server>__`) that say it runs commands: `run`, `exec`, `execute_command`, `shell`, `runTerminalCommand`… */
const RUNS_COMMANDS = new Set(['run', 'exec', 'execute', 'shell', 'terminal', 'command', 'cmd', 'bash', 'spawn', 'process']);
/** Where such a tool takes the command, by key. */
const COMMAND_KEYS = ['command', 'cmd', 'commandLine', 'command_line', 'shell_command', 'shellCommand', 'script'] as const;

export function shellCommandOf(toolName: string, toolInput: Readonly<Record<string, unknown>>): string | undefined {
  if (canonicalToolName(toolName) === 'Bash') return typeof toolInput.command === 'string' ? toolInput.command : undefined;
  // `runTerminalCommand` is run, terminal, command.
  if (!mcpToolWords(toolName)?.some((word) => RUNS_COMMANDS.has(word))) return undefined;
  for (const key of COMMAND_KEYS) {
    const value = toolInput[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}
