// Developer tools: git by subcommand, package managers, test runners, build tools, formatters
// and linters, containers, and a nested `claude`. Project scripts (`npm run build`, `make dist`)
// run code gobby cannot see but can name, so they are `exec` of that name (see docs/shell-effects.md).
import { hasOption, lastOptionValue, negated, optionValues, parseArgv, sliceArg, type OptionSpec, type ParsedArgv } from './argv.js';
import { PACKAGE_RUNNER, PROJECT_RUNNER } from './programs-code.js';
import { DPKG_DEB_ACTION, dpkgDeb } from './programs-files.js';
import { entries, everythingBelow, NAMED_IN_A_LIST, filesIn, filesNamedByData, inEachDirectory, isTestScriptName, loadsForeignCode, mayBeAgentsFile, nameSaysItChanges, onlyAsksVersion, operandsOf, projectScriptCall, readsOperands, runsTests, workingDirectory, writesOutputOptions, type CommandSite, type ProgramEntry, type ProgramHandler, type ShellEffects } from './program-kit.js';
import { baseName, isUrl, isWithin } from './paths.js';
import { anyDepth } from './find-expression.js';
import type { PathRef, ProjectScriptCall } from './types.js';
import { literalArg, type Arg } from './words.js';

/** Subcommands that take the script's name next (`npm run x`); `npm start` names its script itself. */
const RUN_WORDS = new Set(['run', 'run-script', 'rum', 'urn']);

/** A pathspec names a file or a folder: `git checkout old -- .claude` rewrites everything below it. */
function writePathspec(path: Arg, fx: ShellEffects): void {
  for (const ref of pathspecPaths(path, fx)) {
    fx.write('git', ref);
    fx.write('git', everythingBelow(fx, ref));
  }
}

/**
 * A git pathspec's paths. Without magic, a wildcard matches across `/`, dot names included: `git
 * rm -r '*.json'` reaches `.claude/settings.json`, and so does a star before a folder's slash, so
 * the pattern's last name may be anywhere below the folder before its first wildcard. Magic is read as git
 * reads it: `:(literal)` is the path itself, `:(glob)` the shell's rules with `**`, `:(icase)`
 * letters in either case, `:/` and `:(top)` from the repository's top (taken to be the working
 * directory, where the agent's commands run), and `:!`/`:^`/`:(exclude)` take paths away.
 */
function pathspecPaths(path: Arg, fx: ShellEffects): readonly PathRef[] {
  if (path.dynamic) return [fx.path(path)];
  const magic = /^:(?:\(([^)]*)\)|([/!^]*))/.exec(path.value);
  const words = magic?.[1]?.split(',').map((word) => word.trim()) ?? [];
  if (magic !== null && (/[!^]/.test(magic[2] ?? '') || words.includes('exclude'))) return [];
  let pattern = magic === null ? path.value : path.value.slice(magic[0].length) || '.';
  if (words.includes('literal')) return [fx.path(literalArg(pattern))];
  if (words.includes('icase')) pattern = pattern.replace(/[a-zA-Z]/g, (letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`);
  const ref = fx.path({ ...path, value: pattern });
  const wildcard = pattern.search(/[*?[]/);
  if (wildcard === -1 || words.includes('glob')) return [ref];
  const slash = pattern.lastIndexOf('/', wildcard);
  const folder = fx.path(literalArg(slash === -1 ? '.' : pattern.slice(0, slash) || '/'));
  const name = pattern.slice(pattern.lastIndexOf('/') + 1);
  return [ref, ...anyDepth(name).map((glob): PathRef => ({ ...folder, path: `${folder.path === '/' ? '' : folder.path}/${glob}`, dynamic: true }))];
}

// ---------- git ----------

const GIT_READS = new Set([
  'status', 'log', 'diff', 'show', 'blame', 'annotate', 'rev-parse', 'ls-files', 'ls-tree', 'cat-file', 'grep', 'describe',
  'shortlog', 'whatchanged', 'rev-list', 'merge-base', 'name-rev', 'count-objects', 'for-each-ref', 'show-ref', 'show-branch',
  'check-ignore', 'check-attr', 'check-ref-format', 'check-mailmap', 'var', 'version', 'help', 'cherry', 'range-diff',
  'verify-commit', 'verify-tag', 'fsck', 'diff-tree', 'diff-files', 'diff-index', 'get-tar-commit-id', 'column', 'stripspace',
  'merge-tree', 'patch-id', 'show-index', 'verify-pack', 'ls-remote-refs', 'interpret-trailers', 'check-ignore', 'fmt-merge-msg',
]);
const GIT_NETWORK = new Set(['push', 'pull', 'clone', 'ls-remote', 'send-email', 'request-pull', 'archive-remote']);
const GIT_RUNS_COMMANDS = new Set(['difftool', 'mergetool', 'filter-branch', 'filter-repo', 'instaweb', 'web--browse', 'credential']);
const GIT_KNOWN_WRITERS = new Set([
  'add', 'commit', 'merge', 'rebase', 'cherry-pick', 'revert', 'am', 'switch', 'stash', 'init', 'gc', 'prune', 'repack',
  'update-index', 'update-ref', 'write-tree', 'read-tree', 'commit-tree', 'hash-object', 'replace', 'notes', 'worktree',
  'sparse-checkout', 'submodule', 'lfs', 'bisect', 'tag', 'branch', 'remote', 'config', 'reflog', 'symbolic-ref', 'maintenance',
  'pack-refs', 'checkout', 'restore', 'reset', 'clean', 'rm', 'mv', 'apply', 'format-patch', 'archive', 'bundle', 'mktag', 'mktree',
  'checkout-index', 'merge-file', 'rerere', 'fast-import', 'pull', 'clone', 'push',
]);
/** `git -c` keys that only change how output looks or how text is compared. Any other can make git run a command. */
const SAFE_GIT_CONFIG = /^(?:color\.[\w.-]+|user\.(?:name|email)|advice\.[\w.-]+|core\.(?:quotepath|abbrev|autocrlf|safecrlf|eol|filemode|ignorecase|precomposeunicode|whitespace|commentchar|commentstring)|init\.defaultbranch|column\.\w+|log\.\w+|diff\.(?:noprefix|mnemonicprefix|renames|renamelimit|relative|algorithm|colormoved|colormovedws|context|interhunkcontext|statgraphwidth|statnamewidth|indentheuristic|suppressblankempty|wserrorhighlight|ignoresubmodules|submodule)|merge\.conflictstyle|status\.\w+|grep\.\w+|blame\.\w+|safe\.directory|i18n\.\w+|format\.pretty|protocol\.version|fetch\.prune|http\.(?:sslverify|postbuffer|version|lowspeedlimit|lowspeedtime|maxrequests))$/i;
/** `git -c` keys whose value is a command git runs (a pager, an editor, ssh): judged as that command. */
const GIT_COMMAND_CONFIG = /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|askpass)|diff\.external|sequence\.editor|pager\.[\w-]+|gpg\.program|gpg\.\w+\.program)$/i;
/** A boolean, as `pager.<cmd>` takes to switch paging off or on (`pager.log=false`). */
const GIT_BOOLEAN = /^(?:true|false|yes|no|on|off|[01])$/i;
/**
 * Long options with which git runs the program they name, as any unambiguous shortening
 * (`--upl=…`): on the remote side's behalf, `--upload-pack`, `--receive-pack`, `--exec`; to show
 * files, `git grep --open-files-in-pager`. `-u` (clone, ls-remote) and `-O` (grep) are short forms.
 */
const GIT_PROGRAM_OPTIONS = ['--upload-pack', '--receive-pack', '--exec', '--open-files-in-pager'];
const GIT_PROGRAM_SHORT: ReadonlyMap<string, string> = new Map([['clone', 'u'], ['ls-remote', 'u'], ['grep', 'O']]);
/** The subcommands that take one of them (the rest do not: no need to look, on the hot path). */
/** A command of plain words, with nothing the shell would expand, quote or join. */
const PLAIN_WORDS = /^[\w@%+=:,./ -]+$/;
const GIT_RUNS_PROGRAMS = new Set(['fetch', 'pull', 'clone', 'ls-remote', 'archive', 'push', 'grep', 'send-pack', 'fetch-pack']);

/**
 * The programs a git subcommand is told to run, each judged as the shell command it is
 * (`git ls-remote --upload-pack='rm -rf x; false' .` deletes x); a value only known at run time is opaque.
 */
function gitProgramOptions(sub: string, rest: readonly Arg[], fx: ShellEffects): void {
  if (!GIT_RUNS_PROGRAMS.has(sub)) return;
  const short = GIT_PROGRAM_SHORT.get(sub);
  for (let j = 0; j < rest.length; j++) {
    const arg = rest[j]!;
    const value = arg.value;
    if (value === '--') return;
    // grep's pager is an optional value, given only attached (`-Oless`, `--open-files-in-pager=less`).
    const optional = sub === 'grep';
    let program: Arg | undefined;
    if (value.startsWith('--') && value.length > 2) {
      const eq = value.indexOf('=');
      const spelled = eq === -1 ? value : value.slice(0, eq);
      if (!GIT_PROGRAM_OPTIONS.some((option) => option.startsWith(spelled))) continue;
      program = eq !== -1 ? { ...arg, value: value.slice(eq + 1), unknownAt: arg.unknownAt === -1 ? -1 : Math.max(0, arg.unknownAt - eq - 1) } : optional ? undefined : rest[++j];
    } else if (short !== undefined && !value.startsWith('--') && value.indexOf(short, 1) !== -1 && /^-[a-zA-Z]+/.test(value)) {
      // In a cluster too (`-qu CMD`): the rest of the word, or the next one, is the program.
      const at = value.indexOf(short, 1);
      program = value.length > at + 1 ? { ...arg, value: value.slice(at + 1), unknownAt: arg.unknownAt === -1 ? -1 : Math.max(0, arg.unknownAt - at - 1) } : optional ? undefined : rest[++j];
    } else continue;
    if (program === undefined) fx.opaque(`git ${sub} ${value} runs the configured pager`, 'git');
    // `git grep -O'sed -i …'`: the pager is given every file that matched, which the search chose.
    else if (sub === 'grep' && !program.dynamic && PLAIN_WORDS.test(program.value)) fx.run(program.value.trim().split(/\s+/).map(literalArg), { stdinArgs: true });
    else fx.runShellCode(program, 'git', false);
  }
}


/**
 * A configuration value git may run later: `core.pager`, `alias.x=!cmd` and the like are judged
 * as the command they name, and any key not known to be harmless (`core.fsmonitor`,
 * `core.hooksPath`, `filter.*.clean`, `include.path`) is code gobby cannot see into. For
 * `git -c key=value` it runs now; for `git config key value` when git next runs (`git config
 * core.fsmonitor 'rm -rf .claude' && git status`), which is judged the same.
 */
function gitSetting(key: string, value: Arg, fx: ShellEffects, spelled: string): void {
  if (GIT_COMMAND_CONFIG.test(key)) {
    // `-c core.pager=cat`, `-c pager.log=false`, `core.fsmonitor=true` (git's own): the command it names, if any, is judged as such.
    if (!GIT_BOOLEAN.test(value.value) || !/^(?:pager\.|core\.fsmonitor$)/i.test(key)) fx.runShellCode(value, 'git', false);
  } else if (/^alias\./i.test(key) && value.value.startsWith('!') && !value.dynamic) {
    // `alias.x=!sh -c …`: a shell command run when `git x` is.
    fx.runShellCode(literalArg(value.value.slice(1)), 'git', false);
  } else if (!SAFE_GIT_CONFIG.test(key)) fx.opaque(`${spelled} sets configuration that can make git run a command (core.pager, alias.*, core.fsmonitor…)`, 'git');
}

/** `git config [--global|--file F|…] KEY VALUE`, `git config set KEY VALUE`, `--add`/`--replace-all`: the setting, judged by gitSetting. */
function gitConfigSet(rest: readonly Arg[], fx: ShellEffects): void {
  const parsed = parseArgv(rest, { short: 'f', long: ['file', 'blob', 'type', 'default', 'comment', 'value', 'url'] });
  const flags = rest.filter((arg) => arg.value.startsWith('-')).map((arg) => arg.value);
  // Reading, unsetting, renaming and listing set nothing.
  if (flags.some((flag) => /^--(?:get|get-all|get-regexp|get-urlmatch|list|unset|unset-all|rename-section|remove-section|show-origin|show-scope|name-only)$|^-l$/.test(flag))) return;
  if (flags.some((flag) => flag === '-e' || flag === '--edit')) {
    fx.opaque('git config --edit opens the configuration in an editor, which can set anything', 'git');
    return;
  }
  const operands = operandsOf(parsed, { program: 'git', args: rest, stdinArgs: false });
  const verb = operands[0]?.value;
  if (verb === 'edit') fx.opaque('git config edit opens the configuration in an editor, which can set anything', 'git');
  if (verb === 'get' || verb === 'list' || verb === 'unset' || verb === 'rename-section' || verb === 'remove-section' || verb === 'edit') return;
  const [key, value] = verb === 'set' ? operands.slice(1) : operands;
  if (key === undefined || value === undefined) return;
  if (key.dynamic) fx.opaque('git config sets a key named at run time, which can make git run a command', 'git');
  else gitSetting(key.value, value, fx, `git config ${key.value}`);
}

/** The words of a `git ext::` command, as git splits them (`%S`, `%s` and `%G` stand for what git fills in). */
function extTransportWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === '%' && i + 1 < command.length) word += command[++i] === ' ' ? ' ' : command[i] === '%' ? '%' : '';
    else if (c === ' ') {
      if (word !== '') words.push(word);
      word = '';
    } else word += c;
  }
  if (word !== '') words.push(word);
  return words;
}

function dryRun(flags: readonly string[]): boolean {
  return flags.some((flag) => flag === '-n' || flag === '--dry-run') && !negated(flags, 'dry-run');
}

/** Listing forms of `git branch`/`tag`/`remote`/`config`/`stash`/… that change nothing. */
function gitSubcommandReads(sub: string, rest: readonly Arg[]): boolean {
  const words = rest.map((arg) => arg.value);
  const flags = words.filter((word) => word.startsWith('-'));
  const operands = words.filter((word) => !word.startsWith('-'));
  switch (sub) {
    case 'branch':
      return operands.length === 0 ? !flags.some((flag) => /^-(?:[dDmMcCfu]|-delete|-move|-copy|-force|-set-upstream-to|-unset-upstream|-edit-description|-track)/.test(flag)) : flags.some((flag) => /^(?:-l|--list|--contains|--no-contains|--merged|--no-merged|--points-at)$/.test(flag));
    case 'tag':
      return operands.length === 0 || flags.some((flag) => /^(?:-l|--list|-n\d*|--contains|--no-contains|--merged|--no-merged|--points-at|-v|--verify)$/.test(flag));
    case 'remote':
      return operands.length === 0 || ['show', 'get-url'].includes(operands[0]!) || (operands[0] === 'prune' && dryRun(flags));
    case 'prune':
    case 'commit':
    case 'add':
    case 'stage':
    case 'rm':
    case 'mv':
      // `git add -n .`, `git rm -n x`, `git mv -n a b`: what would be staged, removed or moved, listed.
      return dryRun(flags);
    case 'rerere':
      return ['status', 'diff', 'remaining'].includes(operands[0] ?? '');
    case 'replace':
      return flags.some((flag) => flag === '-l' || flag === '--list') || flags.length === 0 && operands.length === 0;
    case 'bundle':
      return operands[0] === 'verify' || operands[0] === 'list-heads';
    case 'hash-object':
      // Without -w the object's name is printed, not stored.
      return !flags.some((flag) => /^-[a-z]*w/.test(flag));
    case 'config':
      return flags.some((flag) => /^(?:--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--show-origin|--show-scope|--name-only)$/.test(flag)) || ['get', 'list'].includes(operands[0] ?? '') || (operands.length === 1 && !flags.some((flag) => /^--(?:unset|unset-all|add|replace-all|rename-section|remove-section|edit)$|^-e$/.test(flag)));
    case 'reflog':
      // `git reflog`, `git reflog -n 10`, `git reflog main`: shown; `expire`, `delete` and `drop` change it (unless `-n`).
      return (operands[0] !== 'expire' && operands[0] !== 'delete' && operands[0] !== 'drop') || dryRun(flags);
    case 'stash':
    case 'worktree':
    case 'notes':
    case 'submodule':
    case 'sparse-checkout':
    case 'lfs':
    case 'bisect':
      return ['list', 'show', 'status', 'summary', 'log', 'ls-files', 'env', 'visualize', 'view'].includes(operands[0] ?? (sub === 'submodule' ? 'status' : ''));
    case 'symbolic-ref':
      return operands.length <= 1 && !flags.includes('-d') && !flags.includes('--delete');
    // The flag that makes them only print counts unless a `--no-` form undoes it (`--check --no-check` applies).
    case 'apply':
      return flags.some((flag) => /^--(?:check|stat|numstat|summary)$/.test(flag) && !negated(flags, flag.slice(2))) && !flags.includes('--apply');
    case 'clean':
      return flags.some((flag) => /^(?:-n|--dry-run|-[a-zA-Z]*n[a-zA-Z]*)$/.test(flag)) && !negated(flags, 'dry-run');
    case 'archive':
    case 'format-patch':
      return (flags.includes('--stdout') && !negated(flags, 'stdout')) || (sub === 'archive' && !flags.some((flag) => flag.startsWith('-o') || (flag.length > 4 && '--output'.startsWith(flag.split('=')[0]!))));
    default:
      return false;
  }
}

const git: ProgramHandler = (site, fx) => {
  const args = site.args;
  let here = fx;
  let gitDir: Arg | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    const value = arg.value;
    if (arg.dynamic && value.startsWith('-')) {
      fx.opaque('git is given options built at run time', 'git');
      return;
    }
    if (!value.startsWith('-')) break;
    if (value === '-C') here = here.at(args[++i] ?? literalArg('.'));
    else if (value === '-c' || value === '--config-env') {
      const setting = args[++i];
      const eq = setting?.value.indexOf('=') ?? -1;
      const key = eq === -1 ? (setting?.value ?? '') : setting!.value.slice(0, eq);
      const value = eq === -1 ? '' : setting!.value.slice(eq + 1);
      if (!setting || setting.dynamic) fx.opaque(`git -c ${setting?.value ?? ''} sets configuration built at run time, which can make git run a command`, 'git');
      else gitSetting(key, literalArg(value), fx, `git -c ${setting.value}`);
    } else if (value.startsWith('--config-env=') || value.startsWith('--exec-path=')) fx.opaque(`git ${value} can make git run a command`, 'git');
    else if (value === '--work-tree' || value.startsWith('--work-tree=')) here = here.at(value.includes('=') ? { ...arg, value: value.slice(value.indexOf('=') + 1) } : args[++i] ?? literalArg('.'));
    else if (value === '--git-dir' || value.startsWith('--git-dir=')) gitDir = value.includes('=') ? { ...arg, value: value.slice(value.indexOf('=') + 1) } : args[++i];
    else if (value === '--namespace' || value === '--super-prefix') i++;
    else if (value === '--version' || value === '--help' || value === '-h') return;
  }
  const subArg = args[i];
  if (!subArg) return;
  if (subArg.dynamic) {
    fx.opaque('git runs a subcommand named at run time', 'git');
    return;
  }
  const sub = subArg.value;
  const rest = args.slice(i + 1);
  gitProgramOptions(sub, rest, fx);
  if (sub === 'config') gitConfigSet(rest, fx);
  // A repository outside the project has a configuration the agent may have written
  // (`core.fsmonitor`, `core.pager`, `diff.external`): even `git status` there can run a command.
  const root = here.projectRoot;
  const repository = gitDir ? here.path(gitDir) : { path: here.cwd, dynamic: !here.cwdKnown };
  if (!repository.dynamic && !isWithin(repository.path, root) && !['clone', 'init', 'ls-remote', 'version', 'help'].includes(sub)) {
    fx.opaque(`git ${sub} in ${repository.path}, a repository outside the project, whose configuration can run commands`, 'git');
  }
  // `git mergetool --tool-help`, `git difftool --tool-help`: the tools git knows, listed; none is run.
  if ((sub === 'mergetool' || sub === 'difftool') && rest.length === 1 && rest[0]!.value === '--tool-help' && !rest[0]!.dynamic) {
    fx.emit({ kind: 'git', subcommand: sub, changesFiles: false, program: 'git' });
    return;
  }
  if (GIT_RUNS_COMMANDS.has(sub) || (sub === 'rebase' && rest.some((arg) => /^(?:-x|--exec)/.test(arg.value))) || (sub === 'bisect' && rest[0]?.value === 'run') || (sub === 'submodule' && rest[0]?.value === 'foreach')) {
    fx.opaque(`git ${sub} runs commands of the caller's choosing`, 'git');
    fx.emit({ kind: 'git', subcommand: sub, changesFiles: true, program: 'git' });
    return;
  }
  // `ext::CMD ARGS` is a remote helper that runs that program: its words split at spaces, `% ` a space inside one, `%%` a `%`.
  for (const arg of rest) if (arg.value.startsWith('ext::') && !arg.dynamic) fx.run(extTransportWords(arg.value.slice(5)).map(literalArg));
  if (sub === 'fetch' || sub === 'ls-remote' || (sub === 'remote' && rest[0]?.value === 'update')) {
    // Remote-tracking refs and objects only: the working tree, the index and HEAD stay as they are.
    if (rest.some((arg) => arg.dynamic && arg.value.startsWith('-'))) fx.opaque(`git ${sub} is given options built at run time`, 'git');
    fx.emit({ kind: 'git', subcommand: sub, changesFiles: false, program: 'git' });
    fx.network('git', sub === 'remote' ? 'remotes' : (rest.find((arg) => !arg.value.startsWith('-'))?.value ?? 'origin'));
    return;
  }
  if (sub === 'fsck' && rest.some((arg) => arg.value === '--lost-found')) here.write('git', { path: `${repository.path}/.git/lost-found/**`, dynamic: true });
  if (GIT_READS.has(sub) || gitSubcommandReads(sub, rest)) {
    // `git diff/log/show --output=FILE` writes what it would print.
    for (let j = 0; j < rest.length; j++) {
      const value = rest[j]!.value;
      // git takes any unambiguous shortening of a long option (`--outp=x`).
      const eq = value.indexOf('=');
      const spelled = eq === -1 ? value : value.slice(0, eq);
      if (spelled.length < 5 || !'--output'.startsWith(spelled)) continue;
      if (eq !== -1) here.write('git', { ...rest[j]!, value: value.slice(eq + 1) });
      else if (rest[j + 1]) here.write('git', rest[++j]!);
    }
    // `--ext-diff` runs the configured diff program from `git diff`, `git log -p` and `git show` alike.
    if (rest.some((arg) => arg.value === '--ext-diff')) fx.opaque(`git ${sub} --ext-diff runs the configured diff program`, 'git');
    // Outside a repository's index, `git diff --no-index A B` and `git grep --no-index` read the files and folders they name (or, for grep, the working directory).
    if ((sub === 'diff' || sub === 'grep') && rest.some((arg) => arg.value === '--no-index')) readsWithoutIndex(sub, rest, here);
    fx.emit({ kind: 'git', subcommand: sub, changesFiles: false, program: 'git' });
    return;
  }
  if (!GIT_KNOWN_WRITERS.has(sub)) {
    // An alias or a git-<name> program on PATH: nameable, not known.
    fx.unknown(`git ${sub}`);
    return;
  }
  // `git clone --upload-pack=/tmp/x …`, `git push --receive-pack=…`, `git clone --config core.sshCommand=…`: a program to run.
  if (rest.some((arg) => /^--(?:config|template)\b/.test(arg.value) || (sub === 'clone' && /^-[a-zA-Z]*c/.test(arg.value)))) {
    fx.opaque(`git ${sub} is given configuration that can make it run a program`, 'git');
  }
  fx.emit({ kind: 'git', subcommand: sub, changesFiles: !leavesTheProjectAsItIs(sub, rest, here), program: 'git' });
  if (GIT_NETWORK.has(sub)) {
    const target = sub === 'clone' ? cloneOperands(rest)[0] : rest.find((arg) => !arg.value.startsWith('-'));
    fx.network('git', target?.value ?? 'origin');
  }
  if (sub === 'remote' && rest[0]?.value === 'update') fx.network('git', 'remotes');
  if (sub === 'submodule' && rest[0]?.value === 'update') fx.network('git', 'submodules');
  // With another repository's history (`--git-dir=/tmp/r/.git`), what it checks out is whatever that history holds.
  gitWorkingTreeEffects(sub, rest, here, !repository.dynamic && !isWithin(repository.path, root));
};

/** `git clone [options] URL [DIRECTORY]`: the URL and the directory. */
function cloneOperands(rest: readonly Arg[]): Arg[] {
  const parsed = parseArgv(rest, { short: 'bcjou', long: ['branch', 'origin', 'depth', 'reference', 'separate-git-dir', 'jobs', 'config', 'upload-pack', 'template', 'filter', 'shallow-since', 'shallow-exclude', 'server-option'] });
  return operandsOf(parsed, { program: 'git', args: rest, stdinArgs: false });
}

/**
 * A writing subcommand that changes nothing of this repository: `git clone URL /tmp/x` and `git
 * archive -o /tmp/x.tar` write only outside the project (their writes are listed as such), and
 * `git push --dry-run` only asks the remote.
 */
function leavesTheProjectAsItIs(sub: string, rest: readonly Arg[], fx: ShellEffects): boolean {
  const outside = (arg: Arg | undefined): boolean => {
    if (arg === undefined) return false;
    const path = fx.path(arg);
    return !path.dynamic && !isWithin(path.path, fx.projectRoot);
  };
  if (sub === 'push') return rest.some((arg) => arg.value === '--dry-run' || arg.value === '-n') && !negated(rest.map((arg) => arg.value), 'dry-run');
  if (sub === 'clone') {
    const operands = cloneOperands(rest);
    return operands.length === 2 && outside(operands[1]);
  }
  if (sub === 'archive') {
    const parsed = parseArgv(rest, { short: 'o', long: ['output', 'format', 'prefix', 'remote', 'exec', 'add-file', 'add-virtual-file'] });
    const outputs = optionValues(parsed, '-o', '--output');
    return outputs.length > 0 && outputs.every(outside) && optionValues(parsed, '--remote', '--exec').length === 0;
  }
  // `git format-patch -o /tmp/p`, `git bundle create /tmp/r.bundle --all`: files written outside, listed as such.
  if (sub === 'format-patch') {
    const outputs = optionValues(parseArgv(rest, { short: 'ov', long: ['output-directory', 'subject-prefix', 'in-reply-to', 'to', 'cc', 'from', 'signature-file', 'base', 'interdiff', 'range-diff', 'creation-factor', 'suffix', 'start-number', 'reroll-count', 'notes'] }), '-o', '--output-directory');
    return outputs.length > 0 && outputs.every(outside);
  }
  if (sub === 'bundle') return rest[0]?.value === 'create' && outside(rest[1]);
  return false;
}

/** The files a working-tree-changing subcommand touches, where they can be read off its arguments. */
function gitWorkingTreeEffects(sub: string, rest: readonly Arg[], fx: ShellEffects, foreignHistory: boolean): void {
  const dashDash = rest.findIndex((arg) => arg.value === '--');
  const parsed = parseArgv(rest, { short: 'bBmcCoOUsSfXu', long: ['message', 'file', 'author', 'date', 'template', 'reuse-message', 'reedit-message', 'fixup', 'squash', 'strategy', 'strategy-option', 'onto', 'pathspec-from-file', 'conflict', 'source', 'orphan', 'track', 'upstream', 'depth', 'branch', 'origin', 'reference', 'separate-git-dir', 'jobs', 'output', 'format', 'prefix', 'remote', 'exclude'] });
  const operands = operandsOf(parsed, { program: 'git', args: rest, stdinArgs: false } satisfies CommandSite);
  // `--pathspec-from-file=F` (or `-` for the input): pathspecs only known at run time, from a file the daemon reads.
  const listed = optionValues(parsed, '--pathspec-from-file');
  for (const list of listed) if (list.value !== '-') fx.read('git', list);
  // From the input, which the daemon cannot read before it runs: any file below may be named.
  if (listed.some((list) => list.value === '-') && sub !== 'add' && sub !== 'rm') fx.write('git', filesNamedByData(fx));
  const paths = [...(dashDash === -1 ? operands : rest.slice(dashDash + 1)), ...(listed.length > 0 ? [NAMED_IN_A_LIST] : [])];
  switch (sub) {
    case 'checkout':
    case 'restore':
      for (const path of paths) writePathspec(path, fx);
      if (dashDash === -1 && sub === 'checkout') fx.write('git', workTreeFiles(fx, foreignHistory));
      return;
    case 'reset':
      if (hasOption(parsed, '--hard', '--merge', '--keep')) fx.write('git', workTreeFiles(fx, foreignHistory));
      else if (dashDash !== -1) for (const path of paths) writePathspec(path, fx);
      return;
    case 'clean': {
      // clean's own options: only -e/--exclude takes a value (`-f`, `-d`, `-x`, `-X` are flags).
      const cleaned = dashDash === -1 ? operandsOf(parseArgv(rest, { short: 'e', long: ['exclude'] }), { program: 'git', args: rest, stdinArgs: false }) : paths;
      if (cleaned.length > 0) for (const path of cleaned) for (const ref of pathspecPaths(path, fx)) fx.remove('git', everythingBelow(fx, ref));
      else fx.remove('git', everythingBelow(fx));
      return;
    }
    case 'rm': {
      // rm's options are flags (`-rf` is not `-f` with a value), but for --pathspec-from-file.
      const removed = dashDash === -1 ? operandsOf(parseArgv(rest, { long: ['pathspec-from-file'] }), { program: 'git', args: rest, stdinArgs: false }) : paths;
      if (!rest.some((arg) => arg.value === '--cached')) for (const path of removed) for (const ref of pathspecPaths(path, fx)) fx.remove('git', ref);
      return;
    }
    case 'mv':
      if (operands.length >= 2) for (const source of operands.slice(0, -1)) fx.move('git', source, operands[operands.length - 1]!);
      return;
    case 'worktree': {
      // `git worktree add PATH`: a checkout made there.
      const added = rest[0]?.value === 'add' ? operandsOf(parseArgv(rest.slice(1), { short: 'bB', long: ['reason'] }), { program: 'git', args: rest.slice(1), stdinArgs: false })[0] : undefined;
      fx.write('git', added ? everythingBelow(fx, added) : everythingBelow(fx));
      return;
    }
    case 'read-tree': {
      // `-u` writes the tree into the work tree, below `--prefix=DIR/` when given: whatever names the tree holds.
      if (!rest.some((arg) => arg.value === '-u')) return;
      const prefix = rest.find((arg) => arg.value.startsWith('--prefix='));
      fx.write('git', prefix ? filesNamedByData(fx, { ...prefix, value: prefix.value.slice('--prefix='.length) || '.' }) : workTreeFiles(fx, foreignHistory));
      return;
    }
    case 'checkout-index': {
      // The files it names are rewritten from the index (`-a`: every tracked file).
      const own = parseArgv(rest, { long: ['prefix', 'stage'] });
      const named = operandsOf(own, { program: 'git', args: rest, stdinArgs: false });
      // `--prefix=DIR/` writes each file at DIR/<its path>, wherever DIR is (`--prefix=x-` makes `x-<path>` beside it).
      const prefix = lastOptionValue(own, '--prefix');
      if (prefix !== undefined) {
        const folder = prefix.value.endsWith('/') ? prefix.value : prefix.value.slice(0, prefix.value.lastIndexOf('/') + 1) || '.';
        fx.write('git', filesNamedByData(fx, { ...prefix, value: folder }));
      } else if (named.length > 0 && !rest.some((arg) => /^-[a-z]*a|^--all$/.test(arg.value))) for (const path of named) writePathspec(path, fx);
      else fx.write('git', workTreeFiles(fx, foreignHistory));
      return;
    }
    case 'clone': {
      // `--separate-git-dir DIR`: the repository itself is made there.
      for (const gitDir of optionValues(parsed, '--separate-git-dir')) fx.write('git', everythingBelow(fx, gitDir));
      // A new folder holding whatever the repository holds: its files are named by the data.
      const [url, directory] = operands;
      if (directory) fx.write('git', filesNamedByData(fx, directory));
      else if (url) fx.write('git', filesNamedByData(fx, literalArg(baseName(url.value).replace(/\.git$/, ''))));
      return;
    }
    case 'archive':
    case 'format-patch':
      for (const out of optionValues(parsed, '-o', '--output', '--output-directory')) fx.write('git', out);
      if (sub === 'format-patch' && optionValues(parsed, '-o', '--output-directory').length === 0) fx.write('git', { path: `${fx.cwd}/*.patch`, dynamic: true });
      return;
    case 'apply':
    case 'am':
      // The patch or mailbox files it is given: what they name is what it changes (checked by workflows/patch-paths.ts).
      for (const file of operands) fx.read('git', file);
      if (!(sub === 'apply' && hasOption(parsed, '--cached'))) fx.write('git', workTreeFiles(fx, foreignHistory));
      return;
    case 'merge':
    case 'rebase':
    case 'cherry-pick':
    case 'revert':
    case 'pull':
    case 'stash': {
      // `git stash [push] [--] PATHSPEC…` sets the files it names back as `git checkout -- PATHSPEC` does.
      const pushed = rest[0]?.value === 'push' ? rest.slice(1) : rest[0] === undefined || rest[0].value.startsWith('-') ? rest : [];
      const end = pushed.findIndex((arg) => arg.value === '--');
      const specs = end !== -1 ? pushed.slice(end + 1) : operandsOf(parseArgv(pushed, { short: 'm', long: ['message', 'pathspec-from-file'] }), { program: 'git', args: pushed, stdinArgs: false });
      for (const path of specs) writePathspec(path, fx);
      fx.write('git', workTreeFiles(fx, foreignHistory));
      return;
    }
    case 'switch':
    case 'bisect':
    case 'sparse-checkout':
    case 'submodule':
      fx.write('git', workTreeFiles(fx, foreignHistory));
      return;
    case 'merge-file':
      // The merge is written into the first file, unless printed.
      if (!rest.some((arg) => arg.value === '-p' || arg.value === '--stdout') && paths[0]) fx.write('git', paths[0]);
      return;
    case 'config': {
      // `git config --file F …` (and `-f F`, `--blob`): a file of the caller's naming, written unless only read.
      const file = rest.findIndex((arg) => arg.value === '-f' || arg.value === '--file');
      const named = file !== -1 ? rest[file + 1] : rest.find((arg) => arg.value.startsWith('--file='));
      if (named) fx.write('git', named.value.startsWith('--file=') ? { ...named, value: named.value.slice('--file='.length) } : named);
      return;
    }
    case 'bundle':
      // `git bundle create FILE …` writes FILE.
      if (rest[0]?.value === 'create' && rest[1]) fx.write('git', rest[1]);
      return;
    case 'init': {
      // `git init [DIR]`, `--separate-git-dir D`: a repository made there.
      const made = operands[0];
      fx.write('git', everythingBelow(fx, made));
      for (const gitDir of optionValues(parsed, '--separate-git-dir')) fx.write('git', everythingBelow(fx, gitDir));
      return;
    }
    default:
      return; // the repository's own state (refs, index, objects, config) only
  }
}

// ---------- package managers and project scripts ----------

type ManagerAction = 'install' | 'test' | 'read' | 'script' | 'run' | 'dlx' | 'network' | 'write' | 'install+test' | 'cache';

interface ManagerSpec {
  readonly actions: Readonly<Record<string, ManagerAction>>;
  /** What a bare invocation does (`yarn` installs). */
  readonly bare?: ManagerAction;
  /** What an unknown subcommand does: `yarn build` runs the `build` script. */
  readonly unknownIsScript?: boolean;
  readonly options?: OptionSpec;
}

const CONDA_LIKE = new Set(['conda', 'mamba', 'micromamba']);

/** Python project managers whose `run NAME` runs the project's script NAME, if it has one, before a program of that name. */
const RUNS_SCRIPTS_FIRST = new Set(['pdm', 'hatch', 'pipenv']);
/** Names the shell answers itself (`test`, `true`): as a program they do nothing gobby must judge, as a project's script anything. */
const SHELL_BUILTIN_NAMES = new Set(['test', '[', 'true', 'false', ':', 'echo', 'printf', 'exit', 'kill', 'pwd', 'type', 'command']);

/** A package manager's second word that only shows what is there (`uv pip list`, `conda env list`, `uv python find`). */
const LISTING_VERBS = new Set(['list', 'ls', 'show', 'freeze', 'check', 'tree', 'find', 'dir', 'info', 'outdated', 'describe', 'export']);

/**
 * The files a package manager's own options make it write, whatever the subcommand: a log (`pip
 * --log F`, `--log-file`, npm's `--logs-dir`), a cache (`--cache`, `--cache-dir`), pip's install
 * report (`--report F`). Words after `--` belong to a script.
 */
const MANAGER_OUTPUT = /^--(log|log-file|logs-dir|cache|cache-dir|report)(?:=(.*))?$/;

function managerWrites(site: CommandSite, fx: ShellEffects): void {
  for (let i = 0; i < site.args.length; i++) {
    const arg = site.args[i]!;
    if (arg.value === '--') return;
    const match = arg.dynamic ? null : MANAGER_OUTPUT.exec(arg.value);
    if (!match) continue;
    const value = match[2] !== undefined ? { value: match[2], dynamic: false, unknownAt: -1 } : site.args[i + 1];
    if (!value || value.value === '-' || (match[2] === undefined && value.value.startsWith('-'))) continue;
    fx.write(site.program, match[1]!.startsWith('cache') || match[1] === 'logs-dir' ? everythingBelow(fx, value) : value);
  }
}

/**
 * Every URL a package manager is given, as an operand or an option's value (`npm view URL`,
 * `pip install git+http://…`, `--registry=URL`, `-i URL`), is one it fetches from, whatever the
 * subcommand. Words after `--` belong to a script.
 */
function managerFetches(site: CommandSite, fx: ShellEffects): void {
  for (const arg of site.args) {
    if (arg.value === '--') return;
    const at = arg.value.indexOf('://');
    if (at === -1) continue;
    // `--registry=URL`: the value after the option's `=`.
    const start = arg.value.startsWith('-') ? arg.value.indexOf('=') + 1 : 0;
    const url = arg.value.slice(start);
    if (start <= at && isUrl(url)) fx.network(site.program, url.replace(/^[a-z]+\+(?=[a-z]+:\/\/)/i, ''));
  }
}

function manager(spec: ManagerSpec): ProgramHandler {
  const options: OptionSpec = { ...spec.options, stopAtOperand: true };
  return (site, fx) => {
    if (onlyAsksVersion(site.args)) return;
    const parsed = parseArgv(site.args, options);
    const [subArg, ...rest] = site.args.slice(parsed.rest);
    if (subArg?.dynamic) {
      fx.opaque(`${site.program} runs a subcommand named at run time`, site.program);
      return;
    }
    const sub = subArg?.value;
    // `conda activate env` puts a named environment's (or one of the project's or the system's) bin/ first on PATH, as `conda run -n env` runs from it.
    if (CONDA_LIKE.has(site.program) && (sub === 'deactivate' || (sub === 'activate' && rest.every((arg) => !arg.dynamic && (!/[/~]/.test(arg.value) || !mayBeAgentsFile(fx, arg)) && !/^-(?!-stack$)/.test(arg.value))))) return;
    // `yarn workspace web test`, `yarn workspaces foreach -A run test`: the command, in one or every workspace.
    if (site.program === 'yarn' && (sub === 'workspace' || sub === 'workspaces')) {
      const inner = yarnWorkspaceCommand(sub, rest);
      if (inner.length > 0) manager(spec)({ program: site.program, args: inner, stdinArgs: site.stdinArgs }, fx);
      return;
    }
    const directory = lastOptionValue(parsed, '-C', '--dir', '--prefix', '--cwd', '--directory');
    const here = directory ? fx.at(directory) : fx;
    managerWrites(site, fx);
    managerFetches(site, fx);
    let action = sub === undefined ? spec.bare : spec.actions[sub] ?? (spec.unknownIsScript ? 'script' : undefined);
    // The subcommand's own first word: `npm config set`, `npm pkg get`, `uv pip list`.
    const verb = rest.find((arg) => !arg.value.startsWith('-'))?.value;
    // `npm config set script-shell …` changes what every later script runs; only get/list read.
    if ((sub === 'config' || sub === 'c') && !['get', 'list', 'ls', undefined].includes(verb)) action = 'write';
    // `npm audit fix` installs the fixed versions; `npm audit` only reports.
    if (sub === 'audit' && rest.some((arg) => arg.value === 'fix' || arg.value === '--fix')) action = 'install';
    // `npm pkg get version` reads package.json; `set`, `delete` and `fix` change it.
    if (sub === 'pkg' && verb === 'get') action = 'read';
    // `uv version 1.2.0`, `uv version --bump minor` rewrite pyproject.toml; `uv version` prints it.
    if (site.program === 'uv' && sub === 'version' && (verb !== undefined || rest.some((arg) => arg.value.startsWith('--bump')))) action = 'write';
    // `npm cache ls`/`verify` look at npm's cache; `clean` and `add` change it (in the home, not the project).
    if (sub === 'cache' && NODE_MANAGERS.has(site.program)) action = ['ls', 'list', 'verify', 'dir', 'path'].includes(verb ?? '') ? 'read' : 'cache';
    // What only lists or checks: `uv pip list`, `uv python list`, `uv lock --check`, `conda env list`.
    if (action === 'install' && ((verb !== undefined && LISTING_VERBS.has(verb)) || rest.some((arg) => arg.value === '--check' || arg.value === '--dry-run' || arg.value === '--locked'))) action = 'read';
    // `npm pack --dry-run`, `npm publish --dry-run`: what would be packed or sent, only listed.
    if ((action === 'write' || action === 'network') && sub !== 'config' && sub !== 'c' && sub !== 'set' && rest.some((arg) => arg.value === '--dry-run')) action = 'read';
    // `pnpm recursive run test`, `pnpm -r test`: the command, in every package.
    if (site.program === 'pnpm' && (sub === 'recursive' || sub === 'multi' || sub === 'm')) {
      if (rest.length > 0) manager(spec)({ program: site.program, args: rest, stdinArgs: site.stdinArgs }, fx);
      return;
    }
    switch (action) {
      case 'install':
      case 'install+test':
        here.emit({ kind: 'package_install', manager: site.program, program: site.program });
        // Into a folder of the caller's choosing (`pip install --target DIR`, `--prefix`, `--root`; `npm --prefix DIR install`).
        for (const folder of [...(directory ? [directory] : []), ...installFolders(rest)]) fx.write(site.program, everythingBelow(fx, folder));
        if (action === 'install+test') runsTests(here, site.program, `${site.program} test`, rest);
        return;
      case 'test':
        // Options before the subcommand count too (`npm --script-shell=/tmp/x test`).
        runsTests(here, site.program, `${site.program} ${sub ?? 'test'}`, [...site.args.slice(0, parsed.rest), ...rest]);
        return;
      case 'read':
        return;
      case 'cache':
        here.write(site.program, everythingBelow(here, configFile(here, site.program === 'npm' ? '.npm/_cacache' : `.cache/${site.program}`)));
        return;
      case 'write':
        if (sub === 'config' || sub === 'c' || sub === 'set') here.opaque(`${site.program} ${sub} changes configuration that decides what later commands run`, site.program);
        else here.write(site.program, everythingBelow(here));
        if (sub === 'pkg' || sub === 'set-script') scriptsWritten(sub, rest, here, site.program);
        return;
      case 'network':
        here.network(site.program, lastOptionValue(parsed, '--registry')?.value ?? `${site.program} registry`);
        return;
      case 'run': {
        // `conda run -n env pytest`: conda's own options name the environment, then the command.
        const condaOptions = CONDA_LIKE.has(site.program) ? parseArgv(rest, { short: 'np', long: ['name', 'prefix', 'cwd'], stopAtOperand: true }) : undefined;
        const command = condaOptions ? rest.slice(condaOptions.rest) : rest;
        // `uv run --with /tmp/pkg pytest`: a package from a folder of the caller's choosing, installed and imported before the command.
        if (site.program === 'uv' || site.program === 'uvx') {
          const uvOptions = parseArgv(rest, UV_RUN_OPTIONS);
          for (const source of optionValues(uvOptions, '--with', '--with-editable', '--with-requirements', '--python', '-p', '--env-file', '--project', '--directory')) {
            if ((source.dynamic || /^[~./]/.test(source.value)) && mayBeAgentsFile(fx, source)) here.opaque(`${site.program} run loads ${source.value}, outside the project`, site.program);
          }
        }
        const cwd = condaOptions ? lastOptionValue(condaOptions, '--cwd') : undefined;
        const script = command[0];
        // pdm, hatch and pipenv look for a script of the project's by that name before a program
        // (`pdm run lint`, `hatch run test:cov`, `pipenv run true` may run anything the project says).
        if (RUNS_SCRIPTS_FIRST.has(site.program) && script !== undefined && !script.dynamic && (!here.knows(script.value) || SHELL_BUILTIN_NAMES.has(script.value))) {
          if (isTestScriptName(script.value)) runsTests(here, site.program, `${site.program} run ${script.value}`, command.slice(1));
          else here.unknown(`${site.program} run ${script.value}`);
          return;
        }
        if (command.length > 0) PROJECT_RUNNER.handle({ program: site.program, args: command, stdinArgs: site.stdinArgs }, cwd ? here.at(cwd) : here);
        return;
      }
      case 'dlx':
        PACKAGE_RUNNER.handle({ program: site.program, args: rest, stdinArgs: site.stdinArgs }, here);
        return;
      case 'script': {
        // `npm run x` / `yarn x`: a script from package.json, named but not known.
        const explicit = sub !== undefined && RUN_WORDS.has(sub);
        // After `run`, its options and their values (`pnpm run --filter web test`) come before the name.
        const name = explicit ? parseArgv(rest, spec.options ?? {}).operands[0] : subArg;
        if (!name) return; // `npm run` alone lists the scripts
        if (name.dynamic) here.opaque(`${site.program} runs a script named at run time`, site.program);
        else if (isTestScriptName(name.value)) runsTests(here, site.program, `${site.program} run ${name.value}`, rest);
        // `pnpm tsc --noEmit`, `yarn vitest run`: a project's tool run by its name, as npm's scripts are named after what they run.
        // Only a tool a package installs: `yarn fmt` or `yarn watch` is the project's script, not coreutils' fmt or procps' watch.
        else if (!explicit && isPackageTool(name.value)) here.run([name, ...rest], { stdinArgs: site.stdinArgs });
        // Its script is read from package.json, unless a workspace option picks other packages' scripts.
        else here.unknown(`${site.program} run ${name.value}`, PACKAGE_JSON_MANAGERS.has(site.program) && !site.args.some((arg) => WORKSPACE_OPTION.test(arg.value)) ? projectScriptCall(here, name.value, rest.slice(rest.indexOf(name) + 1)) : undefined);
        return;
      }
      default:
        here.unknown(`${site.program}${sub === undefined ? '' : ` ${sub}`}`);
    }
  };
}

/** `uv run`'s options that take a value, before the command it runs. */
const UV_RUN_OPTIONS: OptionSpec = { short: 'p', long: ['with', 'with-editable', 'with-requirements', 'python', 'env-file', 'project', 'directory', 'package', 'extra', 'group', 'index', 'index-url', 'default-index', 'module'], stopAtOperand: true };

const NODE_MANAGERS = new Set(['npm', 'yarn', 'pnpm']);
/** Options that run a script in other packages of a workspace (`npm run lint -w web`, `pnpm -r lint`, `pnpm --filter web lint`). */
const WORKSPACE_OPTION = /^(?:-w|--workspaces?|-ws|--filter|-F|-r|--recursive|--include-workspace-root)(?:=|$)/;
/** Managers whose `run NAME` runs package.json's script NAME. */
const PACKAGE_JSON_MANAGERS = new Set(['npm', 'yarn', 'pnpm', 'bun']);

/** A tool's configuration file in the user's home (`~/.config/go/env`), or wherever the home is when the command moves it. */
function configFile(fx: ShellEffects, below: string): Arg {
  return fx.home === null ? { value: `$HOME/${below}`, dynamic: true, unknownAt: 0 } : literalArg(`${fx.home}/${below}`);
}

/** Interpreters a package installs as a binary (`yarn tsx x.ts`), beside the development tools of this table. */
const PACKAGE_INTERPRETERS = new Set(['node', 'tsx', 'ts-node', 'esno', 'vite-node', 'babel-node']);

/** Whether `yarn NAME` / `pnpm NAME` with no script of that name would run a tool gobby knows (its binary in node_modules/.bin). */
function isPackageTool(name: string): boolean {
  return PACKAGE_TOOLS.has(name);
}

/**
 * `npm pkg set scripts.test='…'`, `npm set-script test '…'`: a script the next `npm test` runs,
 * judged now as the command it is (`npm pkg set scripts.pretest='rm -rf .claude' && npm test`).
 */
function scriptsWritten(sub: string, rest: readonly Arg[], fx: ShellEffects, program: string): void {
  const operands = rest.filter((arg) => !arg.value.startsWith('-'));
  if (sub === 'set-script') {
    if (operands[1] !== undefined) fx.runShellCode(operands[1], program, false);
    return;
  }
  if (operands[0]?.value !== 'set') return;
  for (const operand of operands.slice(1)) {
    const eq = operand.value.indexOf('=');
    if (!operand.value.startsWith('scripts') || eq === -1) continue;
    // `scripts={"test": "…"}` with `--json`: every script at once, as JSON.
    if (eq === 'scripts'.length) {
      fx.opaque(`${program} pkg set scripts=… writes scripts as JSON`, program);
      continue;
    }
    const script = { ...operand, value: operand.value.slice(eq + 1), unknownAt: operand.unknownAt === -1 ? -1 : Math.max(0, operand.unknownAt - eq - 1) };
    fx.runShellCode(script, program, false);
  }
}

const YARN_FOREACH_OPTIONS: OptionSpec = { short: 'j', long: ['jobs', 'include', 'exclude', 'from', 'since'], stopAtOperand: true };

/** The yarn command run in the workspaces: after `workspace NAME`, after `workspaces foreach [options]`, after `workspaces` (yarn 1's `workspaces run`). */
function yarnWorkspaceCommand(sub: 'workspace' | 'workspaces', rest: readonly Arg[]): readonly Arg[] {
  if (sub === 'workspace') return rest.slice(1);
  if (rest[0]?.value !== 'foreach') return rest;
  const after = rest.slice(1);
  return after.slice(parseArgv(after, YARN_FOREACH_OPTIONS).rest);
}

const NODE_INSTALL = ['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add', 'ci', 'clean-install', 'ic', 'install-clean', 'isntall-clean', 'update', 'up', 'upgrade', 'udpate', 'uninstall', 'remove', 'rm', 'r', 'un', 'unlink', 'link', 'ln', 'dedupe', 'ddp', 'prune', 'rebuild', 'rb', 'import', 'fetch', 'patch-commit'];
const NODE_READ = ['ls', 'list', 'll', 'la', 'view', 'v', 'info', 'show', 'outdated', 'search', 's', 'se', 'find', 'explain', 'why', 'help', 'get', 'root', 'bin', 'prefix', 'doctor', 'fund', 'query', 'docs', 'bugs', 'repo', 'whoami', 'sbom', 'ping', 'licenses', 'audit', 'config', 'c', 'store', 'env'];
const NODE_NETWORK = ['publish', 'unpublish', 'deprecate', 'dist-tag', 'owner', 'access', 'login', 'adduser', 'logout', 'team', 'org', 'star', 'unstar', 'token', 'hook', 'npm'];
const NODE_WRITE = ['version', 'init', 'create', 'pkg', 'set', 'set-script', 'pack', 'cache', 'exec-env', 'shrinkwrap'];

function nodeManagerActions(extra: Readonly<Record<string, ManagerAction>>): Record<string, ManagerAction> {
  const actions: Record<string, ManagerAction> = {};
  for (const name of NODE_INSTALL) actions[name] = 'install';
  for (const name of NODE_READ) actions[name] = 'read';
  for (const name of NODE_NETWORK) actions[name] = 'network';
  for (const name of NODE_WRITE) actions[name] = 'write';
  return { ...actions, test: 'test', t: 'test', tst: 'test', run: 'script', 'run-script': 'script', rum: 'script', urn: 'script', 'install-test': 'install+test', it: 'install+test', ...extra };
}

const NODE_MANAGER_LONG_OPTIONS = ['workspace', 'prefix', 'dir', 'cwd', 'filter', 'filter-prod', 'registry', 'cache', 'userconfig', 'loglevel', 'reporter', 'test-pattern', 'changed-files-ignore-pattern', 'workspace-concurrency'];
/** npm's `-w NAME` is a workspace and `-C DIR` its prefix; pnpm's `-F` is a workspace filter and its `-w` the workspace root (no value); yarn's short options take none. */
const NPM_OPTIONS: OptionSpec = { short: 'wC', long: NODE_MANAGER_LONG_OPTIONS };
const PNPM_OPTIONS: OptionSpec = { short: 'FC', long: NODE_MANAGER_LONG_OPTIONS };
const YARN_OPTIONS: OptionSpec = { long: NODE_MANAGER_LONG_OPTIONS };

const PIP_ACTIONS: Record<string, ManagerAction> = { install: 'install', uninstall: 'install', download: 'install', wheel: 'write', list: 'read', show: 'read', freeze: 'read', check: 'read', search: 'read', help: 'read', config: 'read', inspect: 'read', debug: 'read', cache: 'read', hash: 'read', index: 'read', sync: 'install', compile: 'write', tree: 'read' };

const SYSTEM_MANAGER: ManagerSpec = {
  actions: {
    install: 'install', reinstall: 'install', remove: 'install', purge: 'install', upgrade: 'install', 'dist-upgrade': 'install', 'full-upgrade': 'install',
    update: 'install', autoremove: 'install', add: 'install', del: 'install', uninstall: 'install', tap: 'install', '-S': 'install', '-R': 'install',
    '-U': 'install', '-Syu': 'install', '-Sy': 'install', '-Rs': 'install', 'build-dep': 'install', 'source': 'write', localinstall: 'install',
    list: 'read', search: 'read', show: 'read', info: 'read', policy: 'read', depends: 'read', rdepends: 'read', '-Q': 'read', '-Ss': 'read',
    '-Si': 'read', '-Qi': 'read', '-Ql': 'read', leaves: 'read', deps: 'read', outdated: 'read', doctor: 'read', config: 'read', 'list-installed': 'read',
  },
  options: { short: 'ocCt', long: ['option', 'config-file', 'target-release', 'root'] },
};

/** brew's questions about where things are, answered with a path (`brew --prefix node`, `brew --cellar`, `brew --cache`). */
const BREW_PATH_QUERIES = new Set(['--prefix', '--cellar', '--repository', '--repo', '--cache', '--caskroom', '--env', 'shellenv']);
const brewManager = manager(SYSTEM_MANAGER);

/** brew: a path query, with formula names after it, only prints; anything else is a package manager's subcommand. */
const brew: ProgramHandler = (site, fx) => {
  const [first, ...rest] = site.args;
  if (first !== undefined && !first.dynamic && BREW_PATH_QUERIES.has(first.value) && rest.every((arg) => !arg.dynamic && !arg.value.startsWith('-'))) return;
  brewManager(site, fx);
};

// ---------- test runners, build tools, formatters ----------

function testRunner(runner?: string): ProgramHandler {
  return (site, fx) => {
    if (onlyAsksVersion(site.args)) return;
    if (RUNS_OTHER_COMMANDS[site.program]?.(site, fx) === 'instead') return;
    runsTests(fx, site.program, runner ?? site.program, site.args);
  };
}

/** The value of the last `--name VALUE` or `--name=VALUE` of any of `names`, wherever it is: the one a program keeps. */
function valueOf(args: readonly Arg[], ...names: readonly string[]): Arg | undefined {
  let found: Arg | undefined;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    for (const name of names) {
      if (text === name && args[i + 1] !== undefined) {
        found = args[++i]!;
        break;
      }
      if (text.startsWith(`${name}=`)) {
        found = sliceArg(args[i]!, name.length + 1);
        break;
      }
    }
  }
  return found;
}

/** The words after the first `--`. */
function afterDoubleDash(args: readonly Arg[]): readonly Arg[] | undefined {
  const at = args.findIndex((arg) => arg.value === '--');
  return at === -1 ? undefined : args.slice(at + 1);
}

/**
 * Test runners' options that run a command besides (or instead of) the tests: judged as that
 * command. 'instead' when the command replaces the run the runner would make.
 */
const RUNS_OTHER_COMMANDS: Readonly<Record<string, (site: CommandSite, fx: ShellEffects) => 'instead' | void>> = {
  // `gotestsum --post-run-command 'cmd'`; `-- ARGS` go to `go test`, or with `--raw-command` are the command itself.
  gotestsum: (site, fx) => {
    const post = valueOf(site.args, '--post-run-command');
    if (post) fx.runShellCode(post, 'gotestsum', false);
    const rest = afterDoubleDash(site.args);
    if (rest === undefined) return;
    fx.run(site.args.some((arg) => arg.value === '--raw-command') ? rest : [literalArg('go'), literalArg('test'), ...rest]);
    return 'instead';
  },
  // `tox exec -- cmd` runs cmd in the environment; `-x key=value` (`--override`) rewrites the commands tox runs.
  tox: (site, fx) => {
    if (valueOf(site.args, '-x', '--override')) fx.opaque('tox -x overrides the configuration that names the commands it runs', 'tox');
    const sub = site.args.find((arg) => !arg.value.startsWith('-'));
    if (sub?.value !== 'exec' && sub?.value !== 'e') return;
    const rest = afterDoubleDash(site.args);
    if (rest === undefined) fx.opaque('tox exec runs a command gobby cannot see', 'tox');
    else fx.run(rest);
    return 'instead';
  },
  // `ctest --build-and-test … --test-command cmd args`: the rest of the line is the command.
  ctest: (site, fx) => {
    const at = site.args.findIndex((arg) => arg.value === '--test-command');
    if (at !== -1) fx.run(site.args.slice(at + 1));
  },
  // `prove -e 'perl -Ilib'`: the program that runs each test file; any other than an interpreter's plain run is code gobby cannot see.
  prove: (site, fx) => {
    const exec = valueOf(site.args, '-e', '--exec');
    if (exec === undefined) return;
    const words = exec.value.trim().split(/\s+/);
    if (exec.dynamic || !/^(?:perl|bash|sh|node|python3?|ruby|php)$/.test(baseName(words[0] ?? '')) || words.some((word) => /^-[a-zA-Z]*[eEcr]/.test(word))) fx.opaque(`prove --exec \`${exec.value}\` runs each test through a command gobby cannot see`, 'prove');
  },
};

/**
 * Gradle's test tasks, written with their project path (`:app:test`, `:core:check`) or as a
 * variant's (`testDebugUnitTest`, `connectedAndroidTest`, `integrationTest`).
 */
const GRADLE_TEST_TASKS = /^(?:[\w.-]*:)*(?:test\w*|\w+Tests?|check|clean)$/;

/** Gradle tasks and Maven goals that only describe the build: `./gradlew tasks`, `mvn dependency:tree`. */
const REPORT_GOALS = new Set(['tasks', 'dependencies', 'dependencyInsight', 'projects', 'properties', 'buildEnvironment', 'outgoingVariants', 'javaToolchains', 'dependency:tree', 'dependency:list', 'help:effective-pom', 'help:describe', 'help:active-profiles']);

/**
 * Verification tasks and goals that only check the code and report (what gradle's `check` and
 * maven's `verify`, already test runs, depend on): gradle's `*Check` tasks (`spotlessCheck`,
 * `ktlintCheck`, `apiCheck`), Android's `lint` (and `lintDebug`, `lintVitalRelease`; not
 * `lintFix`), `detekt`, `checkstyleMain`, `pmdMain`, `spotbugsMain`; maven's `PREFIX:check`
 * (`spotless:check`, `checkstyle:check`), a plugin found by its prefix, not one named by its coordinates.
 */
const CHECK_GOALS = /^(?:[a-z][\w-]*:check|[a-z]\w*Check|lint(?:Debug|Release|Vital\w*)?|detekt(?:Main|Test)?|(?:checkstyle|pmd|spotbugs)(?:Main|Test))$/;

/** A gradle task as written with its project path (`:app:dependencies`) is the task of that name; maven's `plugin:goal` is kept whole. */
function taskName(program: string, goal: string): string {
  return program.startsWith('gradle') ? goal.slice(goal.lastIndexOf(':') + 1) : goal;
}

/** Maven's options of more than one letter that take a value (`-pl core`, `-rf :app`): parsed as words they would read as goals. */
const MAVEN_VALUE_OPTIONS = new Set(['-pl', '-rf', '-gs', '-gt', '-emp', '-ep', '-T', '-b', '-l']);

function withoutMavenPairs(program: string, args: readonly Arg[]): readonly Arg[] {
  if (program !== 'mvn' && program !== 'mvnw') return args;
  const kept: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    if (MAVEN_VALUE_OPTIONS.has(args[i]!.value)) i++;
    else if (!/^-(?:am|amd|ntp|nsu|ff|fae|fn|cpu|up|npr|npu|llr)$/.test(args[i]!.value)) kept.push(args[i]!);
  }
  return kept;
}

/** Maven goals and Gradle tasks that run the tests (`clean` only removes the build's output). */
const TEST_GOALS = /^(?:test|check|verify|surefire:test|failsafe:integration-test|integration-test|tests|clean)$/;

/**
 * Build tools with goals or tasks: a test goal is a test run, anything else is the named task.
 * `dryRun`: the options with which nothing runs (make's `-n`, gradle's `-m`). `code`: options whose
 * value is code for the runner itself (`make --eval='x: ; rm -rf src'`).
 */
function taskRunner(testGoals: RegExp, options: OptionSpec, dryRun: readonly string[] = [], code: readonly string[] = []): ProgramHandler {
  return (site, fx) => {
    if (onlyAsksVersion(site.args)) return;
    const parsed = parseArgv(withoutMavenPairs(site.program, site.args), options);
    // make's -C options add up (`-C a -C b` is a/b), as tar's and git's do.
    const here = inEachDirectory(fx, optionValues(parsed, '-C', '--directory', '--project-dir', ...(site.program.startsWith('gradle') ? ['-p'] : [])));
    for (const file of optionValues(parsed, '-f', '--file', '--makefile', '-b', '--build-file')) {
      // `make -f /dev/stdin <<< 'all: ; rm -rf x'`: the makefile is the input, code gobby does not read.
      if (file.value === '-' || file.value === '/dev/stdin') here.opaque(`${site.program} reads its build file from its input`, site.program);
      else here.read(site.program, file);
    }
    if (optionValues(parsed, ...code).length > 0) here.opaque(`${site.program} is given code of its own to run`, site.program);
    // A makefile or build script from elsewhere runs its own code (`$(shell …)`, init scripts) even in a dry run.
    if (hasOption(parsed, ...dryRun)) {
      loadsForeignCode(here, site.program, site.program, site.args);
      return;
    }
    const goals = operandsOf(parsed, site).filter((arg) => !arg.value.includes('=') && !/^\d+$/.test(arg.value));
    // `make -p -f /dev/null`: make's built-in rules printed, with no makefile and no goal to run.
    const makefiles = optionValues(parsed, '-f', '--file', '--makefile');
    if (goals.length === 0 && makefiles.length > 0 && makefiles.every((file) => !file.dynamic && file.value === '/dev/null')) return;
    // `./gradlew dependencies --write-locks`: the project's lock and verification files, rewritten whatever the task.
    if (site.program.startsWith('gradle') && site.args.some((arg) => /^--(?:write-locks|update-locks|write-verification-metadata|export-keys)(?:=|$)/.test(arg.value))) here.write(site.program, everythingBelow(here));
    if (goals.some((goal) => goal.dynamic)) here.opaque(`${site.program} runs a target named at run time`, site.program);
    else if (goals.length > 0 && goals.every((goal) => REPORT_GOALS.has(taskName(site.program, goal.value)))) return;
    // `./gradlew :app:lint spotlessCheck`, `mvn spotless:check`: checks that only report, run with the project's build code.
    else if (!site.program.endsWith('make') && goals.length > 0 && goals.every((goal) => REPORT_GOALS.has(taskName(site.program, goal.value)) || (CHECK_GOALS.test(taskName(site.program, goal.value)) && !nameSaysItChanges(goal.value)))) {
      loadsForeignCode(here, site.program, `${site.program} ${goals.map((goal) => goal.value).join(' ')}`, site.args);
      writesOutputOptions(here, site.program, site.args);
    }
    else if (goals.length > 0 && goals.every((goal) => (testGoals.test(goal.value) || (site.program.endsWith('make') && isTestScriptName(goal.value)) || (!site.program.endsWith('make') && CHECK_GOALS.test(taskName(site.program, goal.value)))) && !nameSaysItChanges(goal.value))) runsTests(here, site.program, `${site.program} ${goals.map((goal) => goal.value).join(' ')}`, site.args);
    else here.unknown([site.program, ...goals.map((goal) => goal.value)].join(' '), site.program === 'make' || site.program === 'gmake' ? makeTargetCall(here, parsed, site, goals) : undefined);
  };
}

/**
 * `make TARGET` as a call of the makefile's recipe, for the daemon to read: one target (or the
 * default goal), in a folder known before it runs, without variables given on the command line
 * (`make X=y`) or the environment's taking precedence (`-e`), and with one makefile at most.
 */
function makeTargetCall(here: ShellEffects, parsed: ParsedArgv, site: CommandSite, goals: readonly Arg[]): ProjectScriptCall | undefined {
  if (!here.cwdKnown || goals.length > 1 || operandsOf(parsed, site).some((arg) => arg.value.includes('=')) || hasOption(parsed, '-e', '--environment-overrides')) return undefined;
  const files = optionValues(parsed, '-f', '--file', '--makefile');
  if (files.length > 1 || files.some((file) => file.dynamic)) return undefined;
  const file = files[0] === undefined ? undefined : here.path(files[0]);
  if (file?.dynamic === true) return undefined;
  return { source: 'makefile', name: goals[0]?.value ?? '', folder: here.cwd, extra: file?.path ?? '' };
}

/**
 * Monorepo task runners run a task of every (or some) package: `turbo run test`, `turbo test`,
 * `nx test app`, `nx run app:test`, `nx run-many -t test lint`, `nx affected --target=test`,
 * `lerna run test`. A test-like task is a test run; any other is a task gobby does not know.
 */
const WORKSPACE_TASK_OPTIONS: OptionSpec = { short: 'tpcF', long: ['filter', 'scope', 'ignore', 'target', 'targets', 'projects', 'project', 'configuration', 'concurrency', 'parallel', 'base', 'head', 'since', 'cache-dir', 'output-logs', 'log-order', 'graph', 'exclude', 'cwd'] };

const workspaceTasks: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = parseArgv(site.args, WORKSPACE_TASK_OPTIONS);
  const operands = operandsOf(parsed, site);
  const verb = operands[0]?.value;
  const targets = optionValues(parsed, '-t', '--target', '--targets').flatMap((arg) => arg.value.split(','));
  let tasks: string[];
  if (['run-many', 'affected'].includes(verb ?? '')) tasks = targets;
  else if (verb === 'run' || verb === 'exec') tasks = operands.slice(1, site.program === 'nx' ? 2 : undefined).map((arg) => arg.value.slice(arg.value.lastIndexOf(':') + 1));
  else tasks = verb === undefined ? [] : [verb];
  if (operands.some((arg) => arg.dynamic)) fx.opaque(`${site.program} runs a task named at run time`, site.program);
  else if (verb === 'exec') fx.unknown(`${site.program} exec`);
  else if (tasks.length > 0 && tasks.every(isTestScriptName)) runsTests(fx, site.program, `${site.program} ${tasks.join(' ')}`, site.args);
  else if (['ls', 'list', 'graph', 'show', 'info', 'report', 'changed', 'diff', 'print-affected', 'daemon', 'login', 'telemetry'].includes(verb ?? '')) return;
  else fx.unknown([site.program, ...(tasks.length > 0 ? tasks : [verb ?? ''])].join(' ').trim());
};

const versionManagerTable = subcommands({ show: 'read', which: 'read', ls: 'read', list: 'read', current: 'read', version: 'read', versions: 'read', 'ls-remote': 'read', doctor: 'read', where: 'read', root: 'read', prefix: 'read' });
/** Version managers whose `exec` runs a command with the toolchain the project or the user selected (`pyenv exec pytest`); nvm's takes a version first. */
const EXECS_A_COMMAND = new Set(['pyenv', 'rbenv', 'nodenv', 'goenv', 'jenv', 'asdf', 'nvm']);
/** A version as nvm takes one (`20`, `v20.11.1`, `lts/iron`, `node`, `system`). */
const NVM_VERSION = /^(?:v?\d+(?:\.\d+){0,2}|lts\/[\w*-]+|node|stable|system|iojs|default)$/;

/**
 * Version managers: what is installed and in use is read; `pyenv exec CMD`, `asdf exec CMD`, `nvm
 * exec [VERSION] CMD` run CMD, judged as it is, with a toolchain the user installed in the home's
 * dot folders (as `source .venv/bin/activate` and `conda run` are); `nvm use [VERSION]` only puts
 * one first on PATH, and `nvm run [VERSION] ARGS` is `node ARGS`. Installing or switching a global
 * default changes the toolchain. mise's `exec` is left out: it installs a missing tool first.
 */
const versionManager: ProgramHandler = (site, fx) => {
  const [verb, ...rest] = site.args;
  if (verb !== undefined && !verb.dynamic && EXECS_A_COMMAND.has(site.program)) {
    const versioned = site.program === 'nvm' && rest[0] !== undefined && !rest[0].dynamic && NVM_VERSION.test(rest[0].value);
    const after = versioned ? rest.slice(1) : rest;
    if (verb.value === 'exec' && after.length > 0 && !after[0]!.value.startsWith('-')) {
      fx.run(after, { stdinArgs: site.stdinArgs });
      return;
    }
    if (site.program === 'nvm' && verb.value === 'run' && after.every((arg) => arg.value !== '--silent')) {
      fx.run([literalArg('node'), ...after], { stdinArgs: site.stdinArgs });
      return;
    }
    if (site.program === 'nvm' && verb.value === 'use' && rest.every((arg) => !arg.dynamic && (NVM_VERSION.test(arg.value) || /^--(?:silent|lts(?:=[\w-]+)?)$/.test(arg.value)))) return;
  }
  versionManagerTable(site, fx);
};

const justOrTask = taskRunner(/^(?:test|tests|check)$/, { short: 'dfg', long: ['dir', 'justfile', 'taskfile'] });

/** `just --list`, `--summary`, `--dump`, `--show RECIPE`: the justfile shown; no recipe runs and no backtick is evaluated (`--evaluate` would). */
const JUST_SHOWS = /^(?:--list|-l|--summary|--dump|--show|-s|--variables|--groups)$/;
/** just's options that only shape what is shown, and those that take a value. */
const JUST_SHOW_OPTIONS = /^(?:--unsorted|-u|--list-heading|--list-prefix|--dump-format|--justfile|-f|--working-directory|-d|--color)$/;
const JUST_VALUE_OPTIONS = /^(?:--show|-s|--list-heading|--list-prefix|--dump-format|--justfile|-f|--working-directory|-d|--color)$/;

function justOnlyShows(args: readonly Arg[]): boolean {
  let shows = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic || !(JUST_SHOWS.test(arg.value) || JUST_SHOW_OPTIONS.test(arg.value))) return false;
    shows ||= JUST_SHOWS.test(arg.value);
    if (JUST_VALUE_OPTIONS.test(arg.value)) i++;
  }
  return shows;
}

/** A subcommand tool: `cargo test`, `go test`, `dotnet test`… */
/** Where a build writes when an option says so: go's `-o FILE`, cargo's `--target-dir DIR`. */
interface BuildOutput {
  readonly arg: Arg;
  readonly folder: boolean;
}

/** Null: the build keeps nothing. */
const BUILD_OUTPUT: Readonly<Record<string, (args: readonly Arg[]) => BuildOutput | null | undefined>> = {
  go: (args) => optionArg(args, '-o', false) ?? goBuildOutput(args),
  cargo: (args) => optionArg(args, '--target-dir', true),
};

/**
 * Without -o, `go build` keeps only the program of one main package, in the working directory
 * (named after the package, so any name there); for several packages (`./...`) it only checks
 * that they build and writes nothing (null). Undefined when no rule applies: the whole tree, cautiously.
 */
function goBuildOutput(args: readonly Arg[]): BuildOutput | null | undefined {
  if (args[0]?.value !== 'build') return undefined;
  const packages = args.slice(1).filter((arg) => !arg.value.startsWith('-'));
  if (packages.some((arg) => arg.dynamic || arg.value.endsWith('.go'))) return undefined;
  if (packages.length > 0 && packages.every((arg) => arg.value.includes('...'))) return null;
  return { arg: { value: '*', dynamic: true, unknownAt: -1 }, folder: false };
}

/** The option's last value (`go build -o /tmp/x -o src/x` writes src/x), as its own word or after `=`. */
function optionArg(args: readonly Arg[], name: string, folder: boolean): BuildOutput | undefined {
  const arg = valueOf(args, name);
  return arg === undefined ? undefined : { arg, folder };
}

/**
 * A subcommand tool's groups whose verbs do other than the group does (`swift package describe`
 * prints, `cargo llvm-cov run` runs the program): the group's own action stands for every other
 * verb (`swift package update` resolves, `cargo llvm-cov --text` runs the tests).
 */
type GroupVerbs = Readonly<Record<string, Readonly<Record<string, ManagerAction | 'opaque'>>>>;

function subcommands(table: Readonly<Record<string, ManagerAction | 'opaque'>>, groupVerbs: GroupVerbs = {}): ProgramHandler {
  return (site, fx) => {
    if (onlyAsksVersion(site.args)) return;
    const sub = site.args.find((arg) => !arg.value.startsWith('-') && !arg.value.startsWith('+'));
    if (!sub) return;
    if (sub.dynamic) {
      fx.opaque(`${site.program} runs a subcommand named at run time`, site.program);
      return;
    }
    let action = table[sub.value];
    // `rustup toolchain list`, `dotnet tool list`, `asdf plugin list`: a group's listing.
    if (action === undefined && LISTING_VERBS.has(site.args.slice(site.args.indexOf(sub) + 1).find((arg) => !arg.value.startsWith('-'))?.value ?? '')) action = 'read';
    // `swift package show-dependencies`: a verb of the group that does what its own table says.
    const verb = site.args.slice(site.args.indexOf(sub) + 1).find((arg) => !arg.value.startsWith('-'));
    const grouped = verb === undefined || verb.dynamic ? undefined : groupVerbs[sub.value]?.[verb.value];
    if (grouped !== undefined) action = grouped;
    // `go tool nm /tmp/app`, `go tool objdump -s main bin`, `go tool addr2line bin`: they read the binary, not run it.
    if (site.program === 'go' && sub.value === 'tool' && GO_TOOL_READERS.has(verb?.value ?? '')) {
      // Go's flags have one dash: `-sort size`, `-s regexp` take the next word; objdump's `start end` are addresses.
      const words = site.args.slice(site.args.indexOf(verb!) + 1);
      const files = words.filter((arg, i) => (arg.dynamic || !arg.value.startsWith('-')) && !/^-(?:-?sort|-?type|-?s)$/.test(words[i - 1]?.value ?? '') && !/^(?:0x)?[\da-f]+$/i.test(arg.value));
      for (const file of site.stdinArgs ? [...files, ...operandsOf(parseArgv([], {}), site)] : files) fx.read('go', file);
      return;
    }
    // `go tool pprof -top cpu.prof` prints a profile (`-http` serves it, `-output`/`-o` writes a report).
    if (site.program === 'go' && sub.value === 'tool' && site.args[site.args.indexOf(sub) + 1]?.value === 'pprof') {
      const args = site.args.slice(site.args.indexOf(sub) + 2);
      for (const out of [optionArg(args, '-output', false), optionArg(args, '-o', false)]) if (out) fx.write('go', out.arg);
      if (args.some((arg) => /^-(?:-)?(?:http|web|proto|symbolize=remote)/.test(arg.value))) fx.opaque('go tool pprof serves or opens the profile', 'go');
      for (const file of args.filter((arg) => !arg.value.startsWith('-'))) if (!/^https?:/.test(file.value)) fx.read('go', file);
      return;
    }
    // `go tool cover -func=c.out` prints a coverage report; `-html=c.out -o x.html` writes one.
    if (site.program === 'go' && sub.value === 'tool' && site.args[site.args.indexOf(sub) + 1]?.value === 'cover') {
      const out = optionArg(site.args, '-o', false);
      if (out) fx.write('go', out.arg);
      else if (site.args.some((arg) => arg.value.startsWith('-html'))) fx.opaque('go tool cover -html opens a browser', 'go');
      return;
    }
    // `go env -w GOFLAGS=…`: saved in go's environment file, and read by every later go command.
    if (site.program === 'go' && sub.value === 'env' && site.args.some((arg) => arg.value === '-w' || arg.value === '-u')) {
      fx.write('go', configFile(fx, '.config/go/env'));
      return;
    }
    // `go vet -vettool=/tmp/x`, `go build -toolexec=…`, `cargo check --config …`: a program or configuration from elsewhere, whatever the subcommand.
    if (action !== 'test') loadsForeignCode(fx, site.program, `${site.program} ${sub.value}`, site.args);
    // `go test -c` leaves the test binary in the working directory; with `-o F` only F (written as go test's output option).
    if (site.program === 'go' && sub.value === 'test' && site.args.some((arg) => arg.value === '-c') && optionArg(site.args, '-o', false) === undefined) fx.write('go', { path: `${fx.cwd}/*.test`, dynamic: true });
    // A check changes nothing (`cargo fmt --check`, `dotnet format --verify-no-changes`); a fix does (`cargo clippy --fix`).
    if (/^(?:fmt|format)$/.test(sub.value) && site.args.some((arg) => /^--(?:check|verify-no-changes|check-formatted|output=none|set-exit-if-changed)$/.test(arg.value))) action = 'read';
    if (action === 'read' && site.args.some((arg) => arg.value === '--fix' || arg.value === '--allow-dirty' || (sub.value === 'audit' && arg.value === 'fix'))) action = 'write';
    if (sub.value === 'mod') action = goModAction(site.args[site.args.indexOf(sub) + 1]?.value, site.args);
    // `go mod tidy -diff` prints what it would change; `cargo update --dry-run` what it would update.
    if (action === 'install' && site.args.some((arg) => arg.value === '-diff' || arg.value === '--dry-run')) action = 'read';
    switch (action) {
      case 'test':
        runsTests(fx, site.program, `${site.program} ${sub.value}`, site.args);
        return;
      case 'install':
        fx.emit({ kind: 'package_install', manager: site.program, program: site.program });
        return;
      case 'read':
        return;
      case 'write': {
        // `go build -o /dev/null ./...` writes only its output; `cargo build --target-dir /tmp/t` only below that folder.
        const output = BUILD_OUTPUT[site.program]?.(site.args);
        if (output !== null) fx.write(site.program, output === undefined ? everythingBelow(fx) : output.folder ? everythingBelow(fx, output.arg) : output.arg);
        return;
      }
      case 'network':
        fx.network(site.program, `${site.program} registry`);
        return;
      case 'opaque':
        fx.opaque(`${site.program} ${sub.value} runs code gobby cannot see`, site.program);
        return;
      default:
        fx.unknown(`${site.program} ${sub.value}`);
    }
  };
}

/** go's tools that print what a binary holds (go's own nm, objdump, addr2line). */
const GO_TOOL_READERS = new Set(['nm', 'objdump', 'addr2line']);

/** Formatters and fixers: they write their operands (or the project) only with the flag that says so. */
/** Report options of linters and type checkers: each writes the file or folder it names. */
const LINT_REPORTS = ['--output-file', '--output', '--html-report', '--txt-report', '--xml-report', '--junit-xml', '--cobertura-xml-report', '--linecount-report', '--lineprecision-report', '--any-exprs-report', '--linecoverage-report', '--memory-xml-report'];
const LINT_OPTIONS: OptionSpec = {
  short: 'pcfeo',
  long: ['config-file', 'python-version', 'project', 'severity', 'format', 'exclude', 'shell', 'rcfile', 'disable', 'enable', 'max-line-length', 'select', 'ignore', ...LINT_REPORTS.map((option) => option.slice(2))],
};
const readsLinted = readsOperands(LINT_OPTIONS);

/** mypy, pylint, flake8, shellcheck…: they read what they check, and write the reports they are asked for. */
const linter: ProgramHandler = (site, fx) => {
  // `pylint --init-hook='…'` (or a shortening, `--init-h`): Python run before the lint.
  if (site.program === 'pylint' && site.args.some((arg) => arg.value.startsWith('--init-h'))) fx.opaque('pylint --init-hook runs inline Python', 'pylint');
  // A linter told to fix, or to write a baseline or stubs, changes the files it is given (or the project).
  if (fixesInPlace(site)) {
    fixer(/$^/, undefined, LINT_OPTIONS)(site, fx);
    return;
  }
  loadsForeignCode(fx, site.program, site.program, site.args);
  for (const report of optionValues(parseArgv(site.args, LINT_OPTIONS), ...LINT_REPORTS)) fx.write(site.program, report);
  writesOutputOptions(fx, site.program, site.args); // `mypy --cache-dir`, `pylint --output`, …
  readsLinted(site, fx);
};

/**
 * Long options with which linters and formatters change files (`--fix`, `--fix-only`,
 * `--unsafe-fixes`, `--add-noqa`, `--write`, `--in-place`, `--auto-correct`, `--autofix`,
 * `--generate-baseline`, `--writebaseline`, `--createstub`, `--install-types`), as any tool spells
 * them; `--fix-dry-run` and `--fix=false` change nothing.
 */
const FIXES_IN_PLACE = /^--(?:fix(?!-dry-run)[\w-]*|unsafe-fixes|add-noqa|write|in-?place|auto-?correct[\w-]*|autofix|generate-baseline|write-?baseline|createstub|install-types)(?:=(?!false$|0$|no$).*)?$/i;
/** The same, spelled by one tool: `jsonlint -i`, `ktlint -F`, `detekt -ac`, `golangci-lint fmt`, `markdownlint -f`. */
const FIXES_BY_TOOL: Readonly<Record<string, RegExp>> = {
  jsonlint: /^-[a-zA-Z]*i[a-zA-Z]*$/,
  ktlint: /^(?:-F|--format)$/,
  detekt: /^-ac$/,
  'golangci-lint': /^(?:fmt|format)$/,
  markdownlint: /^-[a-zA-Z]*f[a-zA-Z]*$/,
};

function fixesInPlace(site: CommandSite): boolean {
  const byTool = FIXES_BY_TOOL[site.program];
  return site.args.some((arg) => !arg.dynamic && (FIXES_IN_PLACE.test(arg.value) || byTool?.test(arg.value) === true));
}

function fixer(writeFlags: RegExp, readFlags: RegExp | undefined, spec: OptionSpec, writesByDefault = false): ProgramHandler {
  return (site, fx) => {
    if (onlyAsksVersion(site.args)) return;
    loadsForeignCode(fx, site.program, site.program, site.args);
    const parsed = parseArgv(site.args, spec);
    for (const out of optionValues(parsed, '-o', '--output-file', '--output')) fx.write(site.program, out);
    writesOutputOptions(fx, site.program, site.args); // `--cache-location`, `--report-dir`, …
    const words = site.args.map((arg) => arg.value);
    const writes = words.some((word) => writeFlags.test(word)) || fixesInPlace(site) || (writesByDefault && !words.some((word) => readFlags?.test(word)));
    // Subcommands are not files (`ruff check`, `golangci-lint run`, `phpstan analyse`, `php-cs-fixer fix`); go's `./...` is every package below.
    const files = operandsOf(parsed, site)
      .filter((arg) => !/^(?:check|format|lint|fmt|run|analyse|analyze|fix)$/.test(arg.value))
      .map((arg) => (arg.value.endsWith('...') ? everythingBelow(fx, { ...arg, value: arg.value.slice(0, -3) || '.' }) : arg));
    if (!writes) {
      for (const file of files) fx.read(site.program, file);
      return;
    }
    if (files.length === 0) fx.write(site.program, everythingBelow(fx));
    for (const file of files) fx.write(site.program, file);
  };
}

const ESLINT_OPTIONS: OptionSpec = { short: 'cfo', long: ['config', 'format', 'output-file', 'ext', 'rule', 'plugin', 'parser', 'resolve-plugins-relative-to', 'ignore-path', 'ignore-pattern', 'max-warnings', 'cache-location', 'rulesdir', 'suppressions-location'] };
const eslintChecks = fixer(/^--fix$/, undefined, ESLINT_OPTIONS);

/** eslint: `--fix` rewrites the files; `--suppress-all`, `--suppress-rule`, `--prune-suppressions` rewrite its suppressions file. */
const eslint: ProgramHandler = (site, fx) => {
  eslintChecks(site, fx);
  if (!site.args.some((arg) => /^--(?:suppress-all|suppress-rule|prune-suppressions)(?:=|$)/.test(arg.value))) return;
  const parsed = parseArgv(site.args, ESLINT_OPTIONS);
  fx.write('eslint', lastOptionValue(parsed, '--suppressions-location') ?? { path: `${fx.cwd}/eslint-suppressions.json`, dynamic: false });
};

/** Go-style flags (one dash or two, `-name value` or `-name=value`): the words that are files, after the values of `valued` flags. */
function goStyleOperands(args: readonly Arg[], valued: RegExp): Arg[] {
  const files: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!.value;
    if (args[i]!.dynamic || !word.startsWith('-')) files.push(args[i]!);
    else if (!word.includes('=') && valued.test(word.replace(/^--?/, ''))) i++;
  }
  return files;
}

/** kubeconform and kubeval check manifests against schemas they fetch; kubeconform's `-cache DIR` keeps the schemas there. */
const manifestValidator: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  for (let i = 0; i < site.args.length; i++) {
    const match = /^--?cache(?:=(.*))?$/s.exec(site.args[i]!.value);
    const folder = match === null ? undefined : match[1] !== undefined ? sliceArg(site.args[i]!, site.args[i]!.value.indexOf('=') + 1) : site.args[i + 1];
    if (folder !== undefined) fx.write(site.program, everythingBelow(fx, folder));
  }
  const files = goStyleOperands(site.args, /^(?:cache|schema-location|output|o|kubernetes-version|skip|reject|n|ignore-filename-pattern|ignored-filename-patterns|i|directories|d|skip-kinds|k|strict-kinds|goroutines|summary-format)$/);
  for (const file of files) if (file.value !== '-') fx.readTree(site.program, file);
};

/**
 * Checkers that report and change nothing unless told to (`detect-secrets scan --update FILE`,
 * `safety check --apply-fixes`, `type-coverage --update`, `interrogate -g badge.svg`): each entry
 * reads what it checks, writes the file its option names, and changes the project with its fix flag.
 */
interface Checker {
  /** Subcommands that only report (`safety check`, `detect-secrets scan`); none when the tool has none. */
  readonly reports?: ReadonlySet<string>;
  readonly options: OptionSpec;
  /** Options that write the file they name (`--save-json F`, `--update F`, `-o F`), as their own word or after `=`. */
  readonly writes?: readonly string[];
  /** Options whose value, a file outside the project, is code it loads (`--plugin x.py`, a baseline naming plugins). */
  readonly code?: readonly string[];
  /** Options that change the project (`--apply-fixes`, `--update`, `--cache`). */
  readonly fixes?: RegExp;
  /** What it reads without operands: the working directory's tree, or nothing named (the environment). */
  readonly withoutOperands?: 'tree';
}

function checker(spec: Checker): ProgramHandler {
  return (site, fx) => {
    if (onlyAsksVersion(site.args)) return;
    const parsed = parseArgv(site.args, spec.options);
    const all = operandsOf(parsed, site);
    const sub = spec.reports === undefined ? undefined : all[0];
    const operands = spec.reports === undefined ? all : all.slice(1);
    if (spec.reports !== undefined && (sub === undefined || sub.dynamic || !spec.reports.has(sub.value))) {
      fx.unknown(`${site.program}${sub === undefined ? '' : ` ${sub.value}`}`);
      return;
    }
    for (const option of spec.code ?? []) {
      const value = valueOf(site.args, option);
      const file = value === undefined ? undefined : { ...value, value: value.value.replace(/^file:\/\//, '').replace(/::.*$/s, '') };
      if (file !== undefined && (file.dynamic || /[/~]|\.py$/.test(file.value)) && mayBeAgentsFile(fx, file)) fx.opaque(`${site.program} ${option} loads ${file.value}, outside the project`, site.program);
    }
    for (const option of spec.writes ?? []) {
      const out = valueOf(site.args, option);
      if (out !== undefined && out.value !== '-') fx.write(site.program, out);
    }
    if (spec.fixes !== undefined && site.args.some((arg) => spec.fixes!.test(arg.value))) fx.write(site.program, everythingBelow(fx));
    for (const file of operands) if (file.value !== '-') fx.readTree(site.program, file);
    if (operands.length === 0 && spec.withoutOperands === 'tree') fx.readTree(site.program, workingDirectory(fx));
  };
}

/**
 * trufflehog checks for a newer release of itself and replaces its own binary unless told not to
 * (`--no-update`): code fetched to run. With it, `trufflehog filesystem PATH` reads the paths.
 */
const trufflehog: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = parseArgv(site.args, { long: ['config', 'exclude-paths', 'include-paths', 'results', 'log-level', 'concurrency', 'exclude-detectors', 'include-detectors', 'archive-max-size', 'archive-max-depth', 'archive-timeout'] });
  const [sub, ...paths] = operandsOf(parsed, site);
  if (sub?.value !== 'filesystem' || sub.dynamic) {
    fx.unknown(`trufflehog${sub === undefined ? '' : ` ${sub.value}`}`);
    return;
  }
  if (!hasOption(parsed, '--no-update')) fx.emit({ kind: 'package_install', manager: 'trufflehog (updates itself without --no-update)', program: 'trufflehog' });
  for (const file of optionValues(parsed, '--config', '--exclude-paths', '--include-paths')) fx.read('trufflehog', file);
  for (const path of paths) fx.readTree('trufflehog', path);
};

/** `elm-test` runs the tests; `elm-test init` writes a tests folder, `install` adds a package, `make` compiles them. */
const elmTest: ProgramHandler = (site, fx) => {
  const verb = site.args.find((arg) => !arg.value.startsWith('-'));
  if (verb?.value === 'init' || verb?.value === 'make') fx.write('elm-test', everythingBelow(fx));
  else if (verb?.value === 'install') fx.emit({ kind: 'package_install', manager: 'elm-test', program: 'elm-test' });
  else runsTests(fx, 'elm-test', 'elm-test', site.args);
};

/** `shellspec` runs the specs; `--init` writes its configuration and spec folder, `--kcov` a coverage folder. */
const shellspec: ProgramHandler = (site, fx) => {
  if (site.args.some((arg) => /^--(?:init|kcov)/.test(arg.value))) fx.write('shellspec', everythingBelow(fx));
  runsTests(fx, 'shellspec', 'shellspec', site.args);
};

/** `go mod init` and `go mod edit` rewrite go.mod (`edit -json`/`-print` only show it); `tidy`, `get`, `vendor` install. */
function goModAction(verb: string | undefined, args: readonly Arg[]): 'install' | 'write' | 'read' {
  if (verb === 'download' || verb === 'tidy' || verb === 'get' || verb === 'vendor') return 'install';
  if (verb === 'init' || (verb === 'edit' && !args.some((arg) => arg.value === '-json' || arg.value === '-print'))) return 'write';
  return 'read';
}

/** Where coverage.py's reports go when no option says: `coverage html` writes `htmlcov/`, `coverage xml` `coverage.xml`, … */
const COVERAGE_REPORTS: Readonly<Record<string, string>> = { html: 'htmlcov/**', xml: 'coverage.xml', json: 'coverage.json', lcov: 'coverage.lcov', annotate: '**', combine: '.coverage', erase: '.coverage' };

/** `coverage run -m pytest` runs the module under coverage; `coverage report` reads; the other reports write. */
const coveragePy: ProgramHandler = (site, fx) => {
  const sub = site.args[0]?.value;
  const dataFile = lastOptionValue(parseArgv(site.args.slice(1), { long: ['data-file', 'rcfile', 'source', 'include', 'omit', 'context', 'concurrency', 'directory', 'title', 'precision', 'contexts', 'fail-under'], stopAtOperand: sub === 'run' }), '--data-file');
  if (dataFile && sub !== 'report') fx.write('coverage', dataFile);
  if (sub === 'run') {
    fx.run([literalArg('python'), ...site.args.slice(1)]);
    return;
  }
  const target = sub === undefined ? undefined : COVERAGE_REPORTS[sub];
  if (target === undefined) return;
  const parsed = parseArgv(site.args.slice(1), { short: 'do', long: ['directory', 'data-file', 'rcfile', 'include', 'omit', 'title', 'precision', 'contexts', 'fail-under'] });
  const chosen = lastOptionValue(parsed, '-d', '--directory', '-o');
  if (chosen) fx.write('coverage', sub === 'html' || sub === 'annotate' ? everythingBelow(fx, chosen) : chosen);
  else fx.write('coverage', target.endsWith('**') ? { path: `${fx.cwd}/${target}`, dynamic: true } : literalArg(target));
  writesOutputOptions(fx, 'coverage', site.args.slice(1));
};

/** Whether tsc's boolean `flag` is on after its last spelling (`--noEmit`, `-noemit true`; `--noEmit false` turns it off). */
function tscFlagIsOn(words: readonly string[], flag: string): boolean {
  let on = false;
  for (let i = 0; i < words.length; i++) {
    const match = /^--?([a-z]+)(?:=(true|false))?$/i.exec(words[i]!);
    if (match === null || match[1]!.toLowerCase() !== flag) continue;
    const value = match[2] ?? (words[i + 1] === 'true' || words[i + 1] === 'false' ? words[i + 1] : 'true');
    on = value === 'true';
  }
  return on;
}

const tsc: ProgramHandler = (site, fx) => {
  loadsForeignCode(fx, 'tsc', 'tsc', site.args);
  writesOutputOptions(fx, 'tsc', site.args); // `--generateTrace dir`, `--tsBuildInfoFile x`, even with --noEmit
  const words = site.args.map((arg) => arg.value);
  // tsc takes its options with one dash or two, in any case (`-noEmit`, `--noemit`).
  // A boolean flag takes `true`/`false` after it (`--noEmit false` emits).
  // The last spelling of each counts (`--noEmit --noEmit false` emits); a response file (`@args`) may hold any of them.
  if (onlyAsksVersion(site.args) || (!words.some((word) => word.startsWith('@')) && ['noemit', 'showconfig', 'listfilesonly', 'dry'].some((flag) => tscFlagIsOn(words, flag)))) return;
  // Read as tsc reads its options: whole names, no abbreviations (`--declaration` is a flag of its own, not `--declarationDir`).
  const outputs: PathRef[] = [];
  for (let i = 0; i < words.length - 1; i++) {
    const name = words[i]!.replace(/^--?/, '').toLowerCase();
    if (name === 'outdir' || name === 'declarationdir') outputs.push(everythingBelow(fx, site.args[++i]!));
    else if (name === 'outfile') outputs.push(fx.path(site.args[++i]!));
  }
  // Without one, the JavaScript lands where tsconfig.json says, or next to each source.
  for (const output of outputs.length > 0 ? outputs : [everythingBelow(fx)]) fx.write('tsc', output);
};

/**
 * gobby's own commands that only read (`workflow status/list/show/validate/audit`, `daemon
 * status`, help). The overrides are refused on gobby's own ground (workflows/guards.ts) whatever
 * the phase; any other is named like an unknown program.
 */
const gobby: ProgramHandler = (site, fx) => {
  const words = site.args.filter((arg) => !arg.value.startsWith('-'));
  const [group, action] = words.map((arg) => arg.value);
  const reads =
    words.length === 0 ||
    group === 'help' ||
    group === 'statusline' ||
    (group === 'workflow' && ['status', 'list', 'show', 'validate', 'audit', 'help', undefined].includes(action)) ||
    (group === 'daemon' && (action === 'status' || action === undefined));
  if (site.stdinArgs || site.args.some((arg) => arg.dynamic)) fx.opaque('gobby is given arguments built at run time', 'gobby');
  else if (!reads) fx.unknown(group === 'workflow' || group === 'daemon' ? `gobby ${group} ${action}` : `gobby ${group}`);
  else if (group === 'workflow' && action === 'validate') for (const file of words.slice(2).filter((arg) => /[/.]/.test(arg.value))) fx.read('gobby', file);
  else if (group === 'statusline') {
    // `--then '<command>'` runs the user's previous status line through the shell.
    const at = site.args.findIndex((arg) => arg.value === '--then' || arg.value.startsWith('--then='));
    const code = at === -1 ? undefined : site.args[at]!.value.startsWith('--then=') ? { ...site.args[at]!, value: site.args[at]!.value.slice('--then='.length) } : site.args[at + 1];
    if (code !== undefined) fx.runShellCode(code, 'gobby statusline --then', false);
  }
};

/** kubectl: the reads of a cluster; anything else changes it and is named for an author to allow. */
const zigSubcommands = subcommands({ test: 'test', build: 'write', run: 'opaque', fmt: 'write', 'ast-check': 'read', version: 'read' });

/** `zig build test` runs the build's test step; another step is the build's own. */
const zig: ProgramHandler = (site, fx) => {
  if (site.args[0]?.value === 'build' && site.args[1]?.value === 'test') runsTests(fx, 'zig', 'zig build test', site.args.slice(2));
  else zigSubcommands(site, fx);
};

/** `kustomize build` prints the manifests; with -o it writes them, and its other commands edit the kustomization. */
const kustomize: ProgramHandler = (site, fx) => {
  const prints = site.args[0]?.value === 'build' && !site.args.some((arg) => /^(?:-o|--output)/.test(arg.value));
  if (!prints) fx.unknown(`kustomize ${site.args[0]?.value ?? ''}`.trim());
};

/**
 * cmake configures (`-S src -B build`) or builds (`--build build`) into its build folder, running
 * the project's CMake code and compilers: a write of that folder (the working directory when none
 * is named). Its command mode (`-E`), script mode (`-P`) and `--install` are named for an author to allow.
 */
const cmake: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  if (site.args[0]?.value === '-E' && !site.args[0].dynamic) {
    cmakeCommand(site.args.slice(1), fx);
    return;
  }
  const mode = site.args.find((arg) => arg.value === '-E' || arg.value === '-P' || arg.value === '--install');
  if (mode !== undefined || site.args.some((arg) => arg.dynamic)) {
    fx.unknown(`cmake ${mode?.value ?? ''}`.trim());
    return;
  }
  // The build folder is output (every -B given: cmake keeps the last); any other path outside the
  // project (`-S /tmp/src`, `-C /tmp/x.cmake`) is code.
  const folders: Arg[] = [];
  const rest: Arg[] = [];
  for (let i = 0; i < site.args.length; i++) {
    const arg = site.args[i]!;
    if ((arg.value === '-B' || arg.value === '--build') && site.args[i + 1] !== undefined) folders.push(site.args[++i]!);
    else if (arg.value.startsWith('-B') && arg.value.length > 2) folders.push({ ...arg, value: arg.value.slice(2) });
    else rest.push(arg);
  }
  loadsForeignCode(fx, 'cmake', 'cmake', rest);
  for (const folder of folders.length > 0 ? folders : [undefined]) fx.write('cmake', everythingBelow(fx, folder));
};

/**
 * `cmake -E COMMAND …`, CMake's portable file commands, judged as the programs they stand for
 * (`copy` is `cp`, `copy_directory x d` is `cp -rT x d`: x's contents, whatever they are named,
 * `create_symlink` is `ln -s`, `tar` is tar, `env` and `time` run their command, `chdir DIR`
 * runs its command there). A command not listed is left to the phase, named.
 */
function cmakeCommand(args: readonly Arg[], fx: ShellEffects): void {
  const [command, ...rest] = args;
  const name = command === undefined || command.dynamic ? '' : command.value;
  const as = (program: string, ...options: string[]): void => fx.run([literalArg(program), ...options.map(literalArg), ...rest]);
  switch (name) {
    case 'copy':
    case 'copy_if_different':
    case 'copy_if_newer':
      as('cp');
      return;
    case 'copy_directory':
    case 'copy_directory_if_different':
    case 'copy_directory_if_newer': {
      const destination = rest[rest.length - 1];
      if (destination !== undefined) for (const folder of rest.slice(0, -1)) fx.run([literalArg('cp'), literalArg('-rT'), folder, destination]);
      return;
    }
    case 'rename':
      as('mv');
      return;
    case 'remove':
    case 'rm':
      as('rm');
      return;
    case 'remove_directory':
      as('rm', '-rf');
      return;
    case 'make_directory':
      as('mkdir', '-p');
      return;
    case 'touch':
    case 'touch_nocreate':
      as('touch');
      return;
    case 'create_symlink':
      as('ln', '-s');
      return;
    case 'create_hardlink':
      as('ln');
      return;
    case 'tar':
    case 'cat':
    case 'env':
    case 'md5sum':
    case 'sha1sum':
    case 'sha224sum':
    case 'sha256sum':
    case 'sha384sum':
    case 'sha512sum':
      as(name);
      return;
    case 'compare_files':
      as('cmp');
      return;
    case 'time':
      if (rest.length > 0) fx.run(rest);
      return;
    case 'chdir':
      if (rest.length > 1) fx.at(rest[0]!).run(rest.slice(1));
      return;
    case 'echo':
    case 'echo_append':
    case 'true':
    case 'false':
    case 'sleep':
    case 'capabilities':
    case 'environment':
    case 'help':
      return;
    default:
      fx.unknown(`cmake -E ${name}`.trim());
  }
}

/** The folders an install's own options put packages in: `--target`/`-t`, `--prefix`, `--root`, `--install-dir`, `--modules-folder`. */
function installFolders(rest: readonly Arg[]): Arg[] {
  const folders: Arg[] = [];
  for (let i = 0; i < rest.length; i++) {
    const match = /^(?:--(?:target|prefix|root|install-dir|modules-folder|global-dir)|-t)(=|$)/.exec(rest[i]!.value);
    if (match === null) continue;
    const value = match[1] === '=' ? { ...rest[i]!, value: rest[i]!.value.slice(rest[i]!.value.indexOf('=') + 1) } : rest[i + 1];
    if (value !== undefined) folders.push(value);
  }
  return folders;
}

/**
 * What a checkout, a reset or an apply rewrites: the work tree's files. In the project that is the
 * project's own history (ordinary work); a work tree elsewhere (`git --work-tree=~ checkout -f`, a
 * dotfiles repository in the home) gets whatever names the repository holds.
 */
function workTreeFiles(fx: ShellEffects, foreignHistory: boolean): PathRef {
  return fx.cwdKnown && isWithin(fx.cwd, fx.projectRoot) && !foreignHistory ? everythingBelow(fx) : filesNamedByData(fx);
}

/** The paths of `git diff --no-index` (its two operands) or `git grep --no-index` (after the pattern, or after `--`), read as trees. */
function readsWithoutIndex(sub: string, rest: readonly Arg[], fx: ShellEffects): void {
  const dashDash = rest.findIndex((arg) => arg.value === '--');
  const words = rest.filter((arg, i) => (dashDash === -1 || i !== dashDash) && (arg.dynamic || !arg.value.startsWith('-') || (dashDash !== -1 && i > dashDash)));
  const patternGiven = rest.some((arg) => /^(?:-e|--regexp|-f|--file)(?:=|$)/.test(arg.value));
  const paths = dashDash !== -1 ? rest.slice(dashDash + 1) : sub === 'grep' && !patternGiven ? words.slice(1) : words;
  if (sub === 'grep' && paths.length === 0) fx.readTree('git', workingDirectory(fx));
  for (const path of paths) fx.readTree('git', path);
}

const KUBECTL_READS = new Set(['get', 'describe', 'logs', 'top', 'explain', 'version', 'api-resources', 'api-versions', 'cluster-info', 'events', 'auth', 'diff']);
const kubectl: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = parseArgv(site.args, { short: 'nlcosf', long: ['namespace', 'context', 'cluster', 'kubeconfig', 'selector', 'output', 'server', 'user', 'token', 'container', 'filename', 'since', 'tail'] });
  const [sub, action] = operandsOf(parsed, site).map((arg) => arg.value);
  const configRead = sub === 'config' && ['view', 'get-contexts', 'current-context', 'get-clusters', 'get-users'].includes(action ?? '');
  const rolloutRead = sub === 'rollout' && ['status', 'history'].includes(action ?? '');
  // A kubeconfig's exec plugins and auth providers are programs kubectl runs.
  for (const config of optionValues(parsed, '--kubeconfig')) if (mayBeAgentsFile(fx, config)) fx.opaque(`kubectl loads ${config.value}, a kubeconfig whose plugins it runs`, 'kubectl');
  if (sub !== undefined && (KUBECTL_READS.has(sub) || configRead || rolloutRead)) {
    for (const file of optionValues(parsed, '-f', '--filename', '--kubeconfig')) fx.read('kubectl', file);
    if (!configRead) fx.network('kubectl', 'kubernetes cluster');
  } else fx.unknown(sub === undefined ? 'kubectl' : `kubectl ${sub}`);
};

const CLAUDE_CONFIG_CHANGES = new Set(['set', 'add', 'remove', 'unset']);

const claude: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const sub = site.args[0]?.value;
  // `claude config set -g disableAllHooks true`: settings changed from the agent's tools.
  if (sub === 'config' && CLAUDE_CONFIG_CHANGES.has(site.args[1]?.value ?? '')) {
    fx.emit({ kind: 'nested_claude', flags: [], program: site.program, config: site.args.slice(1).map((arg) => arg.value).join(' ') });
    return;
  }
  // `claude config get theme`, `claude config list`: they read the settings and start no session.
  if (sub === 'config') return;
  // `claude mcp …` configures servers; the options after it are the servers', not a session's.
  const mcp = sub === 'mcp';
  // A cluster of short flags is each of them (`-pw` is `-p -w`; `-wx` is `-w` given `x`).
  const flags = mcp ? [] : site.args.filter((arg) => arg.value.startsWith('-')).flatMap((arg) => (/^-[a-zA-Z]{2,}/.test(arg.value) ? [...arg.value.slice(1)].map((letter) => `-${letter}`) : [arg.value]));
  // Started in another folder, it loads that folder's project settings (`cd /tmp && claude -p …`);
  // Claude Code reads `.claude/settings.json` only where it starts, so a subfolder of the project
  // (`cd src && claude -p …`) has none of the project's hooks either.
  const outside = mcp || (fx.cwdKnown && fx.cwd === fx.projectRoot) ? undefined : fx.cwdKnown ? fx.cwd : 'a folder known only at run time';
  // As another user (`sudo claude`, `su ci -c claude`), it reads that user's settings, not the ones holding gobby's hooks.
  const asUser = fx.otherUser;
  const started = outside === undefined ? { kind: 'nested_claude' as const, flags, program: site.program } : { kind: 'nested_claude' as const, flags, program: site.program, outside };
  fx.emit(asUser === undefined ? started : { ...started, asUser });
  // `claude mcp add NAME [--] COMMAND ARGS…`: every later session starts that command; it is judged now, as `at` is.
  if (mcp && site.args[1]?.value === 'add') {
    const rest = site.args.slice(2);
    const dashDash = rest.findIndex((arg) => arg.value === '--');
    const parsed = parseArgv(rest, { short: 'steH', long: ['scope', 'transport', 'env', 'header', 'callback-port', 'client-id', 'client-secret'] });
    const transport = lastOptionValue(parsed, '-t', '--transport')?.value ?? 'stdio';
    const command = dashDash !== -1 ? rest.slice(dashDash + 1) : operandsOf(parsed, { ...site, args: rest }).slice(1);
    if (transport === 'stdio' && command.length > 0) fx.run(command);
  }
  // `claude mcp add-json NAME '{"command":"sh","args":["-c","…"]}'`: the same, given as JSON.
  if (mcp && site.args[1]?.value === 'add-json') {
    const json = parseArgv(site.args.slice(2), { short: 's', long: ['scope'] }).operands[1];
    if (json === undefined) return;
    const server = json.dynamic ? undefined : mcpServer(json.value);
    if (server === undefined) fx.opaque(`claude mcp add-json registers a server whose command gobby cannot read (\`${json.value.slice(0, 80)}\`)`, site.program);
    else if ('url' in server) fx.network(site.program, server.url);
    else if (server.command.length > 0) fx.run(server.command.map((value) => ({ value, dynamic: false, unknownAt: -1 })));
  }
};

/** What an MCP server's JSON definition starts (`command` and `args`) or reaches (`url`, JSON escapes decoded); undefined when it cannot be read. */
function mcpServer(json: string): { readonly command: readonly string[] } | { readonly url: string } | undefined {
  let server: unknown;
  try {
    server = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof server !== 'object' || server === null) return undefined;
  const { command, args, url } = server as { command?: unknown; args?: unknown; url?: unknown };
  if (typeof url === 'string') return { url };
  if (command === undefined) return url === undefined ? { command: [] } : undefined;
  if (typeof command !== 'string' || (args !== undefined && !(Array.isArray(args) && args.every((arg) => typeof arg === 'string')))) return undefined;
  return { command: [command, ...((args as string[] | undefined) ?? [])] };
}

/** Compose's own options that take a value, before its subcommand. */
const COMPOSE_OPTIONS: OptionSpec = { short: 'fp', long: ['file', 'project-name', 'profile', 'env-file', 'project-directory', 'ansi', 'parallel', 'progress'], stopAtOperand: true };
/** Compose subcommands that only show the project's containers and configuration. */
const COMPOSE_READS = new Set(['ps', 'logs', 'ls', 'config', 'images', 'top', 'port', 'version', 'events']);

/** pip-audit reads the environment or a requirements file; `--fix` installs the fixed versions. */
const pipAudit: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'rfo', long: ['requirement', 'format', 'output', 'cache-dir', 'index-url', 'desc', 'ignore-vuln'] });
  for (const file of optionValues(parsed, '-r', '--requirement')) fx.read('pip-audit', file);
  for (const out of optionValues(parsed, '-o', '--output')) fx.write('pip-audit', out);
  if (hasOption(parsed, '--fix')) fx.emit({ kind: 'package_install', manager: 'pip-audit', program: 'pip-audit' });
};

const CONTAINER_GROUPS = new Set(['network', 'volume', 'image', 'container', 'system', 'context', 'plugin', 'secret', 'config', 'node', 'service', 'stack', 'builder', 'buildx', 'manifest', 'trust', 'machine', 'pod']);
const CONTAINER_GROUP_READS = new Set(['ls', 'list', 'inspect', 'df', 'info', 'ps', 'history', 'logs', 'show', 'exists', 'top', 'du']);

/** terraform: what only reads the configuration and the state (`plan` without `-out`, `validate`, `fmt -check`, `show`…); the rest change them. */
/** Options naming a file terraform writes: the saved plan, a state's copy or backup, generated configuration. */
const TERRAFORM_OUTPUT_OPTION = /^--?(out|state-out|backup|generate-config-out)(?:=(.*))?$/s;
const TERRAFORM_READS = new Set(['plan', 'validate', 'show', 'output', 'providers', 'graph', 'version', 'metadata', 'modules']);
const terraform: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const words = site.args.filter((arg) => !arg.value.startsWith('-'));
  const [sub, action] = words.map((arg) => arg.value);
  // Go's flags take `-out=FILE`, `-out FILE`, and two dashes as well as one.
  for (let i = 0; i < site.args.length; i++) {
    const option = TERRAFORM_OUTPUT_OPTION.exec(site.args[i]!.value);
    if (!option) continue;
    const file = option[2] !== undefined ? { ...site.args[i]!, value: option[2], unknownAt: -1 } : site.args[i + 1];
    if (file !== undefined && file.value !== '') fx.write('terraform', file);
  }
  const checks = site.args.some((arg) => arg.value === '-check' || arg.value === '--check');
  const reads = (sub !== undefined && TERRAFORM_READS.has(sub)) || (sub === 'fmt' && checks) || (sub === 'state' && ['list', 'show', 'pull'].includes(action ?? '')) || (sub === 'workspace' && ['list', 'show'].includes(action ?? ''));
  if (words.some((arg) => arg.dynamic)) fx.opaque('terraform is given a subcommand built at run time', 'terraform');
  else if (reads) fx.network('terraform', 'terraform providers');
  else fx.unknown(sub === undefined ? 'terraform' : `terraform ${sub}`);
};

/**
 * Cloud CLIs: an operation that describes, lists or gets (`aws ec2 describe-instances`, `aws s3
 * ls`, `gcloud compute instances list`, `az vm show`) reads the account over the network; any
 * other changes it, or writes files (`aws s3 cp`), and is named for an author to allow.
 */
const CLOUD_READ_VERB = /^(?:describe|list|get|show|head|ls|info|get-value|whoami|account|version|tail)(?:-|$)/;
const CLOUD_CHANGE_VERB = /^(?:create|delete|update|set|add|remove|start|stop|restart|deploy|apply|import|export|reset|resize|ssh|scp|run|exec|invoke|attach|detach|enable|disable|login|logout|copy|cp|mv|rm|sync|upload|download|put|tag|untag)(?:-|$)/;
const cloudCli: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const words = site.args.filter((arg) => !arg.value.startsWith('-'));
  if (words.some((arg) => arg.dynamic)) {
    fx.opaque(`${site.program} is given a command built at run time`, site.program);
    return;
  }
  // aws: `aws SERVICE OPERATION`; gcloud and az: groups, then a verb, then names and flags' values.
  const values = words.map((arg) => arg.value);
  const verbs = site.program === 'aws' ? values.slice(1, 2) : values.filter((value) => CLOUD_READ_VERB.test(value) || CLOUD_CHANGE_VERB.test(value));
  const reads = verbs.length > 0 && verbs.every((verb) => CLOUD_READ_VERB.test(verb) && !CLOUD_CHANGE_VERB.test(verb)) && !site.args.some((arg) => /^--(?:outfile|output-file|log-file)/.test(arg.value));
  if (reads || (words[0]?.value === 'configure' && words[1]?.value === 'list') || (words[0]?.value === 'config' && words[1]?.value === 'list')) fx.network(site.program, `${site.program} cloud`);
  else fx.unknown([site.program, ...words.slice(0, 2).map((arg) => arg.value)].join(' '));
};

/** helm: the listings and renderings of charts and releases; installs, upgrades and deletes change the cluster. */
const HELM_READS = new Set(['list', 'ls', 'status', 'get', 'history', 'show', 'inspect', 'search', 'template', 'lint', 'version', 'env', 'verify', 'dependency', 'diff']);
const helm: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const words = site.args.filter((arg) => !arg.value.startsWith('-'));
  const [sub, action] = words.map((arg) => arg.value);
  const reads = (sub !== undefined && HELM_READS.has(sub) && !(sub === 'dependency' && action !== 'list')) || (sub === 'repo' && action === 'list') || (sub === 'plugin' && action === 'list');
  // `--post-renderer PROGRAM` runs a program on the rendered chart; a kubeconfig can name programs too.
  const parsed = parseArgv(site.args, { long: ['post-renderer', 'kubeconfig', 'post-renderer-args', 'output-dir'] });
  // `helm template . --output-dir out`: the rendered manifests, written below that folder.
  for (const folder of optionValues(parsed, '--output-dir')) fx.write('helm', everythingBelow(fx, folder));
  for (const program of optionValues(parsed, '--post-renderer')) fx.run([program, ...optionValues(parsed, '--post-renderer-args')]);
  for (const config of optionValues(parsed, '--kubeconfig')) if (mayBeAgentsFile(fx, config)) fx.opaque(`helm loads ${config.value}, a kubeconfig whose plugins it runs`, 'helm');
  if (words.some((arg) => arg.dynamic)) fx.opaque('helm is given a subcommand built at run time', 'helm');
  else if (reads) fx.network('helm', 'kubernetes cluster');
  else fx.unknown(sub === undefined ? 'helm' : `helm ${sub}`);
};

const container: ProgramHandler = (site, fx) => {
  const sub = site.args.find((arg) => !arg.value.startsWith('-'));
  if (!sub || onlyAsksVersion(site.args)) return;
  if (['ps', 'images', 'logs', 'inspect', 'version', 'info', 'stats', 'top', 'port', 'history', 'events', 'diff'].includes(sub.value)) return;
  // `docker save img -o app.tar`, `docker image save`, `docker export ctr -o x.tar`: an image's or a container's files, into the one
  // archive `-o` names (or the standard output); the engine's images and containers stay as they are.
  const verb = CONTAINER_GROUPS.has(sub.value) ? site.args.slice(site.args.indexOf(sub) + 1).find((arg) => !arg.value.startsWith('-')) : sub;
  if (verb !== undefined && !verb.dynamic && (verb.value === 'save' || verb.value === 'export') && (verb === sub || sub.value === 'image' || sub.value === 'container')) {
    for (const output of optionValues(parseArgv(site.args, { short: 'o', long: ['output'] }), '-o', '--output')) if (output.value !== '-') fx.write(site.program, output);
    return;
  }
  // `docker network ls`, `docker volume inspect x`, `docker system df`: a group's listings; its other verbs change things.
  if (CONTAINER_GROUPS.has(sub.value)) {
    const verb = site.args.slice(site.args.indexOf(sub) + 1).find((arg) => !arg.value.startsWith('-'));
    if (verb !== undefined && !verb.dynamic && CONTAINER_GROUP_READS.has(verb.value)) return;
  }
  // `docker compose ps`, `docker-compose -f dev.yml logs api`: reads, as their docker counterparts are.
  const composeArgs = site.program === 'docker-compose' ? site.args : sub.value === 'compose' ? site.args.slice(site.args.indexOf(sub) + 1) : undefined;
  if (composeArgs) {
    const parsed = parseArgv(composeArgs, COMPOSE_OPTIONS);
    const verb = composeArgs[parsed.rest];
    if (verb && !verb.dynamic && COMPOSE_READS.has(verb.value)) {
      for (const file of optionValues(parsed, '-f', '--file', '--env-file')) fx.read(site.program, file);
      return;
    }
    const spelled = [site.program === 'docker-compose' ? 'docker-compose' : `${site.program} compose`, verb?.value].filter(Boolean).join(' ');
    fx.opaque(`${spelled} runs or changes containers, which can write any path they mount`, site.program);
    return;
  }
  if (['pull', 'push', 'login', 'logout', 'search'].includes(sub.value)) {
    fx.network(site.program, sub.value === 'search' ? `${site.program} hub` : site.args[site.args.indexOf(sub) + 1]?.value ?? `${site.program} registry`);
    return;
  }
  if (sub.value === 'run' || sub.value === 'create') containerMounts(site, fx);
  fx.opaque(`${site.program} ${sub.value} runs or changes containers, which can write any path they mount`, site.program);
};

/**
 * The host folders a container is given (`-v ~/.claude:/c`, `--mount type=bind,src=…`): the
 * container may change anything below them, or read it with `:ro`/`readonly`. Named volumes are
 * the engine's own.
 */
function containerMounts(site: CommandSite, fx: ShellEffects): void {
  const args = site.args;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    const volume = text === '-v' || text === '--volume' ? args[++i] : text.startsWith('--volume=') ? sliceArg(args[i]!, 9) : /^-v./.test(text) ? sliceArg(args[i]!, 2) : undefined;
    const mount = text === '--mount' ? args[++i] : text.startsWith('--mount=') ? sliceArg(args[i]!, 8) : undefined;
    let source: Arg | undefined;
    let readOnly = false;
    if (volume !== undefined) {
      const parts = volume.value.split(':');
      source = sliceArgTo(volume, parts[0]!.length);
      readOnly = parts.length > 2 && parts[parts.length - 1]!.split(',').some((option) => option === 'ro' || option === 'readonly');
    } else if (mount !== undefined) {
      const fields = mount.value.split(',');
      if (!fields.some((field) => field === 'type=bind')) continue;
      const at = mount.value.search(/(?:^|,)(?:source|src)=/);
      if (at === -1) continue;
      const from = mount.value.indexOf('=', at) + 1;
      const end = mount.value.indexOf(',', from);
      source = sliceArgTo(sliceArg(mount, from), (end === -1 ? mount.value.length : end) - from);
      readOnly = fields.some((field) => field === 'readonly' || field === 'ro' || field === 'readonly=true' || field === 'ro=true');
    }
    if (source === undefined || !(source.dynamic || /^[/~.]/.test(source.value))) continue;
    if (readOnly) fx.readTree(site.program, source);
    else fx.write(site.program, everythingBelow(fx, source));
  }
}

/** The first `length` characters of an argument (`SRC` of `SRC:DST`). */
function sliceArgTo(arg: Arg, length: number): Arg {
  return { value: arg.value.slice(0, length), dynamic: arg.dynamic && (arg.unknownAt === -1 || arg.unknownAt < length), unknownAt: arg.unknownAt >= length ? -1 : arg.unknownAt };
}

/** gh's own commands (gh 2.x); any other name runs an alias or an extension. */
const GH_COMMANDS = new Set(['auth', 'browse', 'codespace', 'cs', 'gist', 'issue', 'org', 'pr', 'project', 'release', 'repo', 'cache', 'run', 'workflow', 'alias', 'api', 'attestation', 'completion', 'config', 'extension', 'extensions', 'ext', 'gpg-key', 'label', 'preview', 'ruleset', 'rs', 'search', 'secret', 'ssh-key', 'status', 'variable', 'agent-task', 'copilot', 'help', 'version', 'accessibility', 'a11y']);

const gh: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const [group, action] = site.args.map((arg) => arg.value);
  if (group === 'extension' && action === 'exec') fx.opaque('gh extension exec runs an extension', 'gh');
  // Any other first word is an alias (which may run a shell) or an installed extension (`gh co`, `gh dash`).
  if (site.program === 'gh' && group !== undefined && !group.startsWith('-') && !GH_COMMANDS.has(group)) fx.opaque(`gh ${group} runs an alias or an extension`, 'gh');
  if (group === 'alias' && action === 'set') fx.opaque('gh alias set defines a command that can run a shell', 'gh');
  // `gh config set browser 'cmd'`, `editor`, `pager`: saved, and run by later gh commands; an extension runs as `gh NAME`.
  if (group === 'config' && action === 'set') fx.write(site.program, configFile(fx, site.program === 'gh' ? '.config/gh/config.yml' : '.config/glab-cli/config.yml'));
  if (group === 'extension' && (action === 'install' || action === 'upgrade' || action === 'create')) fx.emit({ kind: 'package_install', manager: 'gh extension', program: 'gh' });
  fx.network(site.program, site.program === 'gh' ? 'github.com' : 'gitlab.com');
  if ((group === 'release' || group === 'run') && action === 'download') {
    // A release's assets land flat, named by the release (`-O FILE` names the one file); a run's
    // artifacts are unpacked, folders and all, as they were uploaded.
    const parsed = parseArgv(site.args.slice(2), { short: 'DOpnRA', long: ['dir', 'output', 'pattern', 'name', 'repo', 'archive'] });
    const directory = lastOptionValue(parsed, '-D', '--dir');
    const output = lastOptionValue(parsed, '-O', '--output');
    if (output !== undefined) {
      if (output.value !== '-') fx.write(site.program, output);
    } else if (group === 'run') fx.write(site.program, filesNamedByData(fx, directory));
    else {
      fx.write(site.program, filesIn(fx, directory === undefined ? undefined : fx.path(directory)));
    }
    return;
  }
  if ((group === 'repo' || group === 'gist') && action === 'clone') {
    // `gh repo clone OWNER/REPO [DIR] [-- GITFLAGS]` (and a gist): a new folder of whatever the repository holds, as `git clone`.
    const [repository, directory] = site.args.slice(2).filter((arg, i, rest) => !arg.value.startsWith('-') && !rest.slice(0, i).some((before) => before.value === '--'));
    if (directory) fx.write(site.program, filesNamedByData(fx, directory));
    else if (repository) fx.write(site.program, filesNamedByData(fx, { ...repository, value: baseName(repository.value).replace(/\.git$/, '') }));
  } else if ((group === 'pr' && action === 'checkout') || (group === 'repo' && action === 'sync')) fx.write(site.program, everythingBelow(fx));
};

/**
 * C and C++ compilers: they read their sources and write `-o FILE`, or by default `a.out` (`-c`:
 * `NAME.o`, `-S`: `NAME.s`) in the working directory; `-E`, `-fsyntax-only` and `-M`/`-MM`
 * (without `-MF`) only print. A plugin, a tool prefix, a wrapper or a specs file runs code of the
 * caller's choosing.
 */
const cCompiler: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  // `-MF FILE` writes the dependencies there; `-MT`/`-MQ` name a target. Taken out before the rest is parsed.
  const args: Arg[] = [];
  for (let i = 0; i < site.args.length; i++) {
    const word = site.args[i]!.value;
    const dependencyOption = /^-M[FTQ]/.exec(word)?.[0];
    if (dependencyOption === undefined) {
      args.push(site.args[i]!);
      continue;
    }
    const value = word.length > 3 ? { ...site.args[i]!, value: word.slice(3) } : site.args[++i];
    if (dependencyOption === '-MF' && value) fx.write(site.program, value);
  }
  const parsed = singleDashOptions(args, C_VALUE_OPTIONS, true);
  const words = args.map((arg) => arg.value);
  // Plugins, tool prefixes and wrappers, and the linker's or clang's own plugins (`-Wl,-plugin,x.so`, `-Xclang -load`).
  const loadsCode = words.find((word, i) => /^-(?:fplugin=|B|wrapper|specs=|-specs=|fplugin-arg|-ld-path=|fuse-ld=\/)/.test(word) || /^-Wl,.*plugin/.test(word) || ((word === '-Xlinker' || word === '-Xclang') && /plugin|^-load$/.test(words[i + 1] ?? '')));
  if (loadsCode !== undefined) fx.opaque(`${site.program} ${loadsCode} runs code of the caller's choosing`, site.program);
  // `@file` holds more options, `-save-temps`, `-aux-info FILE` and DEPENDENCIES_OUTPUT write files of their own.
  if (words.some((word) => word.startsWith('@'))) fx.opaque(`${site.program} reads more options from a file`, site.program);
  for (const info of [...(parsed.values.get('-aux-info') ?? []), ...(parsed.values.get('-MJ') ?? [])]) fx.write(site.program, info);
  // `-Wl,-Map=FILE`: the linker's map file; `-fdump-…`: dump files beside the output.
  for (const word of words) {
    const map = /^-Wl,.*-Map[=,]([^,]+)/.exec(word)?.[1];
    if (map !== undefined) fx.write(site.program, literalArg(map));
  }
  if (words.some((word) => word.startsWith('-fdump-'))) fx.write(site.program, everythingBelow(fx));
  if (words.some((word) => word.startsWith('-save-temps'))) fx.write(site.program, everythingBelow(fx));
  const sources = parsed.operands.filter((arg) => arg.value !== '-');
  for (const source of sources) fx.read(site.program, source);
  const output = parsed.values.get('-o')?.at(-1);
  if (output) {
    if (output.value !== '-') fx.write(site.program, output);
    return;
  }
  const onlyPrints = words.some((word) => /^-(?:E|fsyntax-only|M|MM|-version|v|dumpversion|dumpmachine|print-[\w-]+)$/.test(word));
  if (onlyPrints && !words.includes('-MD') && !words.includes('-MMD')) return;
  const suffix = words.includes('-c') ? '.o' : words.includes('-S') ? '.s' : undefined;
  if (suffix === undefined) fx.write(site.program, literalArg('a.out'));
  else for (const source of sources) fx.write(site.program, { ...source, value: `${baseName(source.value).replace(/\.[^.]*$/, '')}${suffix}` });
};

/**
 * javac writes class files under `-d DIR`, or next to each source. Annotation processors run code:
 * named ones (`-processor`, `-processorpath`, `--processor-module-path`), and any found on the
 * class path unless `-proc:none`; so do `-J` options and `@file` arguments, which hold more options.
 */
const javac: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = singleDashOptions(site.args, JAVAC_VALUE_OPTIONS, false);
  const words = site.args.map((arg) => arg.value);
  const code = words.find((word) => /^-(?:J|processorpath|-processor-path|-processor-module-path|processor$|Xplugin|agentlib|javaagent)|^@/.test(word));
  const classPath = [...(parsed.values.get('-cp') ?? []), ...(parsed.values.get('-classpath') ?? []), ...(parsed.values.get('--class-path') ?? [])];
  const processorsOff = words.includes('-proc:none');
  if (code !== undefined) fx.opaque(`javac ${code} runs code of the caller's choosing`, 'javac');
  else if (!processorsOff && classPath.some((entry) => entry.value.split(':').some((part) => part !== '' && (part.startsWith('/') || part.startsWith('..') || part.startsWith('~')) && !isWithin(fx.path(literalArg(part)).path, fx.projectRoot)))) {
    fx.opaque('javac runs the annotation processors on a class path from outside the project', 'javac');
  }
  const sources = parsed.operands.filter((arg) => !arg.value.startsWith('@'));
  for (const source of sources) fx.read('javac', source);
  for (const option of ['-d', '-s', '-h']) for (const folder of parsed.values.get(option) ?? []) fx.write('javac', everythingBelow(fx, folder));
  if (!parsed.values.has('-d')) for (const source of sources) fx.write('javac', { ...source, value: `${source.value.replace(/[^/]*$/, '')}*.class`, dynamic: true, unknownAt: -1 });
};

/** The options of gcc, clang and their kin that take the next word (single dash, never bundled: `-Wshadow` is one option). */
const C_VALUE_OPTIONS = new Set(['-MJ', '-o', '-I', '-D', '-U', '-L', '-l', '-x', '-B', '-T', '-e', '-include', '-imacros', '-isystem', '-iquote', '-idirafter', '-iprefix', '-isysroot', '--sysroot', '-aux-info', '-Xlinker', '-Xassembler', '-Xpreprocessor', '-Xclang', '-target', '-arch', '-MF', '-MT', '-MQ']);
/** javac's options that take the next word. */
const JAVAC_VALUE_OPTIONS = new Set(['-d', '-s', '-h', '-cp', '-classpath', '--class-path', '-sourcepath', '--source-path', '-encoding', '-source', '--source', '-target', '--target', '--release', '-processor', '-processorpath', '--processor-path', '--processor-module-path', '--module-path', '-p', '-bootclasspath', '--module', '-m', '--add-modules', '--limit-modules', '--add-exports', '--add-reads', '--patch-module', '--system', '-Xmaxerrs', '-Xmaxwarns', '--module-source-path', '--upgrade-module-path', '-implicit']);

/**
 * Options as compilers spell them: one dash, whole words, a value in the next word, or attached
 * to the one-letter ones where the compiler allows it (`attached`: gcc's `-oFILE`, `-Iinclude`;
 * not javac's `-deprecation`); everything else that starts with a dash is a flag. Operands are the rest.
 */
function singleDashOptions(args: readonly Arg[], takesValue: ReadonlySet<string>, attached: boolean): { readonly values: Map<string, Arg[]>; readonly operands: Arg[] } {
  const values = new Map<string, Arg[]>();
  const operands: Arg[] = [];
  const add = (name: string, value: Arg | undefined) => {
    if (value !== undefined) values.set(name, [...(values.get(name) ?? []), value]);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const word = arg.value;
    if (arg.dynamic || !word.startsWith('-') || word === '-') {
      operands.push(arg);
      continue;
    }
    if (word === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    if (eq !== -1 && takesValue.has(word.slice(0, eq))) add(word.slice(0, eq), { ...arg, value: word.slice(eq + 1) });
    else if (takesValue.has(word)) add(word, args[++i]);
    else if (attached && word.length > 2 && takesValue.has(word.slice(0, 2)) && !word.startsWith('--')) add(word.slice(0, 2), { ...arg, value: word.slice(2) });
  }
  return { values, operands };
}

/** rustc writes `-o FILE`, `--out-dir DIR`, `--emit KIND=PATH`, or the crate's outputs in the working directory; `-C linker=`/plugins run code. */
const rustc: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = parseArgv(site.args, { short: 'oLlCAWDFgOZ', long: ['out-dir', 'emit', 'crate-type', 'crate-name', 'edition', 'target', 'cfg', 'cap-lints', 'explain', 'print', 'sysroot', 'extern', 'codegen', 'error-format', 'json'] });
  const code = [...optionValues(parsed, '-C', '--codegen'), ...optionValues(parsed, '-Z')].find((option) => /linker|plugin|link-arg|llvm-args|pass|\//.test(option.value));
  if (code !== undefined || optionValues(parsed, '--sysroot').length > 0) fx.opaque(`rustc ${code?.value ?? '--sysroot'} runs code of the caller's choosing`, 'rustc');
  const sources = operandsOf(parsed, site);
  if (hasOption(parsed, '--explain') || (hasOption(parsed, '--print') && sources.length === 0)) return;
  // `--extern name=/tmp/libm.so`: a proc-macro library from elsewhere runs while compiling.
  for (const extern of optionValues(parsed, '--extern')) {
    const path = extern.value.slice(extern.value.indexOf('=') + 1);
    if (extern.value.includes('=') && (extern.dynamic || !isWithin(fx.path(literalArg(path)).path, fx.projectRoot))) fx.opaque(`rustc --extern ${extern.value} loads a library from outside the project`, 'rustc');
  }
  // `-C incremental=DIR`, `-C profile-generate=DIR`: folders it writes.
  for (const option of optionValues(parsed, '-C', '--codegen')) {
    const folder = /^(?:incremental|profile-generate)=(.+)$/.exec(option.value)?.[1];
    if (folder !== undefined) fx.write('rustc', everythingBelow(fx, literalArg(folder)));
  }
  for (const source of sources) if (source.value !== '-') fx.read('rustc', source);
  const output = lastOptionValue(parsed, '-o');
  const folder = lastOptionValue(parsed, '--out-dir');
  const emitted = optionValues(parsed, '--emit').flatMap((emit) => emit.value.split(',').flatMap((kind) => (kind.includes('=') ? [literalArg(kind.slice(kind.indexOf('=') + 1))] : [])));
  for (const path of emitted) if (path.value !== '-') fx.write('rustc', path);
  if (output) fx.write('rustc', output);
  else if (folder) fx.write('rustc', everythingBelow(fx, folder));
  else if (emitted.length === 0) fx.write('rustc', everythingBelow(fx));
};

/** dpkg's and rpm's queries only show what is installed (`dpkg -l`, `dpkg -L pkg`, `dpkg -S file`, `rpm -qa`); the rest install or remove. */
const packageQuery: ProgramHandler = (site, fx) => {
  const first = site.args[0];
  // `rpm -q --eval '%(cmd)'`, `--rcfile`, `--macros`: macros run shell commands.
  if (site.args.some((arg) => arg.dynamic || /^(?:--eval|-E|--rcfile|--macros|--define|-D|--pipe|--load)(?:=|$)/.test(arg.value))) {
    fx.opaque(`${site.program} runs macros or a pipe of the caller's choosing`, site.program);
    return;
  }
  if (site.program === 'dpkg-query' || (first !== undefined && !first.dynamic && PACKAGE_QUERY.test(first.value))) return;
  // `dpkg -x a.deb DIR`, `dpkg --build …`: dpkg hands its package-file actions to dpkg-deb.
  if (site.program === 'dpkg' && site.args.some((arg) => !arg.dynamic && arg.value !== '-R' && DPKG_DEB_ACTION.test(arg.value))) {
    dpkgDeb(site, fx);
    return;
  }
  manager(SYSTEM_MANAGER)(site, fx);
};
const PACKAGE_QUERY = /^(?:-[lLsSpcI]|--(?:list|listfiles|status|search|print-avail|contents|info|get-selections|print-architecture|compare-versions)|-q[a-zA-Z]*|--query|--verify|-V[a-zA-Z]*)$/;

export const DEV_PROGRAMS: readonly [string, ProgramEntry][] = [
  ...entries(cCompiler, 'gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'tcc', 'c99', 'c89'),
  ['javac', { handle: javac }],
  ['rustc', { handle: rustc }],
  ['git', { handle: git }],
  ['npm', { handle: manager({ actions: nodeManagerActions({ exec: 'dlx', x: 'dlx', start: 'script', stop: 'script', restart: 'script' }), options: NPM_OPTIONS }) }],
  ['pnpm', { handle: manager({ actions: nodeManagerActions({ exec: 'run', dlx: 'dlx', start: 'script' }), unknownIsScript: true, options: PNPM_OPTIONS }) }],
  ['yarn', { handle: manager({ actions: nodeManagerActions({ exec: 'run', dlx: 'dlx', start: 'script', workspace: 'run', workspaces: 'run' }), bare: 'install', unknownIsScript: true, options: YARN_OPTIONS }) }],
  ...entries(manager({ actions: PIP_ACTIONS, options: { short: 'r', long: ['requirement', 'index-url', 'target', 'prefix', 'python'] } }), 'pip', 'pip3', 'pipx-install'),
  ['uv', { handle: manager({ actions: { pip: 'install', add: 'install', remove: 'install', sync: 'install', lock: 'install', venv: 'write', init: 'write', run: 'run', tool: 'dlx', python: 'install', tree: 'read', export: 'read', version: 'read', build: 'write', publish: 'network', cache: 'read', self: 'install', format: 'write' } }) }],
  ['uvx', PACKAGE_RUNNER],
  ...entries(manager({ actions: { add: 'install', remove: 'install', install: 'install', update: 'install', lock: 'install', sync: 'install', uninstall: 'install', upgrade: 'install', inject: 'install', run: 'run', show: 'read', check: 'read', list: 'read', graph: 'read', build: 'write', publish: 'network', shell: 'run', env: 'read', init: 'write', new: 'write', test: 'test', config: 'read' } }), 'poetry', 'pipenv', 'pdm', 'hatch', 'rye', 'pipx'),
  ...entries(manager({ actions: { install: 'install', create: 'install', remove: 'install', update: 'install', uninstall: 'install', env: 'install', run: 'run', list: 'read', info: 'read', search: 'read' } }), 'conda', 'mamba', 'micromamba'),
  ...entries(manager(SYSTEM_MANAGER), 'apt', 'apt-get', 'aptitude', 'yum', 'dnf', 'zypper', 'apk', 'pacman', 'yay', 'port', 'snap', 'flatpak', 'nix-env', 'winget', 'choco', 'scoop', 'pkg', 'emerge'),
  ['brew', { handle: brew }],
  ...entries(packageQuery, 'rpm', 'dpkg', 'dpkg-query'),
  ...entries(manager({ actions: { install: 'install', uninstall: 'install', update: 'install', list: 'read', search: 'read', info: 'read', env: 'read', contents: 'read', which: 'read', build: 'write', push: 'network' } }), 'gem'),
  ['bundle', { handle: manager({ actions: { install: 'install', update: 'install', add: 'install', remove: 'install', lock: 'install', exec: 'run', list: 'read', show: 'read', check: 'read', outdated: 'read', info: 'read', config: 'read' }, bare: 'install' }) }],
  ['composer', { handle: manager({ actions: { install: 'install', require: 'install', update: 'install', remove: 'install', test: 'test', 'run-script': 'script', run: 'script', show: 'read', outdated: 'read', validate: 'read', exec: 'run' } }) }],
  ['cargo', { handle: subcommands({ install: 'install', add: 'install', remove: 'install', update: 'install', uninstall: 'install', fetch: 'install', test: 'test', nextest: 'test', bench: 'test', check: 'read', clippy: 'read', audit: 'read', tree: 'read', metadata: 'read', search: 'read', version: 'read', doc: 'write', fmt: 'write', fix: 'write', new: 'write', init: 'write', publish: 'network', login: 'network', run: 'opaque', build: 'write',
    // What a package is and where (`cargo info serde`, `pkgid`, `locate-project`, `read-manifest`), and checkers that report (`outdated`, `udeps`, like `check`).
    info: 'read', pkgid: 'read', 'locate-project': 'read', 'read-manifest': 'read', 'verify-project': 'read', outdated: 'read', udeps: 'read',
    // `cargo llvm-cov [test|nextest]` runs the tests under coverage; `report` prints it, `run` runs the program, `clean` removes it.
    'llvm-cov': 'test' }, { 'llvm-cov': { report: 'read', 'show-env': 'read', run: 'opaque', clean: 'write' } }) }],
  ['go', { handle: subcommands({ test: 'test', install: 'install', get: 'install', vet: 'read', list: 'read', env: 'read', version: 'read', doc: 'read', fmt: 'write', build: 'write', run: 'opaque', generate: 'opaque', tool: 'opaque', work: 'write', clean: 'write' }) }],
  ['dotnet', { handle: subcommands({ test: 'test', add: 'install', restore: 'install', remove: 'install', build: 'write', run: 'opaque', list: 'read', format: 'write', publish: 'write', pack: 'write', new: 'write', tool: 'install', 'nuget': 'network' }) }],
  // `mix credo` and `mix dialyzer` report what they find (dialyzer keeps its tables in the build folder, as `cargo check` does).
  ['mix', { handle: subcommands({ test: 'test', 'deps.get': 'install', 'deps.update': 'install', compile: 'write', format: 'write', run: 'opaque', 'hex.publish': 'network', credo: 'read', dialyzer: 'read' }) }],
  ['dune', { handle: subcommands({ test: 'test', runtest: 'test', build: 'write', exec: 'opaque', fmt: 'write', promote: 'write', clean: 'write', install: 'install', init: 'write', utop: 'opaque', describe: 'read', rules: 'read' }) }],
  ['rebar3', { handle: subcommands({ eunit: 'test', ct: 'test', proper: 'test', compile: 'write', shell: 'opaque', release: 'write', tar: 'write', clean: 'write', get: 'install', upgrade: 'install', tree: 'read', xref: 'read', dialyzer: 'read', lint: 'read' }) }],
  // Angular's `ng test`/`ng e2e` run the tests; `ng lint` is left a task: its builder's options in angular.json may fix.
  ['ng', { handle: subcommands({ test: 'test', t: 'test', e2e: 'test', e: 'test', build: 'write', b: 'write', serve: 'opaque', s: 'opaque', generate: 'write', g: 'write', new: 'write', add: 'install', update: 'install', version: 'read', v: 'read' }) }],
  ...entries(subcommands({ test: 'test', build: 'write', run: 'opaque', query: 'read', cquery: 'read', uquery: 'read', aquery: 'read', targets: 'read', audit: 'read', log: 'read', clean: 'write' }), 'buck2', 'buck'),
  // Pants' `lint` and `check` only report (its `fmt` and `fix` goals rewrite).
  ['pants', { handle: subcommands({ test: 'test', lint: 'read', check: 'read', list: 'read', peek: 'read', dependencies: 'read', dependents: 'read', filedeps: 'read', roots: 'read', paths: 'read', fmt: 'write', fix: 'write', tailor: 'write', 'update-build-files': 'write', 'generate-lockfiles': 'install', package: 'write', export: 'write', run: 'opaque', repl: 'opaque', publish: 'network' }) }],
  ...entries(subcommands({ test: 'test', build: 'write', run: 'opaque', pub: 'install', analyze: 'read', format: 'write', doctor: 'read' }), 'flutter', 'dart'),
  // `swift package describe` prints the package; `resolve`, `update`, `reset`, `edit` change its dependencies.
  ...entries(subcommands({ test: 'test', build: 'write', run: 'opaque', package: 'install' }, { package: { describe: 'read', 'show-dependencies': 'read', 'dump-package': 'read', 'show-executables': 'read', 'compute-checksum': 'read' } }), 'swift'),
  ...entries(workspaceTasks, 'turbo', 'nx', 'lerna'),
  ...entries(subcommands({ test: 'test', coverage: 'test', build: 'write', run: 'opaque', query: 'read', cquery: 'read', aquery: 'read', info: 'read', version: 'read', clean: 'write', fetch: 'install', sync: 'install', mod: 'install' }), 'bazel', 'bazelisk'),
  ['xcodebuild', { handle: (site, fx) => (site.args.some((arg) => /^(?:test|test-without-building)$/.test(arg.value)) ? runsTests(fx, 'xcodebuild', 'xcodebuild test', site.args) : site.args.some((arg) => /^-(?:list|showsdks|showBuildSettings|version|showdestinations)$/.test(arg.value)) ? undefined : fx.unknown('xcodebuild')) }],
  ...entries(subcommands({ test: 'test', build: 'write', run: 'opaque', install: 'install' }), 'stack', 'cabal', 'lein', 'sbt'),
  ['zig', { handle: zig }],
  ['cmake', { handle: cmake }],
  ['meson', { handle: subcommands({ test: 'test', setup: 'write', compile: 'write', configure: 'write', introspect: 'read', install: 'install', dist: 'write' }) }],
  ['kustomize', { handle: kustomize }],
  ...entries(taskRunner(/^(?:tests?|check|checks|test-[\w.-]+|check-[\w.-]+|unit|unittest|spec)$/, { short: 'CfjIloE', long: ['directory', 'file', 'makefile', 'include-dir', 'jobs', 'load-average', 'old-file', 'what-if', 'new-file', 'eval'] }, ['-n', '--dry-run', '--just-print', '--recon', '-q', '--question'], ['-E', '--eval']), 'make', 'gmake', 'bmake'),
  ...entries(taskRunner(TEST_GOALS, { short: 'fDPplbsSt', long: ['file', 'projects', 'activate-profiles', 'threads', 'settings', 'project-dir', 'build-file', 'settings-file', 'init-script', 'exclude-task', 'console'] }), 'mvn', 'mvnw'),
  // gradle's `--tests Pattern`, `-x task` and the report tasks' `--configuration NAME`, `--dependency NAME` take a value: `./gradlew test --tests FooTest` runs one test class.
  ...entries(taskRunner(GRADLE_TEST_TASKS, { short: 'DPpbIxg', long: ['project-dir', 'build-file', 'settings-file', 'init-script', 'exclude-task', 'console', 'tests', 'max-workers', 'warning-mode', 'priority', 'project-cache-dir', 'gradle-user-home', 'include-build', 'configuration', 'dependency', 'update-locks', 'write-verification-metadata'] }, ['-m', '--dry-run']), 'gradle', 'gradlew'),
  ...entries(taskRunner(/^(?:test|spec|tests|test:[\w:]+|spec:[\w:]+)$/, { short: 'fCI', long: ['rakefile', 'directory', 'libdir'] }), 'rake'),
  ['just', { handle: (site, fx) => (justOnlyShows(site.args) ? undefined : justOrTask(site, fx)) }],
  // `task --list` is left a task: go-task evaluates the Taskfile's `sh:` variables to list them.
  ['task', { handle: justOrTask }],
  ['rails', { handle: subcommands({ test: 'test', 'test:system': 'test', 'test:all': 'test', spec: 'test', routes: 'read', about: 'read', stats: 'read', notes: 'read', version: 'read' }) }],
  // Version managers: what is installed and in use; installing or switching changes the toolchain.
  ...entries(versionManager, 'rustup', 'nvm', 'pyenv', 'rbenv', 'asdf', 'mise', 'sdk', 'fnm', 'volta', 'nodenv', 'goenv', 'jenv'),
  ...entries(testRunner(), 'vitest', 'jest', 'mocha', 'ava', 'tap', 'tape', 'pytest', 'py.test', 'rspec', 'phpunit', 'pest', 'karma', 'jasmine', 'ctest', 'tox', 'nox', 'nosetests', 'nose2', 'behave', 'cucumber-js', 'cucumber', 'bats', 'busted', 'tsd', 'uvu', 'node-tap', 'testem', 'qunit', 'ward', 'trial', 'prove', 'gotestsum'),
  ['playwright', { handle: (site, fx) => (site.args[0]?.value === 'test' ? runsTests(fx, 'playwright', 'playwright test', site.args) : site.args[0]?.value === 'install' ? fx.emit({ kind: 'package_install', manager: 'playwright', program: 'playwright' }) : onlyAsksVersion(site.args) ? undefined : fx.unknown(`playwright ${site.args[0]?.value ?? ''}`.trim())) }],
  ['cypress', { handle: (site, fx) => (site.args[0]?.value === 'run' ? runsTests(fx, 'cypress', 'cypress run', site.args) : fx.unknown(`cypress ${site.args[0]?.value ?? ''}`.trim())) }],
  ...entries(((site, fx) => {
    const rest = parseArgv(site.args, { short: 'r', long: ['reporter', 'report-dir', 'temp-dir', 'include', 'exclude', 'extension'], stopAtOperand: true }).rest;
    writesOutputOptions(fx, site.program, site.args.slice(0, rest));
    fx.run(site.args.slice(rest), { stdinArgs: site.stdinArgs });
  }) as ProgramHandler, 'c8', 'nyc'),
  ['coverage', { handle: coveragePy }],
  ...entries(tsc, 'tsc', 'vue-tsc', 'tsgo'),
  ['eslint', { handle: eslint }],
  ['prettier', { handle: fixer(/^(?:--write|-w)$/, undefined, { short: 'o', long: ['config', 'ignore-path', 'parser', 'plugin', 'log-level', 'cache-location'] }) }],
  ['biome', { handle: fixer(/^(?:--write|--apply|--apply-unsafe|--fix)$/, undefined, { long: ['config-path', 'reporter'] }) }],
  ['ruff', { handle: (site, fx) => fixer(/^--fix$/, /^(?:--check|--diff)$/, { short: 'o', long: ['config', 'select', 'ignore', 'extend-select', 'output-format', 'output-file', 'target-version', 'line-length'] }, site.args[0]?.value === 'format')(site, fx) }],
  ...entries(fixer(/^$/, /^(?:--check|--check-only|--diff|-c|--dry-run)$/, { short: 'lSt', long: ['line-length', 'target-version', 'config', 'include', 'exclude', 'skip', 'profile', 'edition'] }, true), 'black', 'isort', 'rustfmt', 'autopep8-inplace'),
  ...entries(fixer(/^-[a-z]*w$/, undefined, { short: 'r' }), 'gofmt', 'goimports'),
  ...entries(fixer(/^-i$/, undefined, { long: ['style', 'assume-filename', 'lines', 'offset', 'length'] }), 'clang-format'),
  ...entries(fixer(/^--fix$/, undefined, { short: 'co', long: ['config', 'custom-syntax', 'formatter', 'output-file', 'ignore-path'] }), 'stylelint', 'markdownlint', 'markdownlint-cli2'),
  ['rubocop', { handle: fixer(/^(?:-a|-A|--autocorrect|--autocorrect-all|--auto-correct|--auto-correct-all|-x|--fix-layout)$/, undefined, { short: 'cfor', long: ['config', 'format', 'out', 'require', 'only', 'except', 'cache-root'] }) }],
  // cppcheck reads the sources; `--dump` writes a .dump file beside each one.
  ['cppcheck', { handle: fixer(/^--dump$/, undefined, { short: 'DUIij', long: ['output-file', 'cppcheck-build-dir', 'plist-output', 'enable', 'std', 'platform', 'suppress', 'suppressions-list', 'template', 'library', 'addon', 'project', 'file-list', 'includes-file', 'config-exclude'] }) }],
  ['terraform', { handle: terraform }],
  ...entries(cloudCli, 'aws', 'gcloud', 'az'),
  ['helm', { handle: helm }],
  ...entries(linter, 'mypy', 'pyright', 'pylint', 'flake8', 'pyflakes', 'pycodestyle', 'shellcheck', 'hadolint', 'yamllint', 'actionlint', 'tflint', 'golangci-lint', 'staticcheck', 'jsonlint', 'htmlhint', 'vale', 'cspell', 'codespell-check'),
  // Checkers that only report: type checkers, dead-code and dependency finders, security scanners.
  ...entries(linter, 'basedpyright', 'pydocstyle', 'vulture', 'radon', 'svelte-check', 'publint', 'attw', 'depcheck', 'commitlint', 'govulncheck', 'editorconfig-checker', 'ec', 'detekt', 'phpstan', 'ktlint-check'),
  // …and those that fix what they find when told to.
  ...entries(fixer(/^(?:--fix|--fix-dry-run=false|--write|-a|-A)$/, undefined, LINT_OPTIONS), 'oxlint', 'knip', 'standardrb', 'ktlint', 'next-lint'),
  ['psalm', { handle: fixer(/^--alter$/, undefined, LINT_OPTIONS) }],
  // php-cs-fixer's `fix` rewrites the files unless `--dry-run`; `check` is its dry run.
  ['php-cs-fixer', { handle: fixer(/^$/, /^(?:--dry-run|check)$/, { long: ['config', 'rules', 'format', 'path-mode', 'using-cache', 'cache-file', 'allow-risky', 'diff-format', 'show-progress', 'sequential'] }, true) }],
  ...entries(manifestValidator, 'kubeconform', 'kubeval'),
  ['type-coverage', { handle: checker({ options: { short: 'p', long: ['project', 'at-least', 'ignore-files', 'cache-directory', 'is', 'not-only-in-cwd', 'jsx-alias', 'history-file'] }, fixes: /^--(?:update|cache|history-file)/ }) }],
  ['safety', { handle: checker({ reports: new Set(['check', 'license', 'validate']), options: { short: 'rko', long: ['file', 'key', 'db', 'output', 'proxy-host', 'proxy-port', 'proxy-protocol', 'policy-file', 'save-json', 'save-html', 'ignore', 'audit-and-monitor'] }, writes: ['--save-json', '--save-html'], fixes: /^--apply-/ }) }],
  // `detect-secrets scan` prints a baseline; `--update FILE` rewrites it, and `audit` marks it interactively.
  ['detect-secrets', { handle: checker({ reports: new Set(['scan']), options: { short: 'cn', long: ['baseline', 'exclude-files', 'exclude-lines', 'exclude-secrets', 'word-list', 'plugin', 'filter', 'disable-plugin', 'disable-filter', 'base64-limit', 'hex-limit', 'keyword-exclude', 'custom-plugins'] }, writes: ['--update'], code: ['--plugin', '--custom-plugins', '--filter', '--update', '--baseline'], withoutOperands: 'tree' }) }],
  ['interrogate', { handle: checker({ options: { short: 'rwefgoc', long: ['ignore-regex', 'whitelist-regex', 'exclude', 'fail-under', 'generate-badge', 'output', 'config', 'badge-format', 'badge-style', 'color', 'omit-covered-files'] }, writes: ['-o', '--output', '-g', '--generate-badge'], withoutOperands: 'tree' }) }],
  ['trufflehog', { handle: trufflehog }],
  ['elm-test', { handle: elmTest }],
  ['shellspec', { handle: shellspec }],
  ['clang-tidy', { handle: fixer(/^--?fix(?:-errors|-notes)?$/, undefined, { long: ['export-fixes', 'config-file', 'checks', 'header-filter', 'p'] }) }],
  ['claude', { handle: claude }],
  ...entries(container, 'docker', 'podman', 'nerdctl', 'docker-compose', 'kubectl-exec'),
  ['pip-audit', { handle: pipAudit }],
  ...entries(gh, 'gh', 'glab'),
  ['gobby', { handle: gobby }],
  ['kubectl', { handle: kubectl }],
];

/** The names `yarn NAME` runs as a tool when the project has no script of that name (see isPackageTool). */
const PACKAGE_TOOLS: ReadonlySet<string> = new Set([...DEV_PROGRAMS.map(([program]) => program), ...PACKAGE_INTERPRETERS]);
