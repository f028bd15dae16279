// One of gobby's files given as the value of an option the classifier has no entry for: a known
// program's table says what its own options write (`curl -o`, `git diff --output=`), but no
// table holds every option of every program (`ncat -o F`, `nmap -oN F`, `openssl s_client
// -keylogfile F`, `mocha -O output=F`, `gotestsum --jsonfile F`). Where a word that stands as an
// option's value names one of gobby's files and no effect of the command accounts for that file,
// the option may well write it.
import type { GuardDenial, ProtectedGround } from './guards.js';
import { globReaches, isBelow, isGlob, isProtected } from './ground-paths.js';
import type { ShellAnalysis, ShellInvocation } from './shell/index.js';
import { resolveAgainst } from './shell/paths.js';
import { PRINTS_ITS_WORDS, WORDS_ARE_TEXT } from './daemon-address.js';
import { FIND_PROGRAMS } from './find-selection.js';

/**
 * Options whose value is no file the program opens: what it keeps away from (`--exclude=.gobby`,
 * `pytest --ignore=.claude`), or text it searches for or writes into a message (`git log
 * --grep=.gobby/token`, `--format=`, `--title=`).
 */
const VALUE_IS_NO_FILE = /exclude|ignore|skip|prune|deselect|omit|grep|pattern|match|regex|message|title|body|subject|format|pretty|author|committer|label|comment|description|query|search|filter/i;

/**
 * The option values of an invocation as `[option, value]`: `--opt=F`, `key=F` (and each `k=F` of a
 * list, `mocha -O a=1,output=F`), `-bl:F`, a short option's attached path (`pg_dump -f.claude/x`),
 * the word after an option (`-o F`) where `wordsAfterOptions`, and the environment's (`PIP_LOG=F`).
 */
function optionValues(invocation: ShellInvocation, wordsAfterOptions: boolean): [option: string, value: string, apart: boolean][] {
  const values: [string, string, boolean][] = [];
  const args = invocation.args;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const previous = args[i - 1];
    const eq = arg.indexOf('=');
    if (eq > 0 && (arg.startsWith('-') || /^\w+=/.test(arg))) {
      for (const item of arg.slice(eq + 1).split(',')) {
        const inner = /^(\w+)=(.*)$/.exec(item);
        values.push(inner === null ? [arg.slice(0, eq), item, false] : [inner[1]!, inner[2]!, false]);
      }
    } else if (/^-{1,2}[\w-]+:[./~]/.test(arg)) values.push([arg.slice(0, arg.indexOf(':')), arg.slice(arg.indexOf(':') + 1), false]);
    else if (wordsAfterOptions && /^-[A-Za-z][./~]/.test(arg)) values.push([arg.slice(0, 2), arg.slice(2), false]);
    else if (wordsAfterOptions && previous !== undefined && previous !== '--' && /^-./.test(previous) && !previous.includes('=') && !arg.startsWith('-')) values.push([previous, arg, true]);
  }
  for (const assignment of invocation.environment ?? []) values.push([assignment.slice(0, assignment.indexOf('=')), assignment.slice(assignment.indexOf('=') + 1), false]);
  return values;
}

/**
 * The first option value of a known program's invocation that names one of gobby's files (or a
 * glob that reaches one) no effect of the command is on, with the option; undefined for none.
 * The word after an option, and a short option's attached path, count only for a program whose
 * table records effects: one that records none only reads or prints (`readlink -f F`, `openssl dgst
 * -sha256 F`). git's words after an option are its pathspecs, revisions and search text (`git log
 * --follow F`, `-S'.gobby/token'`): only its `--opt=F` count.
 */
function unaccountedOptionValue(invocation: ShellInvocation, accounted: () => ReadonlySet<string>, recordsEffects: boolean, ground: ProtectedGround): { readonly option: string; readonly path: string } | undefined {
  if (WORDS_ARE_TEXT.has(invocation.program) || PRINTS_ITS_WORDS.has(invocation.program) || FIND_PROGRAMS.has(invocation.program)) return undefined;
  for (const [option, value, apart] of optionValues(invocation, recordsEffects && invocation.program !== 'git')) {
    if (value === '' || VALUE_IS_NO_FILE.test(option) || /[$`]/.test(value)) continue;
    const path = resolveAgainst(invocation.cwd, value);
    // A glob apart from its option may be a pattern the option takes (`zip -x '.gobby/*'`, `--glob '**/*.yaml'`); attached, it is a name (`-oN=~/.claude/settin*.json`).
    const names = isGlob(path) ? !apart && globReaches(path, ground, false) : isProtected(path, ground);
    if (names && ![...accounted()].some((known) => known === path || isBelow(known, path) || isBelow(path, known))) return { option, path };
  }
  return undefined;
}

/** A denial when a known program of the command is given one of gobby's files as the value of an option gobby has no entry for. */
export function groundInUnknownOption(shell: ShellAnalysis, ground: ProtectedGround, unknownPrograms: ReadonlySet<string>): GuardDenial | null {
  // The effects' paths, made once and only for a command whose words name one of gobby's files.
  let paths: Set<string> | undefined;
  const accounted = (): ReadonlySet<string> => (paths ??= new Set(shell.effects.flatMap((effect) => ('path' in effect ? [effect.path.path] : 'from' in effect ? [effect.from.path, effect.to.path] : []))));
  const recording = new Set(shell.effects.map((effect) => ('program' in effect ? effect.program : '')));
  for (const invocation of shell.invocations) {
    if (unknownPrograms.has(invocation.program) || invocation.nameAtRunTime) continue;
    const given = unaccountedOptionValue(invocation, accounted, recording.has(invocation.program), ground);
    if (given === undefined) continue;
    return {
      kind: 'protected-file',
      reason:
        `gobby: \`${invocation.program}\` is given ${given.path}, one of gobby's own files (its state, its workflows, or the Claude Code settings that install its hooks), ` +
        `as the value of \`${given.option}\`, an option gobby has no entry for, which may write it. Give the option a file of your own; ask the user if one of gobby's needs changing.`,
      because: 'guard: protected file given to an option',
    };
  }
  return null;
}
