// The package.json scripts a Bash command runs through its manager (`npm run lint`, `yarn build`,
// `pnpm run check -- --fix`), read so that the command is judged by what they do: `eslint .` only
// reads, `tsc -p .` writes, `echo {} > .claude/settings.json` is gobby's ground. The engine names
// the calls (ProjectScriptCall); this is where the disk is asked, before the hook's transaction.
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { analyzeShellCommand, projectScriptKey, type ProjectScript, type ProjectScriptCall, type ShellAnalysis, type ShellContext } from '../workflows/index.js';
import { isWithin } from '../workflows/shell/paths.js';
import { readRegularFile } from './read-regular-file.js';

/** A package.json larger than this is not read: its scripts stay programs gobby does not know. */
const PACKAGE_JSON_LIMIT = 1024 * 1024;
/** Scripts read for one command, those its scripts run included (`"check": "npm run lint && npm run types"`). */
const SCRIPTS_PER_COMMAND = 16;

/**
 * Each script call of the command (and of the scripts it runs) → the script as it would run, by
 * `projectScriptKey`; undefined when there is none to read. Only a package.json in the project is
 * read: the phase that relies on this keeps the agent from changing it, while one in `/tmp` could
 * change between this read and the run. A command that may write the package.json itself
 * (`echo … > package.json && npm run x`) gets nothing for that call either.
 */
export function projectScriptsOf(analysis: ShellAnalysis, shell: ShellContext): Map<string, ProjectScript> | undefined {
  let found: Map<string, ProjectScript> | undefined;
  const queue = [...scriptCalls(analysis)];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < SCRIPTS_PER_COMMAND) {
    const call = queue.shift()!;
    const key = projectScriptKey(call);
    if (seen.has(key)) continue;
    seen.add(key);
    const script = readScript(call, shell, analysis);
    if (script === undefined) continue;
    (found ??= new Map()).set(key, script);
    for (const step of script.steps) queue.push(...scriptCalls(step.analysis));
  }
  return found;
}

function* scriptCalls(analysis: ShellAnalysis): Generator<ProjectScriptCall> {
  for (const effect of analysis.effects) if (effect.kind === 'exec' && effect.script !== undefined) yield effect.script;
}

/** npm's order: `preNAME`, `NAME` with the words given after it, `postNAME` (yarn 1 and bun too; the others skip the hooks, which only makes this cautious). */
function readScript(call: ProjectScriptCall, shell: ShellContext, command: ShellAnalysis): ProjectScript | undefined {
  const file = nearestPackageJson(call.folder, shell.projectRoot);
  if (file === undefined || mayWrite(command, file)) return undefined;
  const read = readRegularFile(file, PACKAGE_JSON_LIMIT);
  if (!read.ok) return undefined;
  const scripts = scriptsOf(read.text);
  const main = scripts?.[call.name];
  if (scripts === undefined || main === undefined) return undefined;
  const folder = dirname(file);
  const context = { ...shell, cwd: folder };
  const texts = [scripts[`pre${call.name}`], call.extra === '' ? main : `${main} ${call.extra}`, scripts[`post${call.name}`]].filter((text): text is string => text !== undefined);
  return { file, steps: texts.map((text) => ({ text, analysis: analyzeShellCommand(text, context) })) };
}

/** The package.json npm would use: the nearest one from `folder` upwards, in the project. */
function nearestPackageJson(folder: string, projectRoot: string): string | undefined {
  if (!isWithin(folder, projectRoot)) return undefined;
  for (let dir = folder; ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (statSync(candidate, { throwIfNoEntry: false }) !== undefined) return candidate;
    if (dir === projectRoot || dirname(dir) === dir) return undefined;
  }
}

function scriptsOf(text: string): Record<string, string> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const scripts = (parsed as { scripts?: unknown } | null)?.scripts;
  if (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts)) return undefined;
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(scripts)) if (typeof value === 'string') strings[name] = value;
  return strings;
}

/** Whether the command may change `file` before its script runs: a write, copy or move onto it, or onto a path only known at run time. */
function mayWrite(command: ShellAnalysis, file: string): boolean {
  return command.effects.some((effect) => {
    const target = effect.kind === 'write' ? effect.path : effect.kind === 'copy' || effect.kind === 'move' ? effect.to : undefined;
    return target !== undefined && (target.dynamic || target.path === file);
  });
}
