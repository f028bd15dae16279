// Tool names as hooks report them. Claude Code renamed some tools and keeps the old
// names as aliases (design/claude-code-hooks.md §2.3); hook input always carries the
// current name, so a definition that says `Task` must still match `Agent`.
import { didYouMean } from './nearest-name.js';

const TOOL_ALIASES: Readonly<Record<string, string>> = {
  Task: 'Agent',
  KillShell: 'TaskStop',
  KillBash: 'TaskStop',
  ListPeers: 'ListAgents',
  Brief: 'SendUserMessage',
  ListMcpResources: 'ListMcpResourcesTool',
  ReadMcpResource: 'ReadMcpResourceTool',
  ProposeGoal: 'SetGoal',
};

/**
 * The tools Claude Code v2.1.330 has (design/claude-code-hooks.md §6, checked against the
 * binary), and names earlier versions used. A name a workflow uses that is none of these,
 * nor an alias, an MCP tool or a glob, is a load error: a misspelled `Wirte` in
 * `blocked_tools` would otherwise block nothing and say nothing.
 */
const KNOWN_TOOL_NAMES: readonly string[] = [
  'Agent', 'Artifact', 'AskUserQuestion', 'Bash', 'ClaudeDesign', 'CronCreate', 'CronDelete', 'CronList',
  'Edit', 'EndConversation', 'EnterPlanMode', 'EnterWorktree', 'ExitPlanMode', 'ExitWorktree', 'Glob', 'Grep',
  'JavaScript', 'ListAgents', 'ListMcpResourcesTool', 'LSP', 'Monitor', 'NotebookEdit', 'PowerShell',
  'PushNotification', 'Read', 'ReadMcpResourceTool', 'ReadMcpResourceDirTool', 'RemoteTrigger', 'REPL',
  'ReportFindings', 'ScheduleWakeup', 'SendMessage', 'SendUserMessage', 'SetGoal', 'Skill', 'TaskCreate',
  'TaskGet', 'TaskList', 'TaskOutput', 'TaskStop', 'TaskUpdate', 'TodoWrite', 'ToolSearch', 'WebFetch',
  'WebSearch', 'Workflow', 'Write',
  // Earlier versions' names: a definition written for them is not misspelled.
  'BashOutput', 'LS', 'MultiEdit', 'NotebookRead', 'SlashCommand',
];

/** Every name a workflow may use for a built-in tool, aliases included: what "did you mean" picks from. */
const ACCEPTED_TOOL_NAMES: readonly string[] = [...KNOWN_TOOL_NAMES, ...Object.keys(TOOL_ALIASES)];

/**
 * Why `pattern` names no tool, or undefined when it may: a known tool or alias (exact case),
 * an MCP tool (`mcp__<server>__<tool>`), or a glob with `*` (which may match tools gobby
 * does not know yet).
 */
export function checkToolName(pattern: string): string | undefined {
  // `Bash(git *)`, `Edit(src/**)`: a glob, but it would match no tool's name and so do nothing.
  const permissionRule = PERMISSION_RULE.exec(pattern);
  if (permissionRule) {
    return (
      `\`${pattern}\` is Claude Code's permission-rule syntax, which names no tool here and would match nothing: ` +
      `list the tool (\`${permissionRule[1]}\`) and narrow it with a rule, for example ` +
      `\`when: "tool == '${permissionRule[1]}' and command_contains('…')"\` or a condition on \`effects\``
    );
  }
  if (pattern.includes('*') || pattern.startsWith('mcp__') || ACCEPTED_TOOL_NAMES.includes(pattern)) return undefined;
  const hint = didYouMean(pattern, ACCEPTED_TOOL_NAMES);
  // A close name says it all; with none, say what a tool name may be.
  if (hint) return `unknown tool \`${pattern}\`${hint}`;
  return (
    `unknown tool \`${pattern}\`. Tool names are case-sensitive, as Claude Code reports them; ` +
    'MCP tools are `mcp__<server>__<tool>`, and a `*` glob matches any tool'
  );
}

/** `Bash(git *)`, `mcp__github__create_issue(…)`: a tool with a specifier in parentheses. */
const PERMISSION_RULE = /^([\w*-]+)\((.*)\)$/s;

/** `tool == 'X'`, `tool_name != "X"`: the comparison's head, and the quoted name. */
const TOOL_COMPARISON = /(\btool(?:_name)?\s*[!=]=\s*)(['"])([^'"]+)\2/g;
/** `tool in [...]`, `tool not in [...]`: the head, and the list's items. */
const TOOL_LIST_COMPARISON = /(\btool(?:_name)?\s+(?:not\s+)?in\s+\[)([^\]]*)\]/g;
const QUOTED_NAME = /(['"])([^'"]+)\1/g;

/** Every tool name a condition compares `tool` or `tool_name` with (`==`, `!=`, `in [...]`, `not in [...]`). */
export function toolsComparedIn(source: string): string[] {
  const names = [...source.matchAll(TOOL_COMPARISON)].map((match) => match[3]!);
  for (const match of source.matchAll(TOOL_LIST_COMPARISON)) names.push(...[...match[2]!.matchAll(QUOTED_NAME)].map((item) => item[2]!));
  return names;
}

/**
 * The condition with each tool name it compares `tool` with written as hooks report it
 * (`tool == 'Task'` is `tool == 'Agent'`): the event carries the current name only.
 */
export function canonicalToolComparisons(source: string): string {
  const canonical = (quote: string, name: string): string => `${quote}${canonicalToolName(name)}${quote}`;
  return source
    .replace(TOOL_COMPARISON, (_all, head: string, quote: string, name: string) => head + canonical(quote, name))
    .replace(TOOL_LIST_COMPARISON, (_all, head: string, list: string) => `${head}${list.replace(QUOTED_NAME, (_item, quote: string, name: string) => canonical(quote, name))}]`);
}

export function canonicalToolName(name: string): string {
  return TOOL_ALIASES[name] ?? name;
}

/** A tool pattern is an exact name, or a glob where `*` matches any run of characters (`mcp__github__*`). */
export function compileToolPattern(pattern: string): (toolName: string) => boolean {
  if (!pattern.includes('*')) {
    const exact = canonicalToolName(pattern);
    return (toolName) => toolName === exact;
  }
  const source = pattern.split('*').map(escapeRegExp).join('.*');
  const regex = new RegExp(`^${source}$`);
  return (toolName) => regex.test(toolName);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The words of an MCP tool's own name (after `mcp__<server>__`), split at `_`, `-` and camelCase
 * humps and lower-cased: `mcp__fs__writeFile` → write, file; undefined for a tool that is not MCP.
 * What an MCP tool does is judged from these words (workflows/tool-commands.ts, shell-policy.ts, guards.ts).
 */
export function mcpToolWords(toolName: string): string[] | undefined {
  const action = /^mcp__.+?__(.+)$/.exec(toolName)?.[1];
  return action?.split(/[_-]|(?<=[a-z0-9])(?=[A-Z])/).map((word) => word.toLowerCase());
}
