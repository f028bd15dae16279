// `gobby daemon start --foreground` runs the daemon in this terminal. It must run as the daemon
// always runs (its young generation, --expose-gc for the idle collector, one scavenger thread:
// DAEMON_NODE_FLAGS), or what one debugs is another configuration. The CLI's own node has none of
// those flags, so the command starts itself again in a node that has them.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { DAEMON_NODE_FLAGS } from '../../hooks/daemon-locator.js';

/** Whether this process already runs with the daemon's flags (`gc` is exposed only by one of them). */
export function hasDaemonFlags(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

/** Runs this same command again with the daemon's node flags, in this terminal; resolves to its exit code. */
export function rerunWithDaemonFlags(env: Record<string, string | undefined>): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, ...DAEMON_NODE_FLAGS, process.argv[1]!, ...process.argv.slice(2)], { stdio: 'inherit', env });
  // Ctrl-C reaches both processes (they share the terminal's process group): this one waits while
  // the daemon shuts down. A signal sent to this process alone is passed on.
  const ignore = (): void => {};
  const forward = (signal: NodeJS.Signals) => (): void => void child.kill(signal);
  const onTerm = forward('SIGTERM');
  const onHup = forward('SIGHUP');
  process.on('SIGINT', ignore);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onHup);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      process.off('SIGTERM', onTerm);
      process.off('SIGHUP', onHup);
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
    child.once('error', (error) => {
      process.stderr.write(`gobby: could not start the daemon in this terminal: ${error.message}\n`);
      resolve(1);
    });
  });
}
