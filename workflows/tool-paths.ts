// The paths a tool call names, for gobby's own ground. Claude Code's file tools name theirs under
// known keys; an MCP tool may name one anywhere in its input (`move_file {source, destination}`,
// `read_multiple_files {paths: [...]}`, a `file://` URL), so every string in it that looks like a
// path counts.

/** Where Claude Code's own file tools (Read, Write, Edit, MultiEdit, NotebookEdit, Grep, Glob) put their path. */
const FILE_TOOL_PATH_KEYS = ['file_path', 'notebook_path', 'path'] as const;

/** Bounds on the walk of an MCP tool's input: it is the agent's text, of any shape. */
const MAX_DEPTH = 4;
const MAX_STRINGS = 64;
const MAX_PATH_LENGTH = 4096;

/** The paths as the tool was given them (relative, `~/…`, absolute); the caller resolves them. */
export function toolInputPaths(toolName: string, toolInput: Readonly<Record<string, unknown>>): string[] {
  const paths: string[] = [];
  for (const key of FILE_TOOL_PATH_KEYS) {
    const value = toolInput[key];
    if (typeof value === 'string' && value !== '' && value.length <= MAX_PATH_LENGTH) paths.push(value);
  }
  if (!toolName.startsWith('mcp__')) return paths;
  let seen = 0;
  const visit = (value: unknown, depth: number): void => {
    if (seen >= MAX_STRINGS) return;
    if (typeof value === 'string') {
      seen++;
      const path = pathLike(value);
      if (path !== undefined && !paths.includes(path)) paths.push(path);
    } else if (depth < MAX_DEPTH && Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (depth < MAX_DEPTH && typeof value === 'object' && value !== null) for (const item of Object.values(value)) visit(item, depth + 1);
  };
  visit(toolInput, 0);
  return paths;
}

/** A string that names one file: absolute, `~/…`, `./…`, a relative path with a slash, or a `file://` URL. */
function pathLike(text: string): string | undefined {
  if (text.length === 0 || text.length > MAX_PATH_LENGTH || /[\n\r\0]/.test(text)) return undefined;
  if (/^file:\/\//i.test(text)) return decodeFileUrl(text.slice('file://'.length).replace(/^localhost(?=\/)/i, ''));
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return undefined; // another URL scheme
  return text.startsWith('/') || text.startsWith('~') || text.startsWith('.') || text.includes('/') ? text : undefined;
}

function decodeFileUrl(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
