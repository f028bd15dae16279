#!/usr/bin/env node
// The `gobby` executable. `gobby statusline` runs on every refresh of Claude Code's status
// line, so it goes straight to its own small module; loading the full CLI first (commander,
// the zod contracts) would add about 300 ms to each refresh. Everything else is main.ts.
const [command, ...rest] = process.argv.slice(2);
if (command === 'statusline') {
  const { statusLineMain } = await import('./statusline-command.js');
  await statusLineMain(rest);
} else {
  await import('./main.js');
}
