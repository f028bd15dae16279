// Moves WAL checkpoints off the event loop (see wal-checkpoint-worker.ts). The main
// connection keeps a large autocheckpoint as a safety net should the worker ever stop.
import type { Database } from 'better-sqlite3';
import { Worker } from 'node:worker_threads';

const CHECKPOINT_INTERVAL_MS = 1000;
/** Pages (4 KiB) the WAL may reach before the main connection checkpoints itself. */
const SAFETY_NET_PAGES = 10_000;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

export function startWalCheckpointer(db: Database, databasePath: string, onError: (error: Error) => void): WalCheckpointer {
  db.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  const worker = new Worker(new URL('./wal-checkpoint-worker.js', import.meta.url), {
    workerData: { databasePath, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  worker.on('error', onError);
  worker.unref();
  return {
    async stop() {
      worker.postMessage('stop');
      await new Promise<void>((resolve) => {
        const timeout = setTimeout(() => void worker.terminate().then(() => resolve()), 1000);
        worker.once('exit', () => {
          clearTimeout(timeout);
          resolve();
        });
      });
    },
  };
}
