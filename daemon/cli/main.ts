#!/usr/bin/env node
// The `gobby` executable (package.json `bin`). Two commands run far more often than the rest
// and must start fast, so they are dispatched here, before commander, zod and the rest of the
// CLI are loaded (together about 300 ms here):
// - `gobby hook <Event>`: the hook client Claude Code runs at session start (the fallback of
//   the curl fast path, see hooks/session-start-command.ts);
// - `gobby statusline`: Claude Code runs it on every refresh of its status line.
// Everything else is program.ts.
import { fileURLToPath } from 'node:url';
import { exitQuietlyOnBrokenPipe } from '../../hooks/broken-pipe.js';

exitQuietlyOnBrokenPipe();

const [command, ...rest] = process.argv.slice(2);
// `gobby hook --help` is commander's (program.ts declares the command for it).
const asksHelp = rest.includes('--help') || rest.includes('-h');
if (command === 'hook' && !asksHelp) {
  const { runClientProcess } = await import('../../hooks/client.js');
  // dist/daemon/cli/main.js → dist/daemon/main.js, without reading package.json.
  await runClientProcess(rest, fileURLToPath(new URL('../main.js', import.meta.url)));
} else if (command === 'statusline' && !asksHelp) {
  const { statusLineMain } = await import('./statusline-command.js');
  await statusLineMain(rest);
} else {
  await import('./program.js');
}
