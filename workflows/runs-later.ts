// Files that something other than the session runs later: the user's shell when it starts, the
// user's service manager, cron, git when the user commits, direnv when the user enters a folder.
// An override written into one of them runs outside the session's process tree (a human's
// terminal, a service), where the daemon's check of who sent it finds no tie to Claude Code
// (docs/security.md, "What escapes it"). So the guard refuses text that would run an override
// when it is written there; anything else may be written as before (`export PATH=…` in ~/.bashrc).

/** Files in the home that a shell reads when it starts (or ends). */
const STARTUP_FILES = new Set([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.xprofile',
  '.xinitrc',
  '.xsessionrc',
  '.kshrc',
  '.mkshrc',
  '.cshrc',
  '.tcshrc',
]);

/**
 * Files in the home whose text the user's tools run as commands when they start or connect: git's
 * config (`core.fsmonitor`, `core.pager`, `!` aliases), ssh's (`ProxyCommand`, `LocalCommand`)
 * and `~/.ssh/rc`, editors', terminal multiplexers', debuggers' and database shells' start-up
 * files, readline's macros, wget's and curl's defaults, gpg's, gh's aliases, Claude Code's own
 * `~/.claude.json` (its MCP servers' commands).
 */
const CODE_FILES = new Set([
  '.gitconfig',
  '.config/git/config',
  '.ssh/config',
  '.ssh/rc',
  '.vimrc',
  '.exrc',
  '.gvimrc',
  '.emacs',
  '.tmux.conf',
  '.screenrc',
  '.inputrc',
  '.gdbinit',
  '.lldbinit',
  '.psqlrc',
  '.sqliterc',
  '.myclirc',
  '.irbrc',
  '.pryrc',
  '.pythonrc.py',
  '.wgetrc',
  '.curlrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.gnupg/gpg.conf',
  '.config/gh/config.yml',
  '.config/tmux/tmux.conf',
  '.claude.json',
]);

/** Folders in the home whose files are run by the shell, the desktop session or the service manager, or by an editor as it starts. */
const STARTUP_FOLDERS = ['.bashrc.d', '.zshrc.d', '.config/fish', '.config/systemd', '.config/autostart', '.config/environment.d', '.config/upstart', '.local/share/systemd', '.oh-my-zsh/custom', '.vim', '.config/nvim', '.emacs.d', '.local/share/applications'];

/**
 * Anywhere: git hooks and a repository's config (its own and a submodule's), husky's, direnv's
 * `.envrc`, an editor's tasks that run on opening the folder (`.vscode/tasks.json`), the hook
 * managers' configs (pre-commit, lefthook, lint-staged), Python's start-up files in a
 * site-packages folder (`*.pth` lines that start with `import` run, `sitecustomize.py`,
 * `usercustomize.py`), and the system's startup and cron folders.
 */
const RUNS_LATER_ANYWHERE =
  /\/\.git\/(?:.*\/)?(?:hooks\/|config(?:\.worktree)?$|commondir$|gitdir$)|\/\.husky\/|\/\.envrc$|\/\.vscode\/tasks\.json$|\/\.pre-commit-config\.ya?ml$|\/\.?lefthook(?:-local)?\.ya?ml$|\/\.lintstagedrc[^/]*$|\/(?:site|dist)-packages\/(?:[^/]+\.pth|(?:site|user)customize\.py)$|^\/etc\/(?:profile\.d|cron[^/]*|bash\.bashrc|profile|zsh)\b|^\/var\/spool\/cron\//;

/** Whether a file at `path` (absolute, normalized) is run later by something other than the session. */
export function runsLater(path: string, home: string): boolean {
  if (RUNS_LATER_ANYWHERE.test(path)) return true;
  if (!path.startsWith(`${home}/`)) return false;
  const inHome = path.slice(home.length + 1);
  return STARTUP_FILES.has(inHome) || CODE_FILES.has(inHome) || STARTUP_FOLDERS.some((folder) => inHome === folder || inHome.startsWith(`${folder}/`));
}
