// Which known tool a program written with a path is: `/usr/bin/rm` is `rm`, a project's
// `node_modules/.bin/vitest` is `vitest`; `./rm` is a file the agent may have written. Used for
// the command's own name and for the file an interpreter is given (`php vendor/bin/phpunit`).

/** Directories whose programs are the system's: `/bin/rm` is `rm`, `./rm` is a file the agent may have written. */
const SYSTEM_BIN = /^(?:\/usr(?:\/local)?|\/opt\/homebrew|\/home\/linuxbrew\/\.linuxbrew|\/snap|\/nix\/var\/nix\/profiles\/default|\/run\/current-system\/sw)?\/s?bin$/;
/** Where a project installs its own tools: npm's, composer's, a Python virtual environment's. */
const PROJECT_TOOL_BIN = /(?:^|\/)(?:node_modules\/\.bin|vendor\/bin|\.?venv\/bin)$/;
/** Binstubs in a project's `bin/` (Ruby's `bin/rails test`, `bin/rspec`; Symfony's `bin/phpunit`): the tools they are named after. */
const PROJECT_BINSTUB_DIR = /(?:^|\/)bin$/;
const BINSTUBS = new Set(['rails', 'rake', 'rspec', 'bundle', 'rubocop', 'phpunit']);
/** Wrapper scripts a project checks in for its build tool; they run that tool. */
const WRAPPERS: Readonly<Record<string, string>> = { gradlew: 'gradlew', mvnw: 'mvnw' };

/**
 * The table name for a program written with a path, or undefined when the path is a file the
 * tables cannot vouch for. `inProject` tells whether the absolute path is in the project: a
 * tool folder elsewhere (`/tmp/x/node_modules/.bin/vitest`) holds whatever the agent put there.
 */
export function programForPath(path: string, inProject: boolean): string | undefined {
  const slash = path.lastIndexOf('/');
  const directory = path.slice(0, slash);
  const name = path.slice(slash + 1);
  if (SYSTEM_BIN.test(directory) || (inProject && (PROJECT_TOOL_BIN.test(directory) || (PROJECT_BINSTUB_DIR.test(directory) && BINSTUBS.has(name))))) return name;
  if ((directory === '.' || directory === '') && WRAPPERS[name]) return WRAPPERS[name];
  return undefined;
}
