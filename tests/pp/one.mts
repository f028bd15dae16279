import { commandSpread, uniqueCopy, CTX } from './spread.ts';
import { analyzeShellCommand } from '../../dist/workflows/index.js';
const e = commandSpread().find((x) => x.label === process.argv[2])!;
let serial = 0; const gc = (globalThis as any).gc;
const t: number[] = [];
for (let r = 0; r < Number(process.argv[3] ?? 20000); r++) { const c = uniqueCopy(e.command, serial++); gc({ type: 'minor' }); const t0 = process.hrtime.bigint(); analyzeShellCommand(c, CTX); t.push(Number(process.hrtime.bigint() - t0) / 1e6); }
t.sort((a, b) => a - b); console.log(e.label, 'p50', t[t.length >> 1]!.toFixed(4));
