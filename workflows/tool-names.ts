// Tool names as hooks report them. Claude Code renamed some tools and keeps the old
// names as aliases (design/claude-code-hooks.md §2.3); hook input always carries the
// current name, so a definition that says `Task` must still match `Agent`.
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
