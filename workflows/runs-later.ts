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

/** Folders in the home whose files are run by the shell, the desktop session or the service manager. */
const STARTUP_FOLDERS = ['.bashrc.d', '.zshrc.d', '.config/fish', '.config/systemd', '.config/autostart', '.config/environment.d', '.config/upstart', '.local/share/systemd', '.oh-my-zsh/custom'];

/** Anywhere: git hooks, husky's, direnv's `.envrc`, and the system's startup and cron folders. */
const RUNS_LATER_ANYWHERE = /\/\.git\/hooks\/|\/\.husky\/|\/\.envrc$|^\/etc\/(?:profile\.d|cron[^/]*|bash\.bashrc|profile|zsh)\b|^\/var\/spool\/cron\//;

/** Whether a file at `path` (absolute, normalized) is run later by something other than the session. */
export function runsLater(path: string, home: string): boolean {
  if (RUNS_LATER_ANYWHERE.test(path)) return true;
  if (!path.startsWith(`${home}/`)) return false;
  const inHome = path.slice(home.length + 1);
  return STARTUP_FILES.has(inHome) || STARTUP_FOLDERS.some((folder) => inHome === folder || inHome.startsWith(`${folder}/`));
}
