// Runs in a worker thread: checkpoints the daemon's WAL into the database file on its own
// connection, so the fsyncs a checkpoint costs never stall a hook request on the main
// thread. PASSIVE never waits for or blocks the main connection's writers.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const { databasePath, intervalMs } = workerData as { databasePath: string; intervalMs: number };
const db = new Database(databasePath);
db.pragma('busy_timeout = 0');

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or locked: the next tick tries again, and the main connection's own
    // autocheckpoint remains the safety net.
  }
}, intervalMs);

parentPort?.on('message', (message) => {
  if (message === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort?.close();
  }
});
