// One of gobby's files given as the value of an option the classifier has no entry for: a known
// program's table says what its own options write (`curl -o`, `git diff --output=`), but no
// table holds every option of every program (`ncat -o F`, `nmap -oN F`, `openssl s_client
// -keylogfile F`, `mocha -O output=F`, `gotestsum --jsonfile F`). Where a word that stands as an
// option's value names one of gobby's files and no effect of the command accounts for that file,
// the option may well write it.
import type { GuardDenial, ProtectedGround } from './guards.js';
import { isBelow, isProtected } from './ground-paths.js';
import type { ShellAnalysis, ShellInvocation } from './shell/index.js';
import { resolveAgainst } from './shell/paths.js';
import { WORDS_ARE_TEXT } from './daemon-address.js';
import { FIND_PROGRAMS } from './find-selection.js';

/**
 * Options whose value is no file the program opens: what it keeps away from (`--exclude=.gobby`,
 * `pytest --ignore=.claude`), or text it searches for or writes into a message (`git log
 * --grep=.gobby/token`, `--format=`, `--title=`).
 */
const VALUE_IS_NO_FILE = /exclude|ignore|skip|prune|deselect|omit|grep|pattern|match|regex|message|title|body|subject|format|pretty|author|committer|label|comment|description|query|search|filter/i;

/**
 * The first word of a known program's invocation that stands as an option's value (`--opt=F`,
 * `key=F`, or the word after an option, `-o F`) and names one of gobby's files that no effect of
 * the command is on, with the option; undefined for none. git's words after an option are its
 * pathspecs and revisions (`git log --follow F`, `git rm --cached F`): only its `--opt=F` count.
 */
function unaccountedOptionValue(invocation: ShellInvocation, accounted: () => ReadonlySet<string>, ground: ProtectedGround): { readonly option: string; readonly path: string } | undefined {
  if (WORDS_ARE_TEXT.has(invocation.program) || FIND_PROGRAMS.has(invocation.program)) return undefined;
  const args = invocation.args;
  const wordsAfterOptions = invocation.program !== 'git';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const previous = args[i - 1];
    const eq = arg.indexOf('=');
    let option: string;
    let value: string;
    if (eq > 0 && (arg.startsWith('-') || /^\w+=/.test(arg))) {
      option = arg.slice(0, eq);
      value = arg.slice(eq + 1);
    } else if (wordsAfterOptions && previous !== undefined && previous !== '--' && /^-./.test(previous) && !previous.includes('=') && !arg.startsWith('-')) {
      option = previous;
      value = arg;
    } else continue;
    if (value === '' || VALUE_IS_NO_FILE.test(option) || /[$`*?[]/.test(value)) continue;
    const path = resolveAgainst(invocation.cwd, value);
    if (isProtected(path, ground) && ![...accounted()].some((known) => known === path || isBelow(known, path) || isBelow(path, known))) return { option, path };
  }
  return undefined;
}

/** A denial when a known program of the command is given one of gobby's files as the value of an option gobby has no entry for. */
export function groundInUnknownOption(shell: ShellAnalysis, ground: ProtectedGround, unknownPrograms: ReadonlySet<string>): GuardDenial | null {
  // The effects' paths, made once and only for a command whose words name one of gobby's files.
  let paths: Set<string> | undefined;
  const accounted = (): ReadonlySet<string> => (paths ??= new Set(shell.effects.flatMap((effect) => ('path' in effect ? [effect.path.path] : 'from' in effect ? [effect.from.path, effect.to.path] : []))));
  for (const invocation of shell.invocations) {
    if (unknownPrograms.has(invocation.program) || invocation.nameAtRunTime) continue;
    const given = unaccountedOptionValue(invocation, accounted, ground);
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
