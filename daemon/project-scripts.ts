// The project's scripts a Bash command runs, read so that the command is judged by what they do:
// package.json scripts run through a manager (`npm run lint`, `yarn build`, `pnpm run check --
// --fix`), shell script files run by a shell or by their path (`bash scripts/check.sh`,
// `./scripts/check.sh`), and makefile targets (`make lint`). `eslint .` only reads, `tsc -p .` writes, `echo {} >
// .claude/settings.json` is gobby's ground. The engine names the calls (ProjectScriptCall); this
// is where the disk is asked, before the hook's transaction.
import { realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { analyzeShellCommand, MAX_COMMAND_LENGTH, projectScriptKey, scriptArguments, SHELLS_READ_AS_BASH, type ProjectScript, type ProjectScriptCall, type ShellAnalysis, type ShellContext } from '../workflows/index.js';
import { isWithin } from '../workflows/shell/paths.js';
import { makeRecipeLines } from './makefile-recipes.js';
import { readRegularFile } from './read-regular-file.js';

/** A package.json larger than this is not read: its scripts stay programs gobby does not know. */
const PACKAGE_JSON_LIMIT = 1024 * 1024;
/** Scripts read for one command, those its scripts run included (`"check": "npm run lint && npm run types"`). */
const SCRIPTS_PER_COMMAND = 16;
/**
 * Characters of script text analysed for one command: a 64 KB script file takes about 7 ms to
 * analyse, and sixteen of them would hold the Bash call up for a tenth of a second. Past this, the
 * rest stay unread (programs gobby does not know, or code it cannot see into).
 */
const SCRIPT_TEXT_PER_COMMAND = 128 * 1024;

/**
 * Each script call of the command (and of the scripts it runs) → the script as it would run, by
 * `projectScriptKey`; undefined when there is none to read. Only a package.json or a script file in
 * the project is read: the phase that relies on this keeps the agent from changing it, while one
 * in `/tmp` could change between this read and the run. A command that may write the file itself
 * (`echo … > package.json && npm run x`, `echo … >> x.sh; ./x.sh`) gets nothing for that call either.
 */
export function projectScriptsOf(analysis: ShellAnalysis, shell: ShellContext): Map<string, ProjectScript> | undefined {
  let found: Map<string, ProjectScript> | undefined;
  const queue = [...scriptCalls(analysis)];
  const seen = new Set<string>();
  let text = 0;
  while (queue.length > 0 && seen.size < SCRIPTS_PER_COMMAND && text < SCRIPT_TEXT_PER_COMMAND) {
    const call = queue.shift()!;
    const key = projectScriptKey(call);
    if (seen.has(key)) continue;
    seen.add(key);
    const script = readScript(call, shell, analysis);
    if (script === undefined) continue;
    for (const step of script.steps) text += step.text.length;
    (found ??= new Map()).set(key, script);
    for (const step of script.steps) queue.push(...scriptCalls(step.analysis));
  }
  return found;
}

function* scriptCalls(analysis: ShellAnalysis): Generator<ProjectScriptCall> {
  for (const effect of analysis.effects) if ((effect.kind === 'exec' || effect.kind === 'opaque') && effect.script !== undefined) yield effect.script;
}

function readScript(call: ProjectScriptCall, shell: ShellContext, command: ShellAnalysis): ProjectScript | undefined {
  switch (call.source) {
    case 'package.json':
      return readPackageScript(call, shell, command);
    case 'makefile':
      return readMakeTarget(call, shell, command);
    default:
      return readScriptFile(call, shell, command);
  }
}

/**
 * `make TARGET`: the recipe lines the makefile would run for it, prerequisites first, each a step
 * run in `call.folder` (makefile-recipes.ts reads only plain rules and variables). The makefile
 * is `make -f`'s, or the first of GNUmakefile, makefile and Makefile in the folder, as make looks.
 */
function readMakeTarget(call: ProjectScriptCall, shell: ShellContext, command: ShellAnalysis): ProjectScript | undefined {
  const file = call.extra !== '' ? call.extra : MAKEFILE_NAMES.map((name) => join(call.folder, name)).find((path) => statSync(path, { throwIfNoEntry: false }) !== undefined);
  const text = file === undefined ? undefined : projectFileText(file, shell, command, MAKEFILE_LIMIT);
  if (file === undefined || text === undefined) return undefined;
  const lines = makeRecipeLines(text, call.name, call.folder);
  if (lines === undefined) return undefined;
  const context = { ...shell, cwd: call.folder };
  return { file, steps: lines.map((line) => ({ text: line, analysis: analyzeShellCommand(line, context) })) };
}

const MAKEFILE_NAMES = ['GNUmakefile', 'makefile', 'Makefile'];
/** A makefile larger than this is not read: its targets stay programs gobby does not know. */
const MAKEFILE_LIMIT = 256 * 1024;

/**
 * The text of a file of the project that the command does not write first: a regular file whose
 * path and real path are both in the project (a link to `/tmp/x` could change after this read),
 * at most `limit` bytes, without NUL bytes.
 */
function projectFileText(file: string, shell: ShellContext, command: ShellAnalysis, limit: number): string | undefined {
  if (!isWithin(file, shell.projectRoot) || mayWrite(command, file)) return undefined;
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return undefined;
  }
  if (!isWithin(real, shell.projectRoot)) return undefined;
  const read = readRegularFile(real, limit);
  return read.ok && !read.text.includes('\u0000') ? read.text : undefined;
}

/**
 * A shell script file, as the shell would run it in `call.folder`: the whole file is one step.
 * Only a regular file in the project, its real path too (a link in the project to `/tmp/x.sh` is
 * not read), no longer than a command gobby parses. Run by its path, the file must be a shell
 * script by its first line (`#!/bin/bash`, `#!/usr/bin/env sh`) or have none: bash runs such a
 * file itself; a `#!/usr/bin/env python3` file stays code gobby cannot see into.
 */
function readScriptFile(call: ProjectScriptCall, shell: ShellContext, command: ShellAnalysis): ProjectScript | undefined {
  const file = call.name;
  const text = projectFileText(file, shell, command, MAX_COMMAND_LENGTH);
  if (text === undefined || (call.source === 'executable' && !startsAsShellScript(text))) return undefined;
  const scriptParameters = [file, ...scriptArguments(call)];
  return { file, steps: [{ text, analysis: analyzeShellCommand(text, { ...shell, cwd: call.folder, scriptParameters }) }] };
}

/** `#!/bin/sh`, `#!/usr/bin/bash -e`, `#!/usr/bin/env bash`, `#!/usr/bin/env -S bash -eu`, or no `#!` line at all. */
function startsAsShellScript(text: string): boolean {
  if (!text.startsWith('#!')) return true;
  const words = text.slice(2, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n')).trim().split(/\s+/);
  const interpreter = words[0]?.endsWith('/env') ? words.slice(1).find((word) => !word.startsWith('-')) : words[0];
  return interpreter !== undefined && SHELLS_READ_AS_BASH.has(interpreter.slice(interpreter.lastIndexOf('/') + 1));
}

/** npm's order: `preNAME`, `NAME` with the words given after it, `postNAME` (yarn 1 and bun too; the others skip the hooks, which only makes this cautious). */
function readPackageScript(call: ProjectScriptCall, shell: ShellContext, command: ShellAnalysis): ProjectScript | undefined {
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
