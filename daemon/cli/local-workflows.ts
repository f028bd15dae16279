// The commands that only read definitions (`workflow list`, `show`, `validate`) work without
// a daemon: the definitions are loaded here, in the CLI's process, from the same three tiers
// the daemon reads (project `.gobby/workflows/` > `$GOBBY_HOME/workflows/` > built-in).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { gobbyError } from '../../hooks/errors.js';
import { resolveGobbyHome } from '../../hooks/daemon-file.js';
import { compileWorkflow, type LoadError } from '../../workflows/index.js';
import { invalidWorkflow } from '../control/control-queries.js';
import { describeWorkflow, summarizeWorkflow } from '../control/workflow-view.js';
import { homeLayout } from '../home-layout.js';
import { BUILTIN_TEMPLATES_DIR } from '../package-info.js';
import { createProjectRootResolver } from '../project-root.js';
import { createWorkflowCatalog, hashDefinitionText, readDefinitionFile } from '../workflow-catalog.js';

type Env = Record<string, string | undefined>;

/** What `gobby workflow validate` found: each file it checked, with its workflow name or its errors. */
export interface ValidationReport {
  readonly files: readonly { file: string; workflow: string | null; errors: readonly LoadError[] }[];
}

export type LocalWorkflows = ReturnType<typeof createLocalWorkflows>;

export function createLocalWorkflows(env: Env, cwd: string) {
  const root = createProjectRootResolver()(cwd);
  const catalog = createWorkflowCatalog({
    builtinDirectory: BUILTIN_TEMPLATES_DIR,
    userDirectory: homeLayout(resolveGobbyHome(env)).userWorkflows,
    watch: false,
  });

  /** As `GET /api/workflows` answers, less what only the daemon's database knows (the project's choice and its history). */
  function list() {
    const listing = catalog.list(root);
    return {
      project: root,
      project_workflow: null,
      project_workflow_problem: null,
      workflows: listing.workflows.map(({ workflow, shadowedBy }) => ({ ...summarizeWorkflow(workflow), shadowed_by: shadowedBy ?? null })),
      errors: listing.errors,
      project_events: [],
    };
  }

  /** As `GET /api/workflows/:name` answers; a file that does not load is an error (no last good version is kept here). */
  function show(name: string) {
    const found = catalog.lookup(name, root, true);
    if (found.problem) throw invalidWorkflow(name, found.problem);
    if (!found.workflow) {
      const available = [...new Set(catalog.list(root).workflows.map((w) => w.workflow.name))];
      throw gobbyError(
        'GOBBY_ERR_WORKFLOW_NOT_FOUND',
        `no workflow named \`${name}\` in ${root}/.gobby/workflows, the user tier or the built-in templates` +
          (available.length > 0 ? ` (available: ${available.join(', ')})` : ''),
      );
    }
    return { ...describeWorkflow(found.workflow), load_errors: [] };
  }

  /**
   * `target`: a file path (checked on its own, whatever its folder), a workflow name (the
   * file that defines it), or nothing (every file in every tier).
   */
  function validate(target: string | undefined): ValidationReport {
    if (target === undefined) {
      const listing = catalog.list(root);
      const good = listing.workflows.map(({ workflow }) => ({ file: workflow.source.file, workflow: workflow.name, errors: [] }));
      const files = new Set(listing.errors.map((error) => error.file));
      const broken = [...files].map((file) => ({ file, workflow: null, errors: listing.errors.filter((error) => error.file === file) }));
      // A broken file that once loaded is listed with its last good version too: the errors win.
      return { files: [...good.filter((entry) => !files.has(entry.file)), ...broken] };
    }
    const path = resolve(cwd, target);
    if (isFile(path)) {
      // Read as the catalog reads a definition (64 KB at most), so a file that passes here loads there.
      const read = readDefinitionFile(path);
      if (read === undefined || 'error' in read) return { files: [{ file: path, workflow: null, errors: read === undefined ? [{ file: path, line: 1, column: 1, message: 'the file cannot be read' }] : [read.error] }] };
      const text = read.text;
      const result = compileWorkflow({ text, file: path, tier: 'project' }, hashDefinitionText(text));
      return { files: [result.ok ? { file: path, workflow: result.workflow.name, errors: [] } : { file: path, workflow: null, errors: result.errors }] };
    }
    const found = catalog.lookup(target, root, true);
    if (found.problem) return { files: [{ file: found.problem.file, workflow: null, errors: found.problem.errors }] };
    if (found.workflow) return { files: [{ file: found.workflow.source.file, workflow: found.workflow.name, errors: [] }] };
    throw gobbyError('GOBBY_ERR_WORKFLOW_NOT_FOUND', `\`${target}\` is neither a file nor a workflow visible from ${root}`);
  }

  return { list, show, validate, close: () => catalog.close() };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
