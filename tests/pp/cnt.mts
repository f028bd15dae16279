import { commandSpread, CTX } from './spread.ts';
const { analyzeShellCommand } = await import('/tmp/distc/workflows/index.js');
for (const label of ['4 KB setup script', '4 KB script', '4 KB bash -c']) {
  const e = commandSpread().find((x) => x.label === label)!;
  (globalThis as any).__c = {};
  analyzeShellCommand(e.command + '\n#1', CTX);
  const c = (globalThis as any).__c;
  console.log(label, JSON.stringify(Object.entries(c).sort((a: any, b: any) => b[1] - a[1])));
}
