// The shell classifier's public vocabulary: what a Bash command does, as data the engine's
// guards and conditions can read. Everything here describes effects; nothing runs.

export interface ShellContext {
  /** Absolute: the session's working directory, where relative paths start. */
  readonly cwd: string;
  /** The user's home directory, for `~`, `$HOME` and `${HOME}`. */
  readonly home: string;
  /** Absolute: the project's root. */
  readonly projectRoot: string;
  /** gobby's home, for `$GOBBY_HOME` and `${GOBBY_HOME}` (the agent's shell inherits the user's). */
  readonly gobbyHome?: string | undefined;
  /**
   * For a script file the daemon reads: `$0` (the file's path) and `$1`… (the words it was run
   * with; null where a word is only known at run time), also `$BASH_SOURCE`. Without it, they are
   * only known at run time.
   */
  readonly scriptParameters?: readonly (string | null)[] | undefined;
}

/**
 * A file or directory a command touches. `path` is absolute and normalised when `dynamic` is
 * false. When `dynamic` is true the path is only known at run time (`$VAR`, `$(…)`, a glob, a
 * directory changed by a `cd` that may not have run, operands fed by `xargs`): `path` then holds
 * the best static rendering (known parts resolved, the rest as written) and a policy must treat
 * it as "could be anywhere", unless what is unknown is only a glob or "anything below" in a fixed
 * folder (`/tmp/t/**`) and `unplaced` is not set.
 */
export interface PathRef {
  readonly path: string;
  readonly dynamic: boolean;
  /** A relative path under a working directory only known at run time: `path` places it in the last one known. */
  readonly unplaced?: true;
  /**
   * For an `unplaced` path: the same path from the other folders the shell may be in, when each
   * way the command may have gone led to a known one (`if …; then cd ~/.gobby; fi; cat token`).
   */
  readonly elsewhere?: readonly string[];
  /** Folders a search behind a glob path keeps out of (`find . -path ./.gobby -prune -o …`): nothing in them is named. */
  readonly except?: readonly string[];
  /** For `<folder>/**`: the search leaves out names that start with a dot below the folder (`rg`, `ag` without `--hidden`). */
  readonly skipsDotNames?: true;
  /**
   * For `<folder>/**` written to: which files change is decided by data the command reads (an
   * archive's members, a folder's contents copied in), not by the program, so any name may land there.
   */
  readonly namedByData?: true;
  /**
   * Written by a change of mode, owner or ACL that may take the owner's own access away (`chmod
   * 000`, `chmod -R 644`, `chown`): in a folder above gobby's files, it reaches them too, as
   * nothing below can be opened once the folder cannot be searched.
   */
  readonly takesAccess?: true;
  /**
   * The path as written, made absolute, with its `..` kept (`/tmp/l/../a.ts`): the kernel takes
   * `..` from where a symbolic link on the way points, not from the name, so `path` is only the
   * likeliest place. Set only when a `..` follows a named folder; the daemon resolves this one.
   */
  readonly climbs?: string;
}

/** How a signal picks its processes: `pattern` is a regular expression over names or command lines (`pkill`, `killall -r`). */
export type SignalTarget = 'pid' | 'name' | 'pattern' | 'port' | 'job';

export type ShellEffect =
  | { readonly kind: 'read'; readonly path: PathRef; readonly program: string }
  /** Create, modify, truncate, append, chmod, link… */
  | { readonly kind: 'write'; readonly path: PathRef; readonly program: string }
  | { readonly kind: 'delete'; readonly path: PathRef; readonly program: string }
  | { readonly kind: 'move'; readonly from: PathRef; readonly to: PathRef; readonly program: string }
  | { readonly kind: 'copy'; readonly from: PathRef; readonly to: PathRef; readonly program: string }
  /** `target` is the host, host:port or URL as written; `host`/`port` when they can be read off it. */
  | { readonly kind: 'network'; readonly target: string; readonly program: string; readonly host?: string; readonly port?: number; /** The port is only known at run time (`/dev/tcp/127.0.0.1/$P`): any port. */ readonly anyPort?: true }
  | { readonly kind: 'package_install'; readonly manager: string; readonly program: string }
  /** `changesFiles` is false only for subcommands that read (status, log, diff…). */
  | { readonly kind: 'git'; readonly subcommand: string; readonly changesFiles: boolean; readonly program: string }
  | { readonly kind: 'test_run'; readonly runner: string; readonly program: string }
  | { readonly kind: 'signal'; readonly target: string; readonly by: SignalTarget; readonly program: string }
  /**
   * A named program or project task the tables do not know (`terraform`, `npm run build`,
   * `make dist`). `program` is the name an author would allow it by.
   */
  | { readonly kind: 'exec'; readonly program: string; readonly known: false; readonly script?: ProjectScriptCall }
  /**
   * Code gobby cannot see into: inline interpreter code, a script file, stdin, a value built at run
   * time. `script`: a shell script file of the project it runs (`bash scripts/check.sh`,
   * `./scripts/check.sh`), which the daemon may read so the command is judged by its text.
   */
  | { readonly kind: 'opaque'; readonly why: string; readonly program?: string; readonly script?: ProjectScriptCall }
  /**
   * Another Claude Code. `outside`: the folder it starts in when that is not in the project (or
   * `a folder known only at run time`): it loads that folder's project settings, not this project's.
   * `config`: `claude config set|add|remove|unset …` changes Claude Code's settings instead.
   */
  /** `outside`: started in a folder outside the project; `config`: settings it changes; `asUser`: the prefix that runs it as another user. */
  | { readonly kind: 'nested_claude'; readonly flags: string[]; readonly program: string; readonly outside?: string; readonly config?: string; readonly asUser?: string };

export type ShellEffectKind = ShellEffect['kind'];

/**
 * A script of the project that a command runs, whose text the daemon reads
 * (daemon/project-scripts.ts) so the command is judged by what the script does:
 * - `package.json`: the script `name` of the nearest package.json from `folder`, as `npm run
 *   NAME` (yarn, pnpm, bun) runs it, with `extra` appended;
 * - `shell-file`: the file `name` (absolute) run by a shell (`bash scripts/check.sh`, `sh x.sh`),
 *   in the working directory `folder`;
 * - `executable`: the same run by its path (`./scripts/check.sh`): a shell script only when its
 *   first line says so (`#!/bin/bash`, `#!/usr/bin/env sh`) or it has none, which bash runs itself;
 * - `makefile`: the target `name` (`''`: the default goal) of the makefile `extra` (`make -f`), or
 *   of the one make finds in `folder` when `extra` is empty.
 */
export interface ProjectScriptCall {
  readonly source: 'package.json' | 'shell-file' | 'executable' | 'makefile';
  readonly name: string;
  /** Where the manager starts looking for package.json (its `--prefix`, or the working directory); for a file, where it runs. */
  readonly folder: string;
  /**
   * package.json: the words given after the name, quoted for the shell (the manager appends them
   * to the script). make: the makefile `-f` names, or empty. A file: the words it is run with, its
   * `$1`…, as a JSON array with null for a word only known at run time (scriptArguments), or empty.
   */
  readonly extra: string;
}

/** Shells whose scripts gobby's parser reads as they do (zsh, fish and csh speak other languages). */
export const SHELLS_READ_AS_BASH: ReadonlySet<string> = new Set(['bash', 'sh', 'dash', 'ash', 'rbash']);

/** A script file's `$1`… as ProjectScriptCall.extra carries them. */
export function scriptArguments(call: ProjectScriptCall): (string | null)[] {
  return call.extra === '' ? [] : (JSON.parse(call.extra) as (string | null)[]);
}

/** How a script call is known in the daemon's map of the scripts it read. */
export function projectScriptKey(call: ProjectScriptCall): string {
  return `${call.source}\0${call.folder}\0${call.name}\0${call.extra}`;
}

/** One program the command runs, after prefixes (`env`, `sudo`, `timeout`…) were peeled. */
export interface ShellInvocation {
  readonly program: string;
  /** Arguments as the program would see them; parts only known at run time are left as written. */
  readonly args: readonly string[];
  /** Absolute directory the program runs in (best guess when a `cd` may not have run). */
  readonly cwd: string;
  /** The program's name is only known at run time (`$X`, `$(cat prog)`); `program` is its likeliest value or its text. */
  readonly nameAtRunTime?: true;
  /**
   * What it prints goes only to the terminal (or nowhere): it is not in a substitution, not before
   * a pipe, not redirected, not under `nohup`. No later part of the command reads it, so a search
   * it makes picks nothing for them (`ps aux | grep node; kill $(lsof -ti:3000)`).
   */
  readonly outputShown?: true;
  /** `NAME=value` assignments in its environment from the command (`DOCKER_HOST=tcp://… docker ps`, `env X=v cmd`), values as rendered. */
  readonly environment?: readonly string[];
}

export interface ShellAnalysis {
  readonly effects: readonly ShellEffect[];
  /** Every program in command position, after prefixes were peeled, in order of appearance, once each. */
  readonly programs: readonly string[];
  /** Every invocation with its arguments, for guards that look at argv (gobby's own CLI, for one). */
  readonly invocations: readonly ShellInvocation[];
  /**
   * A test run's exit status may not be the command's: `npm test || true`, `npm test | tail`,
   * `npm test; echo done`, `if npm test; …`, a loop, a substitution. The command succeeding then
   * does not say the tests passed (`effects.test_status_hidden`).
   */
  readonly testStatusHidden?: true;
}
