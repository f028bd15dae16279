// What Bash may do in a phase that does not let the file tools change files. Such a phase
// (plan, review, "no edits until a failing test exists") must still let the agent read,
// search and run tests, so Bash stays allowed, and the command is judged by its effects
// (workflows/shell/): everything that changes the project's files is refused, whatever
// program or spelling does it, and so is code gobby cannot see into, unless the workflow's
// author allows it by name.
import { globMayReachHomeConfig, globMayReachWithin } from './ground-paths.js';
import { projectScriptKey, type PathRef, type ShellAnalysis, type ShellEffect } from './shell/index.js';
import { isSystemPath, isWithin, SYSTEM_FOLDERS } from './shell/paths.js';
import { throughLinks } from './shell-through-links.js';
import { mcpToolWords } from './tool-names.js';

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
  /** `shell: { allow_opaque: true }` allows it too, with all other code gobby cannot see into. */
  readonly orAllOpaque?: true;
}

/** Where the session works: the project whose files the phase protects, and the user's home. */
export interface PolicyPlace {
  readonly projectRoot: string;
  readonly home: string;
}

/**
 * A package.json script a command runs (`npm run lint`), as the daemon read it: each step in the
 * order the manager runs them (`prelint`, `lint` with the words given after it, `postlint`).
 */
export interface ProjectScript {
  readonly file: string;
  readonly steps: readonly { readonly text: string; readonly analysis: ShellAnalysis }[];
}

/** What the daemon read for a command: the real paths behind its symbolic links, and the project scripts it runs. */
export interface ReadForCommand {
  /** Each path the command names → the real path behind its symbolic links. */
  readonly realPaths?: ReadonlyMap<string, string> | undefined;
  /** Each script call (`projectScriptKey`) → the script. */
  readonly projectScripts?: ReadonlyMap<string, ProjectScript> | undefined;
}

/** Scripts that run scripts (`"check": "npm run lint && npm run build"`) are followed this deep. */
export const SCRIPT_DEPTH = 4;

/** The project script an effect runs (`npm run lint`, `bash scripts/check.sh`), as the daemon read it; undefined when it read none. */
export function scriptRunBy(effect: ShellEffect, scripts: ReadonlyMap<string, ProjectScript> | undefined): ProjectScript | undefined {
  return (effect.kind === 'exec' || effect.kind === 'opaque') && effect.script !== undefined ? scripts?.get(projectScriptKey(effect.script)) : undefined;
}

export function judgeShellCommand(shell: ShellAnalysis, policy: ShellPolicy, place: PolicyPlace, read: ReadForCommand = {}, depth = 0): ShellRefusal | null {
  if (!policy.restrictsFileChanges) return null;
  const { realPaths } = read;
  for (const effect of shell.effects) {
    const script = depth < SCRIPT_DEPTH ? scriptRunBy(effect, read.projectScripts) : undefined;
    if (script !== undefined) {
      // The project's script, judged by what its text does where the call is not trusted as it is
      // (`allow_programs`, `allow_opaque`); a step that is refused refuses the call, and the reason
      // keeps the call's own way to allow it.
      const asIs = judgeEffect(effect, policy, place);
      if (asIs === null) continue;
      for (const step of script.steps) {
        const inner = judgeShellCommand(step.analysis, policy, place, read, depth + 1);
        if (inner) return { ...asIs, what: effect.kind === 'exec' ? `runs \`${effect.program}\`, whose script \`${scriptAsQuoted(step.text)}\` ${inner.what}` : `runs ${script.file}, which ${inner.what}` };
      }
      continue;
    }
    const real = realPaths && realPaths.size > 0 ? throughLinks(effect, realPaths) : effect;
    const refusal = judgeEffect(effect, policy, place) ?? (real !== effect ? judgeEffect(real, policy, place) : null);
    if (refusal) return refusal;
  }
  return null;
}

/** A script's text as a reason quotes it: one line, clipped. */
export function scriptAsQuoted(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}


/**
 * Outside the project, most writes are the agent's scratch (`/tmp`). Not these: the home's dot
 * files and folders (`~/.gitconfig`, `~/.ssh/config`, `~/.npmrc`, `~/.bashrc`, `~/.local/bin`,
 * `~/.config/…`) and `~/bin`, where a file changes what `git status`, `ssh`, `npm test` or any
 * command found on PATH does, and the system's folders.
 */
export function changesWhatCommandsDo(path: string, home: string): boolean {
  // The system's programs, libraries and configuration: `/usr/local/bin/grep`, or `/etc/gitconfig`
  // setting `core.fsmonitor`, would run the agent's code inside a trusted command.
  if (isSystemPath(path)) return true;
  if (!path.startsWith(`${home}/`)) return false;
  // Any `bin` folder in the home (`~/bin`, `~/go/bin`, `~/.cargo/bin`): its programs are found by name.
  const segments = path.slice(home.length + 1).split('/');
  if (segments[0]!.startsWith('.') || segments.slice(0, -1).includes('bin')) return true;
  // Code the project's builds and tests load without checking it again: Go's module cache and GOPATH
  // sources (`~/go/pkg/mod`, `~/go/src`), and a `node_modules` folder, where node's resolution
  // looks from the project's folders up (`~/node_modules`).
  return (segments[0] === 'go' && (segments[1] === 'pkg' || segments[1] === 'src') && segments.length > 2) || segments.slice(0, -1).includes('node_modules');
}

/**
 * Whether a path only known at run time can only name files in one fixed folder outside the
 * project: what is unknown is a glob or "anything below" (`/tmp/t/**` of `cargo build --target-dir
 * /tmp/t`, `/tmp/*.log`, `mktemp`'s `/tmp/tmp.XXXXXXXXXX`), never text from a substitution or a
 * variable (`/tmp/r-$(…)` could hold `../` back into the project), and none of them is the project
 * or in it (`/tmp/*` reaches a project under /tmp; `/tmp/tmp.*` only one named `tmp.…`).
 */
function namesOnlyFilesIn(path: string, projectRoot: string, home: string): boolean {
  if (!path.startsWith('/') || /[$`]|\/\.\.?(?:\/|$)/.test(path)) return false;
  // Without a glob, the text is only the likeliest value (`${OUT:-/tmp/x}`): OUT may name anything.
  const wildcard = path.search(/[*?[]/);
  if (wildcard === -1) return false;
  const folder = path.slice(0, path.lastIndexOf('/', wildcard)) || '/';
  if (isWithin(folder, projectRoot) || changesWhatCommandsDo(folder, home)) return false;
  // From a folder above them, a glob may name the home's configuration or the system's folders
  // (`/home/*/.bashrc`, `/u*/local/bin/grep`, `/*/gitconfig`).
  if (isWithin(home, folder) && globMayReachHomeConfig(path, home)) return false;
  if (SYSTEM_FOLDERS.some((system) => isWithin(system, folder) && globMayReachWithin(path, system))) return false;
  return !isWithin(projectRoot, folder) || !globMayReachWithin(path, projectRoot);
}

function judgeEffect(effect: ShellEffect, policy: ShellPolicy, place: PolicyPlace): ShellRefusal | null {
  const { projectRoot, home } = place;
  const protectedHere = (path: PathRef): boolean =>
    (path.dynamic && (path.unplaced === true || !namesOnlyFilesIn(path.path, projectRoot, home))) || isWithin(path.path, projectRoot) || changesWhatCommandsDo(path.path, home);
  // A folder above the project holds it: deleting or moving it away takes the project's files along
  // (`rm -rf ..`); the home, or a folder above it, takes its dot files along (`rm -rf ~` with the project in /srv).
  const takesProject = (path: PathRef): boolean => protectedHere(path) || isWithin(projectRoot, path.path) || isWithin(home, path.path);
  // Outside the project, say why the place counts.
  const describe = (path: { path: string; dynamic: boolean }): string =>
    !path.dynamic && changesWhatCommandsDo(path.path, home) ? `${path.path} (configuration or programs that other commands use)` : describePath(path);
  switch (effect.kind) {
    case 'write':
      return protectedHere(effect.path) ? { what: `writes ${describe(effect.path)} (${effect.program})` } : null;
    case 'delete':
      return takesProject(effect.path) ? { what: `deletes ${describe(effect.path)} (${effect.program})` } : null;
    case 'move':
      return takesProject(effect.from) || protectedHere(effect.to)
        ? { what: `moves ${describe(effect.from)} to ${describe(effect.to)} (${effect.program})` }
        : null;
    case 'copy':
      return protectedHere(effect.to) ? { what: `copies onto ${describe(effect.to)} (${effect.program})` } : null;
    case 'git':
      return effect.changesFiles ? { what: `runs \`git ${effect.subcommand}\`, which changes the repository or its files` } : null;
    case 'package_install':
      return { what: `installs packages with ${effect.manager}, which changes the project's dependencies` };
    case 'opaque':
      // An author may trust one interpreter (`allow_programs: ["python3"]`) or all such code.
      if (policy.allowOpaque || (effect.program !== undefined && policy.allowPrograms.includes(effect.program))) return null;
      return {
        what: `runs code gobby cannot see into (${effect.why})`,
        ...(effect.program === undefined
          ? { allowedBy: 'shell: { allow_opaque: true }' }
          : { allowedBy: `shell: { allow_programs: [${JSON.stringify(effect.program)}] }`, orAllOpaque: true as const }),
      };
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
const CHANGING_WORDS = new Set(['write', 'edit', 'create', 'delete', 'remove', 'move', 'rename', 'update', 'put', 'patch', 'insert', 'append', 'upload', 'commit', 'push', 'replace', 'apply', 'save', 'set']);

export function mcpToolChangesFiles(toolName: string): boolean {
  return mcpToolWords(toolName)?.some((word) => CHANGING_WORDS.has(word)) ?? false;
}

/**
 * MCP tools whose name says they run code (`mcp__ide__executeCode`, `mcp__jupyter__run_cell`,
 * `mcp__py__eval`): code gobby cannot see into, unless the tool gives a shell command, which is
 * judged as Bash's is.
 */
const CODE_WORDS = new Set(['execute', 'exec', 'eval', 'evaluate', 'run', 'shell', 'terminal', 'script', 'python', 'repl', 'kernel', 'cell']);

export function mcpToolRunsCode(toolName: string): boolean {
  return mcpToolWords(toolName)?.some((word) => CODE_WORDS.has(word)) ?? false;
}
