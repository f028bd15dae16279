// `gobby … | head` closes the pipe while gobby still writes. Node reports that as an
// `error` event on process.stdout, and an unhandled one prints a stack trace and exits 1,
// as if gobby had failed. The reader chose to stop reading: nothing failed, so the process
// ends quietly, with the exit status it already had (0 for a command that succeeded), as
// ripgrep and other well-behaved tools do.

/** Makes a closed stdout or stderr end the process quietly instead of crashing it. */
export function exitQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      // Nothing more can be written there; stop before the next write fails the same way.
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
}
