// The definitions gobby knows, from three tiers: project `.gobby/workflows/` > user
// `$GOBBY_HOME/workflows/` > built-in `templates/`; the first match by name wins.
// Directories are read lazily and re-read only after chokidar saw a change, so a hook
// request never re-parses YAML. A file that stops validating keeps its last good
// version ("last good wins") while this process runs; `lookup` reports its errors with it,
// so a broken file is never mistaken for a missing one. The last good version that must
// survive a restart is kept in the database (daemon/selected-workflow.ts).
import { watch, type FSWatcher } from 'chokidar';
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parseDocument } from 'yaml';
import { readRegularFile, type RegularFileRead } from './read-regular-file.js';
import {
  compileWorkflow,
  type CompiledWorkflow,
  type DefinitionSource,
  type DefinitionTier,
  type LoadError,
} from '../workflows/index.js';

interface FileEntry {
  readonly mtimeMs: number;
  readonly size: number;
  readonly good: CompiledWorkflow | undefined;
  readonly errors: readonly LoadError[];
  /** For a file that fails to load: the workflow name it means to define, as far as it can be read. */
  readonly claimedName?: string | undefined;
  /** For a file refused because another file of its folder defines the same name: the entry as it compiled, reused while the file is unchanged. */
  readonly compiled?: FileEntry | undefined;
}

/** A definition file that fails to load, and why. */
export interface DefinitionProblem {
  readonly file: string;
  readonly tier: DefinitionTier;
  readonly errors: readonly LoadError[];
}

/**
 * What a name stands for now. `problem`: the file that defines the name (the first tier
 * with a file for it) fails to load; `workflow` is then the version it had when it last
 * loaded in this process, if it ever did.
 */
export interface CatalogLookup {
  readonly workflow?: CompiledWorkflow | undefined;
  readonly problem?: DefinitionProblem | undefined;
}

interface DirectoryEntry {
  files: Map<string, FileEntry>;
  /** The paths of `files`, made again only when the folder is read again (its identity says whether it changed). */
  paths: readonly string[];
  dirty: boolean;
  watcher?: FSWatcher;
}

const WATCHED_TIERS: readonly DefinitionTier[] = ['project', 'user'];
const NO_FILES: readonly string[] = [];

export interface CatalogListing {
  readonly workflows: readonly { workflow: CompiledWorkflow; shadowedBy?: DefinitionTier }[];
  readonly errors: readonly LoadError[];
}

export interface WorkflowCatalogOptions {
  readonly builtinDirectory: string;
  readonly userDirectory: string;
  /** Off in tests that do not want file watchers. */
  readonly watch: boolean;
  readonly onReloadError?: (errors: readonly LoadError[]) => void;
  /** A watched folder changed: the next lookup re-reads it. Lets tests wait on a reload instead of sleeping. */
  readonly onDirectoryChanged?: (directory: string) => void;
}

const PROJECT_WORKFLOWS = join('.gobby', 'workflows');
/**
 * A definition is a few KB; a larger file is reported, not read. Parsing and compiling run on the
 * daemon's event loop, so the limit bounds how long a file can hold up every session's hooks
 * (a 1 MB file took about 2.5 s; the worst 64 KB ones 0.2 s warm, 0.7 s cold: docs/benchmarks.md).
 */
const MAX_DEFINITION_BYTES = 64 * 1024;

/** A definition file's text as the catalog reads it (a regular file, up to 64 KB), or the load error that says why not; undefined when it is missing. */
export function readDefinitionFile(file: string): { readonly text: string } | { readonly error: LoadError } | undefined {
  const read = readRegularFile(file, MAX_DEFINITION_BYTES);
  if (read.ok) return { text: read.text };
  return read.why === 'missing' ? undefined : { error: { file, line: 1, column: 1, message: unreadableDefinition(read) } };
}

function unreadableDefinition(read: Extract<RegularFileRead, { ok: false }>): string {
  if (read.why === 'too large') return `the file is ${read.size} bytes, above the ${MAX_DEFINITION_BYTES}-byte (64 KB) limit for a workflow definition`;
  if (read.why === 'not a regular file') return 'this is not a regular file (a folder, a FIFO or a device); gobby reads workflow definitions from plain files only';
  return 'the file cannot be read';
}

/**
 * A definition's content hash: the first 16 hex digits of the SHA-256 of its text. Sessions
 * store it with their pinned copy and `pinned()` is keyed by it, so it must never change.
 */
export function hashDefinitionText(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export function createWorkflowCatalog(options: WorkflowCatalogOptions) {
  const directories = new Map<string, DirectoryEntry>();
  const pinnedCache = new Map<string, CompiledWorkflow>();

  function tiersFor(projectRoot: string | null): { tier: DefinitionTier; directory: string }[] {
    const tiers: { tier: DefinitionTier; directory: string }[] = [];
    if (projectRoot) tiers.push({ tier: 'project', directory: join(projectRoot, PROJECT_WORKFLOWS) });
    tiers.push({ tier: 'user', directory: options.userDirectory });
    tiers.push({ tier: 'builtin', directory: options.builtinDirectory });
    return tiers;
  }

  function directoryEntry(directory: string, tier: DefinitionTier, rescan: boolean): DirectoryEntry {
    let entry = directories.get(directory);
    if (!entry) {
      entry = { files: new Map(), paths: [], dirty: true };
      directories.set(directory, entry);
    }
    if (entry.dirty || rescan) refreshDirectory(directory, tier, entry);
    return entry;
  }

  /**
   * Watches a tier's folder once it exists. A folder that does not exist yet stays dirty,
   * so it is looked for again (one failed readdir) until a project creates it; chokidar
   * does not report a folder whose parent is missing too.
   */
  function watchWhenPresent(directory: string, tier: DefinitionTier, entry: DirectoryEntry, exists: boolean): void {
    if (!exists) {
      entry.dirty = true;
      return;
    }
    if (entry.watcher || !options.watch || !WATCHED_TIERS.includes(tier)) return;
    const changed = (): void => {
      entry.dirty = true;
      options.onDirectoryChanged?.(directory);
    };
    // Also on 'ready': a file written between the read above and the end of chokidar's
    // initial scan raises no event (ignoreInitial), so read the folder once more.
    entry.watcher = watch(directory, { ignoreInitial: true, depth: 0 }).on('all', changed).on('ready', changed);
  }

  function refreshDirectory(directory: string, tier: DefinitionTier, entry: DirectoryEntry): void {
    entry.dirty = false;
    let names: string[];
    try {
      names = readdirSync(directory).filter((name) => /\.ya?ml$/.test(name));
    } catch {
      entry.files = new Map();
      if (entry.paths.length > 0) entry.paths = [];
      watchWhenPresent(directory, tier, entry, false);
      return;
    }
    watchWhenPresent(directory, tier, entry, true);
    const next = new Map<string, FileEntry>();
    const newErrors: LoadError[] = [];
    for (const name of names.sort()) {
      const file = join(directory, name);
      let stat;
      try {
        stat = statSync(file);
      } catch {
        continue;
      }
      const stored = entry.files.get(file);
      const previous = stored?.compiled ?? stored;
      if (previous && previous.mtimeMs === stat.mtimeMs && previous.size === stat.size) {
        next.set(file, previous);
        continue;
      }
      const read = readDefinitionFile(file);
      if (read === undefined) continue;
      if ('error' in read) {
        next.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, good: undefined, errors: [read.error], claimedName: basename(file, extname(file)) });
        newErrors.push(read.error);
        continue;
      }
      const text = read.text;
      const result = compileWorkflow({ text, file, tier }, hashDefinitionText(text));
      if (result.ok) next.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, good: result.workflow, errors: [] });
      else {
        const claimedName = claimedWorkflowName(text, file);
        // The version kept is only the one of the same workflow: a file renamed to another
        // workflow and broken on the way does not keep defining the old one.
        const good = previous?.good && (previous.good.name === claimedName || previous.claimedName === claimedName) ? previous.good : undefined;
        next.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, good, errors: result.errors, claimedName });
        newErrors.push(...result.errors);
      }
    }
    // Reported once, when one of the files was read again, as a broken file is.
    const duplicates = duplicateNamesRefused(next).filter((error) => next.get(error.file)?.compiled !== entry.files.get(error.file)?.compiled);
    entry.files = next;
    entry.paths = [...next.keys()];
    if (newErrors.length > 0 || duplicates.length > 0) options.onReloadError?.([...newErrors, ...duplicates]);
  }

  return {
    /**
     * The definition files of the project's and the user's tiers, as the catalog last read them
     * (read again only when a watcher saw a change): gobby's own files, for its ground. The same
     * arrays come back until a folder changes.
     */
    definitionFiles(projectRoot: string | null): { readonly project: readonly string[]; readonly user: readonly string[] } {
      const user = directoryEntry(options.userDirectory, 'user', false).paths;
      const project = projectRoot ? directoryEntry(join(projectRoot, PROJECT_WORKFLOWS), 'project', false).paths : NO_FILES;
      return { project, user };
    },

    /**
     * The definition a new session in `projectRoot` gets for `name`, or undefined.
     * `rescan` re-checks the files now (the CLI's view); hooks rely on the watchers.
     */
    resolve(name: string, projectRoot: string | null, rescan = false): CompiledWorkflow | undefined {
      return this.lookup(name, projectRoot, rescan).workflow;
    },

    /**
     * What `name` stands for from `projectRoot`, with the load errors of the file that
     * should define it. Unlike `resolve`, a broken file shadows the tiers below it: a broken
     * project `plan-execute.yaml` is reported, never silently replaced by the built-in one.
     */
    lookup(name: string, projectRoot: string | null, rescan = false): CatalogLookup {
      for (const { tier, directory } of tiersFor(projectRoot)) {
        const files = [...directoryEntry(directory, tier, rescan).files.entries()];
        const good = files.find(([, entry]) => entry.errors.length === 0 && entry.good?.name === name);
        if (good) return { workflow: good[1].good };
        const broken = files.find(([, entry]) => entry.errors.length > 0 && (entry.claimedName === name || entry.good?.name === name));
        if (broken) {
          const [file, entry] = broken;
          return { workflow: entry.good?.name === name ? entry.good : undefined, problem: { file, tier, errors: entry.errors } };
        }
      }
      return {};
    },

    /** Every definition visible from `projectRoot`, re-checked on disk now. */
    list(projectRoot: string | null): CatalogListing {
      const seen = new Map<string, DefinitionTier>();
      const workflows: { workflow: CompiledWorkflow; shadowedBy?: DefinitionTier }[] = [];
      const errors: LoadError[] = [];
      for (const { tier, directory } of tiersFor(projectRoot)) {
        const entry = directoryEntry(directory, tier, true);
        for (const file of entry.files.values()) {
          errors.push(...file.errors);
          if (!file.good) continue;
          const winner = seen.get(file.good.name);
          workflows.push(winner ? { workflow: file.good, shadowedBy: winner } : { workflow: file.good });
          if (!winner) seen.set(file.good.name, tier);
        }
      }
      return { workflows, errors };
    },

    /**
     * The definition a session is pinned to, compiled once per distinct source. `hash` is
     * the content hash stored with the session, so the hot path never hashes the text.
     */
    pinned(source: DefinitionSource, hash: string): CompiledWorkflow {
      const key = `${hash}\u0000${source.tier}\u0000${source.file}`;
      let workflow = pinnedCache.get(key);
      if (!workflow) {
        const result = compileWorkflow(source, hash);
        if (!result.ok) {
          throw new Error(`pinned definition ${source.file} no longer compiles: ${result.errors.map((e) => e.message).join('; ')}`);
        }
        workflow = result.workflow;
        pinnedCache.set(key, workflow);
      }
      return workflow;
    },

    async close(): Promise<void> {
      await Promise.all([...directories.values()].map((entry) => entry.watcher?.close()));
    },
  };
}

export type WorkflowCatalog = ReturnType<typeof createWorkflowCatalog>;

/**
 * Two files of one folder that define the same name (`feature.yaml` and the backup copy
 * `feature-old.yaml`): which one a session would get is an accident of their file names, so
 * neither loads, each with an error naming the other. Changes `files` in place; returns the errors.
 */
function duplicateNamesRefused(files: Map<string, FileEntry>): LoadError[] {
  const byName = new Map<string, string[]>();
  for (const [file, entry] of files) if (entry.good && entry.errors.length === 0) byName.set(entry.good.name, [...(byName.get(entry.good.name) ?? []), file]);
  const errors: LoadError[] = [];
  for (const [name, sameName] of byName) {
    if (sameName.length < 2) continue;
    for (const file of sameName) {
      const others = sameName.filter((other) => other !== file).map((other) => basename(other));
      const error: LoadError = { file, line: 1, column: 1, message: `workflow \`${name}\` is also defined in ${others.join(', ')} in this folder: give each file its own \`name:\`, or move the copy out of the folder` };
      const compiled = files.get(file)!;
      files.set(file, { mtimeMs: compiled.mtimeMs, size: compiled.size, good: undefined, errors: [error], claimedName: name, compiled });
      errors.push(error);
    }
  }
  return errors;
}

/**
 * The name a file that fails to load means to define: its `name:` when the YAML can be read
 * that far, else the file's name without `.yaml` (the convention the built-ins follow).
 */
function claimedWorkflowName(text: string, file: string): string {
  try {
    const name: unknown = (parseDocument(text).toJS() as { name?: unknown } | null)?.name;
    if (typeof name === 'string' && name.length > 0) return name;
  } catch {
    // Not YAML at all: fall through to the lines and the file name.
  }
  const line = /^name:\s*["']?([A-Za-z0-9_.-]+)/m.exec(text);
  return line?.[1] ?? basename(file, extname(file));
}
