// Where gobby's own files are (templates/, migrations/, dist/) whether it runs from the
// TypeScript sources (tests, tsx) or from the build in dist/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(start: string): string {
  let directory = start;
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`gobby's package.json not found above ${start}`);
    directory = parent;
  }
  return directory;
}

/** The folder gobby's package is installed in (`…/node_modules/gobby`, or a clone of the repository). */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
export const PACKAGE_VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
export const BUILTIN_TEMPLATES_DIR = join(PACKAGE_ROOT, 'templates');
export const MIGRATIONS_DIR = join(PACKAGE_ROOT, 'migrations');
export const DAEMON_MAIN = join(PACKAGE_ROOT, 'dist', 'daemon', 'main.js');
/** The `gobby` executable (package.json `bin`): quick commands first, then the full CLI (program.ts). */
export const CLI_MAIN = join(PACKAGE_ROOT, 'dist', 'daemon', 'cli', 'main.js');
