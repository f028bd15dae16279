import { uniqueCopy, CTX } from './spread.ts';
import { analyzeShellCommand } from '../../dist/workflows/index.js';
let serial = 0; const gc = (globalThis as any).gc;
for (const s of process.argv.slice(2)) {
  const t: number[] = [];
  for (let r = 0; r < 20000; r++) { const c = uniqueCopy(s, serial++); if (r % 50 === 0) gc({ type: 'minor' }); const t0 = process.hrtime.bigint(); analyzeShellCommand(c, CTX); t.push(Number(process.hrtime.bigint() - t0) / 1e3); }
  t.sort((a, b) => a - b); console.log(t[t.length >> 1]!.toFixed(2).padStart(7), s);
}
