#!/usr/bin/env node
// The `gobby` command. `gobby hook <Event>` is the hook client Claude Code runs at every
// session start, so it is dispatched here, before commander and the rest of the CLI are
// loaded (tens of milliseconds on each session start); everything else is in program.ts.
import { fileURLToPath } from 'node:url';

const [command, ...rest] = process.argv.slice(2);
if (command === 'hook') {
  const { runClientProcess } = await import('../../hooks/client.js');
  // dist/daemon/cli/main.js → dist/daemon/main.js, without reading package.json.
  await runClientProcess(rest, fileURLToPath(new URL('../main.js', import.meta.url)));
} else {
  await import('./program.js');
}
