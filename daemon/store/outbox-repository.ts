// The effect outbox (migrations/003): durable effects are written here inside the hook
// event's transaction and deleted once their handler ran (see daemon/effects/).
import type { Database } from 'better-sqlite3';

export interface OutboxRow {
  readonly id: number;
  readonly handler: string;
  readonly envelopeJson: string;
  readonly attempts: number;
}

export function createOutboxRepository(db: Database) {
  const insert = db.prepare('INSERT INTO effect_outbox (created_at, handler, envelope_json) VALUES (?, ?, ?)');
  const remove = db.prepare('DELETE FROM effect_outbox WHERE id = ?');
  const fail = db.prepare(`UPDATE effect_outbox SET attempts = attempts + 1, last_error = @error,
      given_up_at = CASE WHEN attempts + 1 >= @maxAttempts THEN @now ELSE NULL END WHERE id = @id`);
  const pending = db.prepare(`SELECT id, handler, envelope_json AS envelopeJson, attempts FROM effect_outbox
      WHERE given_up_at IS NULL ORDER BY id LIMIT ?`);
  const stuck = db.prepare('SELECT COUNT(*) AS n FROM effect_outbox WHERE given_up_at IS NOT NULL');
  return {
    add(handler: string, envelopeJson: string, now: number): number {
      return Number(insert.run(now, handler, envelopeJson).lastInsertRowid);
    },
    complete(id: number): void {
      remove.run(id);
    },
    /** Records a failed attempt; after `maxAttempts` the row is kept but no longer retried. */
    recordFailure(id: number, error: string, now: number, maxAttempts: number): void {
      fail.run({ id, error, now, maxAttempts });
    },
    /** Oldest first: effects run in the order they were caused. */
    pending(limit: number): OutboxRow[] {
      return pending.all(limit) as OutboxRow[];
    },
    givenUpCount(): number {
      return (stuck.get() as { n: number }).n;
    },
  };
}
export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
