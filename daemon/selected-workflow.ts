// What a project's selected workflow stands for when a session starts on it. The file on
// disk wins while it loads; when it does not, the last version that loaded (kept in this
// process, else in the database) runs instead and the problem is reported with it, so a
// workflow file broken while the daemon was down never switches enforcement off in silence.
import type { CompiledWorkflow, LoadError } from '../workflows/index.js';
import type { Store } from './store/store.js';
import type { DefinitionProblem, WorkflowCatalog } from './workflow-catalog.js';

export type Selection =
  /** The file loads: this is the version on disk. */
  | { readonly kind: 'ok'; readonly workflow: CompiledWorkflow }
  /** The file does not load (or is gone); `workflow` is the last version that did. */
  | { readonly kind: 'last-good'; readonly workflow: CompiledWorkflow; readonly problem: DefinitionProblem }
  /** The file does not load and no version of it ever did, here or in the database. */
  | { readonly kind: 'broken'; readonly problem: DefinitionProblem }
  /** No tier has a file for the name, and none ever loaded. */
  | { readonly kind: 'missing' };

interface SelectedWorkflowsDeps {
  readonly store: Store;
  readonly catalog: WorkflowCatalog;
}

export function createSelectedWorkflows({ store, catalog }: SelectedWorkflowsDeps) {
  /** `rescan` re-reads the files now (the CLI's view); hooks rely on the watchers. */
  function resolve(project: { id: number; root: string }, name: string, rescan = false): Selection {
    const found = catalog.lookup(name, project.root, rescan);
    if (found.workflow) return found.problem ? { kind: 'last-good', workflow: found.workflow, problem: found.problem } : { kind: 'ok', workflow: found.workflow };
    const kept = store.lastGood.get(project.id, name);
    const problem: DefinitionProblem | undefined =
      found.problem ??
      (kept && {
        file: kept.definition.file,
        tier: kept.definition.tier,
        errors: [{ file: kept.definition.file, line: 1, column: 1, message: `the file is gone: no tier defines workflow \`${name}\` any more` }],
      });
    if (!problem) return { kind: 'missing' };
    if (kept) {
      try {
        return { kind: 'last-good', workflow: catalog.pinned(kept.definition, kept.definitionHash), problem };
      } catch {
        // A version kept by an older gobby that this one no longer accepts: as good as none.
      }
    }
    return { kind: 'broken', problem };
  }

  /** Remembers `workflow` as the project's last good version of its name (it just loaded). */
  function recordGood(projectId: number, workflow: CompiledWorkflow, now: number): void {
    store.lastGood.record(projectId, workflow.name, workflow.source, workflow.hash, now);
  }

  return { resolve, recordGood };
}

export type SelectedWorkflows = ReturnType<typeof createSelectedWorkflows>;

/** `file:line:column: message`, and how many more there are: one line for a notice or a refusal. */
export function describeProblem(problem: DefinitionProblem): string {
  const [first, ...rest] = problem.errors as [LoadError, ...LoadError[]];
  return `${first.file}:${first.line}:${first.column}: ${first.message}${rest.length > 0 ? ` (and ${rest.length} more; \`gobby workflow validate\` lists them)` : ''}`;
}
