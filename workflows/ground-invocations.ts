// Checks that read a Bash command's invocations as argv, where an effect alone does not say
// enough: gobby's human-only commands however they are spelled, a second name made with `ln`,
// `git clean`/`git stash -u` sweeping untracked files, a program gobby does not know handed one
// of its files, and paths only known at run time that another program of the command found.
import type { GuardDenial, ProtectedGround } from './guards.js';
import { secretDenial } from './ground-denials.js';
import { mayList, searchesByContent, type GroundTexts } from './ground-listers.js';
import { globMatches, globReaches, holdsProtected, isBelow, isGlob, isProtected, segmentMatches } from './ground-paths.js';
import type { PathRef, ShellAnalysis, ShellEffect, ShellInvocation } from './shell/index.js';
import { negated } from './shell/argv.js';
import { dirName, resolveAgainst } from './shell/paths.js';
import { ASKS_FOR_DOT_NAMES, starForGlobStar } from './shell/glob-text.js';
import { FIND_PROGRAMS } from './find-selection.js';

/**
 * A path only known at run time (`cat $(ls -d ~/.gob*)/token`, `find ~/.gobby | xargs cat`,
 * `` cp `find / -name token` /tmp ``) comes from another program of the same command: when that
 * program looks where the token is, the path may well be the token.
 */
export function runTimePathFromGround(shell: ShellAnalysis, ground: ProtectedGround): GuardDenial | null {
  const readsOne = usesPathsFoundAtRunTime(shell);
  // Changed at run time (`ls .claude/*.json | xargs rm`, `echo .claude/settings.local.json | xargs
  // -I{} cp /dev/null {}`): refused when another program of the command names one of gobby's files.
  const changesOne = changesPathsFoundAtRunTime(shell);
  if (!readsOne && !changesOne) return null;
  const naming = changesOne ? shell.invocations.find((invocation) => namesProtected(invocation, ground))?.program : undefined;
  // Or when a file the command reads names one (`xargs rm < /tmp/list`, `rm $(cat /tmp/list)`).
  const listing = changesOne && naming === undefined ? fileNaming(shell, ground, (path) => isProtected(path, ground) || (ground.protectedFolders ?? []).includes(path) || holdsGroundFolder(path, ground)) : undefined;
  if (naming !== undefined || listing !== undefined) {
    return {
      kind: 'protected-file',
      reason:
        `gobby: this command changes paths it finds at run time, and ${naming !== undefined ? `\`${naming}\` gives it` : `the file it reads, ${listing}, names`} one of gobby's own files (its state, its workflows, ` +
        'or the Claude Code settings that install its hooks). Name the files to change instead; ask the user if one of gobby\'s needs changing.',
      because: 'guard: protected file',
    };
  }
  const listingSecret = readsOne ? fileNaming(shell, ground, (path) => ground.secretFiles.some((secret) => path === secret || secret.startsWith(`${path}/`))) : undefined;
  if (listingSecret !== undefined) {
    return {
      kind: 'secret',
      reason: `gobby: this command uses paths it finds at run time, and the file it reads, ${listingSecret}, names gobby's control token or its folder; the agent may not read the token. Name the files you need instead.`,
      because: 'guard: secret file',
    };
  }
  for (const secret of readsOne ? ground.secretFiles : []) {
    const invocation = shell.invocations.find((candidate) => looksWhereItIs(candidate, secret, ground.groundTexts));
    if (invocation) {
      return {
        kind: 'secret',
        reason:
          `gobby: this command uses paths it finds at run time with \`${invocation.program}\`, which looks where gobby's control token is (${secret}); ` +
          'the agent may not read the token. Name the files you need instead.',
        because: 'guard: secret file',
      };
    }
  }
  return null;
}

/** Not a glob (those are placed): a path whose text starts or goes on with what only the run gives. */
function foundAtRunTime(path: PathRef): boolean {
  return path.dynamic && (!path.path.startsWith('/') || /[$`]/.test(path.path));
}

/**
 * Whether the command reads or changes a path only known at run time (`… | xargs cat`, `rm $(…)`).
 * The daemon then reads the files it reads before judging it (ProtectedGround.readTexts): the
 * paths may be their words (`xargs rm < /tmp/list`, `while read f; do rm "$f"; done < /tmp/list`).
 */
export function usesPathsFoundAtRunTime(shell: ShellAnalysis): boolean {
  return shell.effects.some((effect) =>
    effect.kind === 'read' || effect.kind === 'write' || effect.kind === 'delete'
      ? foundAtRunTime(effect.path)
      : effect.kind === 'copy' || effect.kind === 'move'
        ? foundAtRunTime(effect.from)
        : // `kill $(cat /tmp/p)`, `xargs kill < /tmp/p`: pids the files it reads may hold.
          effect.kind === 'signal' && signalsPidFoundAtRunTime(effect),
  );
}

/** A signal to a pid that is not a number as written (`kill $(cat /tmp/p)`, `xargs kill`). */
export function signalsPidFoundAtRunTime(effect: Extract<ShellEffect, { kind: 'signal' }>): boolean {
  return effect.by === 'pid' && !/^[+-]?\d+$/.test(effect.target.trim());
}

/** The first file the command reads (as the daemon read it) that holds `pid` as a word of its own. */
export function fileHoldingPid(ground: ProtectedGround, pid: number): string | undefined {
  const texts = ground.readTexts;
  if (texts === undefined) return undefined;
  const word = new RegExp(`(?:^|[^\\w.])0*${pid}(?![\\w.])`);
  return Object.keys(texts).find((file) => word.test(texts[file]!));
}

/** The first file the command reads (as the daemon read it) one of whose words, as a path from where the command runs, `names`. */
function fileNaming(shell: ShellAnalysis, ground: ProtectedGround, names: (path: string) => boolean): string | undefined {
  const texts = ground.readTexts;
  if (texts === undefined) return undefined;
  const cwd = shell.invocations[0]?.cwd ?? '/';
  for (const [file, text] of Object.entries(texts)) {
    for (const word of text.split(/[\s\0]+/)) {
      const path = word.replace(/^(['"])(.*)\1$/, '$2');
      if (path !== '' && path.length <= MAX_LISTED_PATH && names(resolveAgainst(cwd, path))) return file;
    }
  }
  return undefined;
}

/** Longer words of a list are no path (PATH_MAX). */
const MAX_LISTED_PATH = 4096;

/**
 * A folder above gobby's files that a list may name for a recursive delete (the project, the home,
 * `.claude`); not `/` or a folder right below it, which prose holds as a word (`and / or`).
 */
function holdsGroundFolder(path: string, ground: ProtectedGround): boolean {
  return path.lastIndexOf('/') > 0 && holdsProtected(path, ground);
}

/** Whether the command writes, deletes, copies onto or moves a path only known at run time (`… | xargs rm`). */
function changesPathsFoundAtRunTime(shell: ShellAnalysis): boolean {
  return shell.effects.some((effect) =>
    effect.kind === 'write' || effect.kind === 'delete' ? foundAtRunTime(effect.path) : (effect.kind === 'copy' && foundAtRunTime(effect.to)) || (effect.kind === 'move' && (foundAtRunTime(effect.from) || foundAtRunTime(effect.to))),
  );
}

/**
 * Whether judging the command needs the text of gobby's files (ProtectedGround.groundTexts): it
 * changes paths found at run time, and a search by content may have found them (`grep -rl x . |
 * xargs sed -i …`). The daemon reads them only then.
 */
export function needsGroundTexts(shell: ShellAnalysis): boolean {
  // The effects first: most commands change no path found at run time, and then no program's options are read.
  return changesPathsFoundAtRunTime(shell) && shell.invocations.some(searchesByContent);
}

/**
 * The folder a git pathspec sweeps: its path up to the first wildcard, from the working directory,
 * or from the repository's top with `:/` or `:(top)`; with magic (`:(glob)**`, `:(icase)x`) the
 * pattern may match anything below that folder.
 */
function pathspecTree(pathspec: string, cwd: string, repository: () => string | undefined): string {
  const magic = /^:(?:\(([^)]*)\)|([/]*))/.exec(pathspec);
  if (magic === null) return resolveAgainst(cwd, pathspec);
  const words = (magic[1] ?? '').split(',');
  const top = magic[2]?.includes('/') === true || words.includes('top');
  const pattern = pathspec.slice(magic[0].length);
  const literal = words.includes('literal') ? pattern : pattern.slice(0, pattern.search(/[*?[]|$/));
  const base = top ? (repository() ?? cwd) : cwd;
  // `icase` matches any case: only the folder it starts from is sure. A wildcard leaves the folder before it.
  const fixed = words.includes('icase') ? '' : literal === pattern ? pattern : literal.slice(0, literal.lastIndexOf('/') + 1);
  return resolveAgainst(base, fixed === '' ? '.' : fixed);
}

/** Whether an invocation's arguments name one of gobby's files or a folder that holds them, by path or glob. */
function namesProtected(invocation: ShellInvocation, ground: ProtectedGround): boolean {
  // `which gobby` prints where its launcher is (`rm $(which gobby)`, `rm -rf $(dirname $(which gobby))`).
  if (COMMAND_LOCATORS.has(invocation.program) && invocation.args.includes('gobby')) return true;
  if (listsGround(invocation, ground)) return true;
  // find's words after its start paths are its expression, not paths: what it lists is asked above.
  if (FIND_PROGRAMS.has(invocation.program)) return false;
  return invocation.args.some((arg) => {
    if (arg.startsWith('-') || /[$`]/.test(arg)) return false;
    const path = resolveAgainst(invocation.cwd, arg);
    return isProtected(path, ground) || (ground.protectedFolders ?? []).includes(path) || (isGlob(path) && globReaches(path, ground, false));
  });
}

/**
 * Whether a program that prints paths it finds (`find`, `du -a`, `git ls-files`, `grep -rl`, `ls
 * -A`…) may print one of gobby's files or a folder that holds them (workflows/ground-listers.ts).
 */
function listsGround(invocation: ShellInvocation, ground: ProtectedGround): boolean {
  const targets = [...(ground.protectedPaths ?? []), ...(ground.protectedFolders ?? []), ...(ground.filesInside ?? [])];
  return targets.some((target) => mayList(invocation, target, ground.groundTexts));
}

/** Programs that print where a command's file is. */
const COMMAND_LOCATORS = new Set(['which', 'whereis', 'type', 'command', 'hash']);

/** Whether an invocation names `file` or its folder (by path or glob), or is a listing that may print it. */
function looksWhereItIs(invocation: ShellInvocation, file: string, texts: GroundTexts | undefined): boolean {
  const folder = file.slice(0, file.lastIndexOf('/')) || '/';
  const paths = invocation.args.filter((arg) => !arg.startsWith('-') && !/[$`]/.test(arg)).map((arg) => resolveAgainst(invocation.cwd, arg));
  if (paths.some((path) => path === folder || isBelow(path, folder) || (isGlob(path) && (globMatches(path, folder) || globMatches(path, file))))) return true;
  return mayList(invocation, file, texts);
}

/**
 * Package managers' subcommands that remove a package (`npm uninstall -g gobby`, `pipx uninstall
 * gobby`), or put another version in its place (`npm i -g gobby@0.0.1`).
 */
const REMOVES_PACKAGE: Readonly<Record<string, readonly string[]>> = {
  npm: ['uninstall', 'remove', 'rm', 'r', 'un', 'unlink', 'install', 'i', 'add', 'link', 'ln'],
  pnpm: ['remove', 'rm', 'uninstall', 'un', 'unlink', 'install', 'i', 'add', 'link'],
  yarn: ['remove', 'unlink', 'add', 'link'],
  bun: ['remove', 'rm', 'unlink', 'install', 'i', 'add', 'link'],
  volta: ['uninstall', 'install'],
  pip: ['uninstall'],
  pip3: ['uninstall'],
  pipx: ['uninstall'],
  brew: ['uninstall', 'remove', 'rm', 'unlink'],
};
/** Subcommands that put a package in place: they count for gobby only when global (a project's own gobby is the project's). */
const INSTALLS = new Set(['install', 'i', 'add', 'link', 'ln']);
const GOBBY_PACKAGE = /^(?:@[^/]+\/)?gobby(?:@.*)?$/;
/** A package spec that is no registry name: a folder, a tarball, a repository (`./x`, `/tmp/x`, `file:x`, `x.tgz`, `git+https://…`, `user/repo`). */
const NAMED_BY_ITS_OWN_MANIFEST = /^(?:[./~]|file:|git[+:]|github:|gitlab:|bitbucket:|https?:)|\.t(?:ar\.)?gz$|^[^@./][^/]*\/[^/]+$/;
/** gobby's command line run by its script: `node …/dist/daemon/cli/main.js`, also `cli//main.js`, `cli/./main`, without the extension. */
const CLI_SCRIPT = /(?:^|\/)daemon\/cli\/(?:main|program)(?:\.[cm]?[jt]s)?$/;
/** Subcommands of `gobby workflow` that only a human may run. */
const HUMAN_ONLY_WORKFLOW = ['phase', 'reset', 'disable', 'enable', 'clear', 'set'];

/** The human-only gobby command an invocation runs, spelled as argv, or null. */
export function overrideCommandOf(invocation: ShellInvocation): string | null {
  const program = invocation.program.split('/').pop() ?? '';
  // Removing gobby's package takes its hooks' command away: the same as `gobby uninstall`.
  const removal = REMOVES_PACKAGE[program];
  if (removal) {
    const words = invocation.args.filter((arg) => !arg.startsWith('-'));
    // `yarn global remove gobby`
    if (words[0] === 'global') words.shift();
    const global = invocation.args.some((arg) => /^(?:-g|--global|--location=global)$/.test(arg)) || invocation.args[0] === 'global' || program === 'volta';
    const sub = words[0] ?? '';
    // Installed globally from a folder, a tarball or a repository, a package's name is whatever its package.json says: it may be gobby.
    const applies = removal.includes(sub) && (!INSTALLS.has(sub) || global);
    if (applies && words.slice(1).some((word) => GOBBY_PACKAGE.test(word))) return `${program} ${sub} gobby`;
    const unnamed = applies && INSTALLS.has(sub) ? words.slice(1).find((word) => NAMED_BY_ITS_OWN_MANIFEST.test(word)) : undefined;
    return unnamed === undefined ? null : `${program} ${sub} -g ${unnamed} (a package whose name only its manifest gives, which may be gobby)`;
  }
  let argv: readonly string[] | undefined;
  // `~/.local/bin/gob* workflow reset`: a glob that finds gobby runs it.
  if (program === 'gobby' || (/[*?[]/.test(program) && segmentMatches(program, 'gobby'))) argv = invocation.args;
  else {
    const script = invocation.args.findIndex((arg) => CLI_SCRIPT.test(resolveAgainst(invocation.cwd, arg)));
    if (script >= 0) argv = invocation.args.slice(script + 1);
    // A program named at run time (`g=$(ls -d ~/.npm-global/bin/gob*); $g workflow reset`) given a human-only subcommand.
    else if (invocation.nameAtRunTime === true) argv = invocation.args;
  }
  if (!argv) return null;
  // `gobby workflow phase --help` prints the help and runs nothing: only where nothing before it is
  // an option, which could take `--help` as its value (`gobby uninstall --project --help` uninstalls).
  const help = argv.indexOf('--help');
  if (help !== -1 && argv.slice(0, help).every((arg) => !arg.startsWith('-'))) return null;
  // Only gobby's own words count for a program named at run time (`$PM install` is not gobby's install).
  const surelyGobby = invocation.nameAtRunTime !== true || program === 'gobby';
  const words = argv.filter((arg) => !arg.startsWith('-'));
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    if (surelyGobby && (word === 'install' || word === 'uninstall' || word === 'setup')) return `gobby ${word}`;
    if (word === 'workflow' && next && HUMAN_ONLY_WORKFLOW.includes(next)) return `gobby workflow ${next}`;
    if (word === 'daemon' && (next === 'stop' || next === 'start' || next === 'restart')) return `gobby daemon ${next}`;
    // `gobby hook EVENT` is the client Claude Code's hooks run: from the agent's tools, a forged event.
    if (surelyGobby && word === 'hook' && i === 0) return 'gobby hook';
  }
  return null;
}

/**
 * A program gobby does not know (`sponge`, `7z`, an editor, `python3 -m http.server --directory`)
 * given one of gobby's files, or a folder that holds them (`.claude/`, `~/.gobby`), as an
 * argument: what it does with it cannot be told, and writing it is as likely as reading it. The
 * project or the home as a whole does not count (`cloc .`, `code .`): that is ordinary work.
 */
export function unknownProgramGivenGround(invocation: ShellInvocation, ground: ProtectedGround): GuardDenial | null {
  // A glob it is given, it most likely expands as glob libraries do, without dot names
  // (starForGlobStar), unless it is asked for them (`--dot`) or the glob names a file outright.
  const libraryGlobs = !invocation.args.some((arg) => ASKS_FOR_DOT_NAMES.test(arg));
  const asExpanded = (path: string): string => (libraryGlobs && /[*?[]/.test(path.slice(path.lastIndexOf('/') + 1)) ? starForGlobStar(path) : path);
  for (const arg of invocation.args) {
    // `--file=.claude/settings.json` names the file too, and so does a short option's attached path (`-f.claude/settings.json`).
    const value = arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : /^-[A-Za-z][./~]/.test(arg) ? arg.slice(2) : arg;
    if (value === '' || value.startsWith('-')) continue;
    const path = resolveAgainst(invocation.cwd, value);
    if (ground.secretFiles.includes(path)) return secretDenial(path);
    if (isProtected(path, ground) || (ground.protectedFolders ?? []).includes(path) || (isGlob(path) && globReaches(asExpanded(path), ground, true))) {
      return {
        kind: 'protected-file',
        reason:
          `gobby: \`${invocation.program}\` is a program gobby does not know, and it is given ${path}, one of gobby's own files (its state, ` +
          'its workflows, or the Claude Code settings that install its hooks), which it could change. `cat` and the Read tool read them; ask the user if one needs changing.',
        because: 'guard: protected file given to an unknown program',
      };
    }
  }
  return null;
}

/** git's options before the subcommand that take a value as the next word. */
const GIT_GLOBAL_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix']);

/**
 * `git clean` and `git stash -u`/`-a` delete the untracked files of what they sweep, and gobby's
 * hooks are in one: `.claude/settings.local.json` is untracked in most projects (as may be a
 * new `.gobby/workflows/` file). Refused when the sweep reaches one of gobby's files, unless the
 * command leaves it out (`git clean -fdx -e .claude`, `git stash -u -- ':!.claude'`).
 */
export function sweepsUntrackedGround(invocation: ShellInvocation, ground: ProtectedGround): GuardDenial | null {
  if (invocation.program.slice(invocation.program.lastIndexOf('/') + 1) !== 'git') return null;
  const args = invocation.args;
  let cwd = invocation.cwd;
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    if (args[i] === '-C' && args[i + 1] !== undefined) cwd = resolveAgainst(cwd, args[i + 1]!);
    if (GIT_GLOBAL_VALUE_OPTIONS.has(args[i]!)) i++;
  }
  const sub = args[i];
  let rest = args.slice(i + 1);
  // `git clean -h`: the usage, nothing swept.
  if (rest.length === 1 && (rest[0] === '-h' || rest[0] === '--help')) return null;
  if (sub === 'stash' && (rest[0] === 'push' || rest[0] === 'save')) rest = rest.slice(1);
  const dashDash = rest.indexOf('--');
  const options = dashDash === -1 ? rest : rest.slice(0, dashDash);
  const has = (short: string, ...long: string[]) => options.some((arg) => long.includes(arg) || (/^-[^-]/.test(arg) && arg.slice(1).includes(short)));
  // `--no-dry-run` (or a shortening, `--no-d`) undoes `-n`.
  const dryRun = has('n', '--dry-run') && !negated(options, 'dry-run');
  if (sub === 'clean' ? dryRun : sub !== 'stash' || (!has('u', '--include-untracked') && !has('a', '--all'))) return null;
  // Without a pathspec clean sweeps the directory it runs in, and stash the whole repository: taken
  // to be the project that holds the nearest of the folders with gobby's files.
  const repository = (ground.protectedFolders ?? []).map((folder) => folder.slice(0, folder.lastIndexOf('/')) || '/').filter((root) => cwd === root || isBelow(cwd, root)).sort((a, b) => b.length - a.length)[0];
  // Operands: pathspecs (`:!x` leaves x out) and, for clean, -e patterns that leave paths out.
  const pathspecs: string[] = [];
  const excluded: string[] = [];
  for (let j = 0; j < rest.length; j++) {
    const arg = rest[j]!;
    const afterDashDash = dashDash !== -1 && j > dashDash;
    if (!afterDashDash && (arg === '-e' || arg === '--exclude') && sub === 'clean') excluded.push(rest[++j] ?? '');
    else if (!afterDashDash && sub === 'clean' && /^(?:-e|--exclude=)./.test(arg)) excluded.push(arg.replace(/^(?:-e|--exclude=)/, ''));
    else if (!afterDashDash && (arg === '-m' || arg === '--message') && sub === 'stash') j++;
    else if (arg === '--' || (!afterDashDash && arg.startsWith('-'))) continue;
    else if (/^:(?:!|\^|\((?:[^)]*,)?exclude\b)/.test(arg)) excluded.push(arg.replace(/^:(?:[!^]|\([^)]*\))/, ''));
    else pathspecs.push(pathspecTree(arg, cwd, () => repository));
  }
  const trees = pathspecs.length > 0 ? pathspecs : sub === 'clean' ? [cwd] : repository ? [repository] : [];
  const leftOut = (path: string, tree: string) => {
    const top = path.slice(tree === '/' ? 1 : tree.length + 1).split('/')[0]!;
    return excluded.some((pattern) => {
      const first = pattern.replace(/^\/+/, '').split('/')[0]!;
      return first !== '' && segmentMatches(first, top);
    });
  };
  for (const tree of trees) {
    const reached = (ground.protectedPaths ?? []).find((path) => (path === tree || isBelow(path, tree)) && !leftOut(path, tree));
    if (reached) {
      return {
        kind: 'protected-file',
        reason:
          `gobby: \`git ${sub}\` would delete the untracked files in ${tree}, and ${reached} is one of gobby's own files (its state, its workflows, ` +
          `or the Claude Code settings that install its hooks). Leave it out (${sub === 'clean' ? '`git clean … -e .claude -e .gobby`' : "`git stash -u -- ':!.claude' ':!.gobby'`"}) or name the paths to sweep.`,
        because: 'guard: untracked sweep of a protected file',
      };
    }
  }
  return null;
}

/**
 * `ln [-s] FILE… [LINK]`: a second name for one of gobby's files (or a folder holding them)
 * lets a later write change it under a name gobby does not protect (`ln -s .claude/settings.json x
 * && echo {} > x`), so making one is refused like the write.
 */
export function linkToGround(invocation: ShellInvocation, ground: ProtectedGround): GuardDenial | null {
  const program = invocation.program.slice(invocation.program.lastIndexOf('/') + 1);
  // `cp -s` and `cp -l` (`-al`) make links instead of copies.
  const copiesAsLinks = program === 'cp' && invocation.args.some((arg) => arg === '--symbolic-link' || arg === '--link' || /^-[a-zA-Z]*[sl]/.test(arg));
  if (program !== 'ln' && program !== 'link' && !copiesAsLinks) return null;
  const operands: string[] = [];
  let intoFolder = false;
  let folder: string | undefined;
  let symbolic = false;
  for (let i = 0; i < invocation.args.length; i++) {
    const arg = invocation.args[i]!;
    if (arg === '-t' || arg === '--target-directory') {
      intoFolder = true;
      folder = invocation.args[++i];
    } else if (arg.startsWith('--target-directory=')) {
      intoFolder = true;
      folder = arg.slice('--target-directory='.length);
    } else if (arg === '--symbolic') symbolic = true;
    else if (/^-[^-]/.test(arg)) {
      // A cluster of short options: `-sf`, `-st src`, `-tsrc` (what follows t is its folder).
      const t = arg.indexOf('t');
      if ((t === -1 ? arg.slice(1) : arg.slice(1, t)).includes('s')) symbolic = true;
      if (t !== -1) {
        intoFolder = true;
        folder = t + 1 < arg.length ? arg.slice(t + 1) : invocation.args[++i];
      }
    }
    else if (arg === '--') {
      operands.push(...invocation.args.slice(i + 1));
      break;
    } else if (!arg.startsWith('-')) operands.push(arg);
  }
  // The last operand names the link, unless there is one operand or a -t folder.
  const files = intoFolder || operands.length === 1 ? operands : operands.slice(0, -1);
  // A relative symbolic link's target is read from the link's folder, not from where ln ran
  // (`ln -s ../.claude/settings.json src/l`): the link's name may be a file or a folder it goes into.
  const linkPlace = intoFolder ? folder : operands.length > 1 ? operands[operands.length - 1] : undefined;
  const bases = [invocation.cwd];
  if (symbolic && linkPlace !== undefined) {
    const place = resolveAgainst(invocation.cwd, linkPlace);
    bases.push(place, dirName(place));
  }
  // A link to a folder that holds gobby's files among the user's is refused too (`ln -s ~ /tmp/h`):
  // a named path through it is resolved, but a walk that follows links (`grep -R`, `find -L`,
  // `tar -h`, `cp -rL`) meets it inside a tree and reaches what is behind it.
  for (const file of files) {
    const path = bases.map((base) => resolveAgainst(base, file)).find((target) => isProtected(target, ground) || holdsProtected(target, ground) || (isGlob(target) && globReaches(target, ground, true)));
    if (path !== undefined) {
      return {
        kind: 'protected-file',
        reason:
          `gobby: \`${program}\` would give ${path}, one of gobby's own files (its state, its workflows, or the Claude Code settings ` +
          'that install its hooks), a second name through which it could be changed. Ask the user if it needs changing.',
        because: 'guard: link to a protected file',
      };
    }
  }
  return null;
}
