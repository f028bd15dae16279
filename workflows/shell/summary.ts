// What workflow conditions see as `effects.*`: plain arrays of strings and booleans, so an
// author can write `effects.writes | length == 0` or `'npm' in effects.programs`.
import type { PathRef, ShellAnalysis } from './types.js';

export interface ShellEffectsSummary {
  /** Paths read (copy sources included). */
  reads: string[];
  /** Paths created or changed (copy and move destinations included). */
  writes: string[];
  /** Paths deleted (move sources included: they no longer exist where they were). */
  deletes: string[];
  /** Every path above, once each. */
  paths: string[];
  /** Network targets as written. */
  network: string[];
  programs: string[];
  /** The effect kinds present, once each (`read`, `write`, `opaque`…). */
  kinds: string[];
  opaque: boolean;
  test_run: boolean;
  /** A test ran, but the command's exit status may not be its own (`npm test || true`, `npm test | tail`). */
  test_status_hidden: boolean;
  installs: boolean;
  /** Named programs or project tasks the tables do not know (`terraform`, `npm run build`). */
  unknown_programs: string[];
  /** Some path is only known at run time. */
  dynamic_paths: boolean;
  /** Some git subcommand changes the repository or its working tree. */
  git_changes: boolean;
  /** Signal targets (`7377`, `gobby`, `$(cat pidfile)`). */
  signals: string[];
  /**
   * A phase that restricts file changes would refuse the command: it may change a file of the
   * project or of the home's configuration, or runs code or a program gobby cannot see into.
   * Decided where the daemon knows the place (workflows/evaluate.ts, when a condition reads it);
   * false without one.
   */
  changes_files: boolean;
}

/**
 * Every field of the summary, for the compiler's check of `effects.<field>` in conditions.
 * A record over the interface's keys, so a field added above and not here fails to build.
 */
const SUMMARY_FIELDS: Readonly<Record<keyof ShellEffectsSummary, true>> = {
  reads: true,
  writes: true,
  deletes: true,
  paths: true,
  network: true,
  programs: true,
  kinds: true,
  opaque: true,
  test_run: true,
  test_status_hidden: true,
  installs: true,
  unknown_programs: true,
  dynamic_paths: true,
  git_changes: true,
  signals: true,
  changes_files: true,
};
export const EFFECTS_SUMMARY_FIELDS: readonly string[] = Object.keys(SUMMARY_FIELDS);

export function summarizeShellEffects(analysis: ShellAnalysis): ShellEffectsSummary {
  const reads = new Set<string>();
  const writes = new Set<string>();
  const deletes = new Set<string>();
  const network = new Set<string>();
  const kinds = new Set<string>();
  const unknown = new Set<string>();
  const signals = new Set<string>();
  let dynamic = false;
  let gitChanges = false;
  const note = (into: Set<string>, ref: PathRef): void => {
    into.add(ref.path);
    if (ref.dynamic) dynamic = true;
  };
  for (const effect of analysis.effects) {
    kinds.add(effect.kind);
    switch (effect.kind) {
      case 'read':
        note(reads, effect.path);
        break;
      case 'write':
        note(writes, effect.path);
        break;
      case 'delete':
        note(deletes, effect.path);
        break;
      case 'copy':
        note(reads, effect.from);
        note(writes, effect.to);
        break;
      case 'move':
        note(deletes, effect.from);
        note(writes, effect.to);
        break;
      case 'network':
        network.add(effect.target);
        break;
      case 'exec':
        unknown.add(effect.program);
        break;
      case 'git':
        if (effect.changesFiles) gitChanges = true;
        break;
      case 'signal':
        signals.add(effect.target);
        break;
      default:
        break;
    }
  }
  return {
    reads: [...reads],
    writes: [...writes],
    deletes: [...deletes],
    paths: [...new Set([...reads, ...writes, ...deletes])],
    network: [...network],
    programs: [...analysis.programs],
    kinds: [...kinds],
    opaque: kinds.has('opaque'),
    test_run: kinds.has('test_run'),
    test_status_hidden: analysis.testStatusHidden === true && kinds.has('test_run'),
    installs: kinds.has('package_install'),
    unknown_programs: [...unknown],
    dynamic_paths: dynamic,
    git_changes: gitChanges,
    signals: [...signals],
    changes_files: false,
  };
}
