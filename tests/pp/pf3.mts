import { commandSpread, uniqueCopy, CTX } from './spread.ts';
import { analyzeShellCommand } from '../../dist/workflows/index.js';
import { createIdleCollector } from '../../dist/daemon/idle-collector.js';
const spread = commandSpread();
const col = createIdleCollector();
let serial = 0;
const pf = spread.map(() => 0); const tm = spread.map(() => 0);
for (let r = 0; r < 1500; r++) spread.forEach((e, i) => {
  const c = uniqueCopy(e.command, serial++);
  col.collectIfWorthIt();
  const a = process.resourceUsage().minorPageFault;
  const t0 = process.hrtime.bigint();
  analyzeShellCommand(c, CTX);
  const t1 = process.hrtime.bigint();
  const b = process.resourceUsage().minorPageFault;
  if (r >= 500) { pf[i] += b - a; tm[i] += Number(t1 - t0) / 1e6; }
});
spread.forEach((e, i) => { if (e.command.length > 1000) console.log(e.label, 'faults/cmd', (pf[i]! / 1000).toFixed(1), 'ms', (tm[i]! / 1000).toFixed(3)); });
