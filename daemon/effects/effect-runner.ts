// Runs the effects of a decision after its transaction committed (design §2): the engine
// returns effects as data, the service stages them inside the hook event's transaction and
// runs them once it committed, so a rolled-back event runs nothing.
//
// A durable handler's effect is first written to the outbox in that same transaction; it is
// deleted only when the handler has run, so work cut off by a crash (kill -9 between the
// commit and the run) is finished by the next daemon at start (`resume`). A transient
// handler runs after the commit with no such record. Either way an effect's failure is
// recorded (outbox row, daemon log) and never changes the hook's answer, which is decided
// and committed before any effect runs.
import type { Effect } from '../../workflows/index.js';
import type { Store } from '../store/store.js';

/** An effect with what its handlers need to know about where it came from. */
export interface EffectEnvelope {
  readonly effect: Effect;
  readonly sessionId: string | null;
  readonly workflow: string | null;
  /** Who caused it: `claude-code` for hook events, `cli:<user>` for overrides. */
  readonly actor: string;
  readonly at: number;
}

export interface EffectHandler {
  /** Stored in the outbox row, so a restarted daemon knows which handler to run. Unique. */
  readonly name: string;
  readonly durable: boolean;
  accepts(effect: Effect): boolean;
  /**
   * A synchronous durable handler runs in one transaction with its outbox row's deletion,
   * so its database writes happen exactly once. An async handler may run again after a crash.
   */
  run(envelope: EffectEnvelope): void | Promise<void>;
}

interface StagedJob {
  readonly handler: EffectHandler;
  readonly envelope: EffectEnvelope;
  /** The outbox row of a durable job. */
  readonly outboxId?: number;
}

/** What `stage` wrote and `run` will do: opaque to callers. */
export interface StagedEffects {
  readonly jobs: readonly StagedJob[];
}

export interface EffectRunnerDeps {
  readonly store: Store;
  readonly handlers: readonly EffectHandler[];
  readonly clock: () => number;
  /** Where failures are reported besides the outbox row (the daemon log). */
  readonly onError: (failure: { handler: string; effect: Effect['type']; error: Error }) => void;
}

/** A durable job that failed this many times stays in the outbox, no longer retried. */
const MAX_EFFECT_ATTEMPTS = 5;
const RESUME_BATCH = 500;

export function createEffectRunner(deps: EffectRunnerDeps) {
  const { store, handlers, clock } = deps;
  const byName = new Map(handlers.map((handler) => [handler.name, handler]));
  if (byName.size !== handlers.length) throw new Error('effect handler names must be unique');

  function fail(job: StagedJob, error: unknown): void {
    const cause = error instanceof Error ? error : new Error(String(error));
    if (job.outboxId !== undefined) store.outbox.recordFailure(job.outboxId, cause.message, clock(), MAX_EFFECT_ATTEMPTS);
    deps.onError({ handler: job.handler.name, effect: job.envelope.effect.type, error: cause });
  }

  function runJob(job: StagedJob): void {
    const { outboxId } = job;
    try {
      if (outboxId === undefined) {
        const pending = job.handler.run(job.envelope);
        if (pending) pending.catch((error: unknown) => fail(job, error));
        return;
      }
      const pending = store.transaction(() => {
        const result = job.handler.run(job.envelope);
        if (!result) store.outbox.complete(outboxId);
        return result;
      });
      if (pending) pending.then(() => store.outbox.complete(outboxId), (error: unknown) => fail(job, error));
    } catch (error) {
      fail(job, error);
    }
  }

  /** Inside the transaction: writes the durable jobs to the outbox. */
  function stage(envelopes: readonly EffectEnvelope[]): StagedEffects {
    const jobs: StagedJob[] = [];
    for (const envelope of envelopes) {
      for (const handler of handlers) {
        if (!handler.accepts(envelope.effect)) continue;
        const outboxId = handler.durable ? store.outbox.add(handler.name, JSON.stringify(envelope), envelope.at) : undefined;
        jobs.push(outboxId === undefined ? { handler, envelope } : { handler, envelope, outboxId });
      }
    }
    return { jobs };
  }

  /** After the commit: runs the staged jobs in the order their effects were caused. */
  function run(staged: StagedEffects): void {
    for (const job of staged.jobs) runJob(job);
  }

  return {
    stage,
    run,

    /**
     * `work` in one transaction, its effects staged in it and run after the commit: the
     * pattern every writer of session state follows.
     */
    commitThenRun<T>(work: () => { result: T; effects: readonly EffectEnvelope[] }): { result: T; effects: readonly EffectEnvelope[] } {
      const { result, effects, staged } = store.transaction(() => {
        const done = work();
        return { ...done, staged: stage(done.effects) };
      });
      run(staged);
      return { result, effects };
    },

    /** At start: finishes the durable effects a crash left in the outbox. Returns how many ran. */
    resume(): number {
      let ran = 0;
      for (const row of store.outbox.pending(RESUME_BATCH)) {
        const handler = byName.get(row.handler);
        if (!handler) {
          store.outbox.recordFailure(row.id, `no effect handler named ${row.handler}`, clock(), 0);
          continue;
        }
        runJob({ handler, envelope: JSON.parse(row.envelopeJson) as EffectEnvelope, outboxId: row.id });
        ran++;
      }
      return ran;
    },
  };
}

export type EffectRunner = ReturnType<typeof createEffectRunner>;
