// What Bash may do in a phase that does not let the file tools change files. Such a phase
// (plan, review, "no edits until a failing test exists") must still let the agent read,
// search and run tests, so Bash stays allowed, and the command is judged by its effects
// (workflows/shell/): everything that changes the project's files is refused, whatever
// program or spelling does it, and so is code gobby cannot see into, unless the workflow's
// author allows it by name.
import type { ShellAnalysis, ShellEffect } from './shell/index.js';

/** A phase's rules for shell commands, compiled from its tools and its `shell:` key. */
export interface ShellPolicy {
  /** Neither Write nor Edit may run in the phase: shell commands may not change project files either. */
  readonly restrictsFileChanges: boolean;
  /** Programs or project tasks (`terraform`, `npm run build`) the author allows although gobby cannot see what they change. */
  readonly allowPrograms: readonly string[];
  /** Inline interpreter code, scripts and values built at run time are allowed. */
  readonly allowOpaque: boolean;
}

/** Why a command is refused: what it would do, and the definition key that would allow it, if any. */
export interface ShellRefusal {
  readonly what: string;
  readonly allowedBy?: string;
}

export function judgeShellCommand(shell: ShellAnalysis, policy: ShellPolicy, projectRoot: string): ShellRefusal | null {
  if (!policy.restrictsFileChanges) return null;
  for (const effect of shell.effects) {
    const refusal = judgeEffect(effect, policy, projectRoot);
    if (refusal) return refusal;
  }
  return null;
}

function judgeEffect(effect: ShellEffect, policy: ShellPolicy, projectRoot: string): ShellRefusal | null {
  const inProject = (path: { path: string; dynamic: boolean }): boolean =>
    path.dynamic || path.path === projectRoot || path.path.startsWith(`${projectRoot}/`);
  switch (effect.kind) {
    case 'write':
      return inProject(effect.path) ? { what: `writes ${describePath(effect.path)} (${effect.program})` } : null;
    case 'delete':
      return inProject(effect.path) ? { what: `deletes ${describePath(effect.path)} (${effect.program})` } : null;
    case 'move':
      return inProject(effect.from) || inProject(effect.to)
        ? { what: `moves ${describePath(effect.from)} to ${describePath(effect.to)} (${effect.program})` }
        : null;
    case 'copy':
      return inProject(effect.to) ? { what: `copies onto ${describePath(effect.to)} (${effect.program})` } : null;
    case 'git':
      return effect.changesFiles ? { what: `runs \`git ${effect.subcommand}\`, which changes the repository or its files` } : null;
    case 'package_install':
      return { what: `installs packages with ${effect.manager}, which changes the project's dependencies` };
    case 'opaque':
      return policy.allowOpaque
        ? null
        : { what: `runs code gobby cannot see into (${effect.why})`, allowedBy: 'shell: { allow_opaque: true }' };
    case 'exec':
      return policy.allowPrograms.includes(effect.program)
        ? null
        : {
            what: `runs \`${effect.program}\`, which gobby does not know and so cannot tell what it changes`,
            allowedBy: `shell: { allow_programs: [${JSON.stringify(effect.program)}] }`,
          };
    case 'nested_claude':
      return policy.allowPrograms.includes('claude')
        ? null
        : { what: 'starts another Claude Code, which could change files', allowedBy: 'shell: { allow_programs: ["claude"] }' };
    case 'read':
    case 'network':
    case 'test_run':
    case 'signal':
      return null;
  }
}

function describePath(path: { path: string; dynamic: boolean }): string {
  return path.dynamic ? `${path.path} (a path only known when it runs)` : path.path;
}

/**
 * MCP tools whose name says they change something (`mcp__fs__write_file`,
 * `mcp__github__create_or_update_file`): refused with the file tools in such a phase.
 */
const CHANGING_WORDS = /(^|_|-)(write|edit|create|delete|remove|move|rename|update|put|patch|insert|append|upload|commit|push|replace|apply|save|set)(_|-|$)/i;

export function mcpToolChangesFiles(toolName: string): boolean {
  const match = /^mcp__[^_]+(?:_[^_]+)*?__(.+)$/.exec(toolName);
  return match !== null && CHANGING_WORDS.test(match[1]!);
}
