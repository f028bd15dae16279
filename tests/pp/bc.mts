import { commandSpread, uniqueCopy, CTX } from './spread.ts';
import { analyzeShellCommand } from '../../dist/workflows/index.js';
const sp = commandSpread();
const script = sp.find((x) => x.label === '4 KB script')!.command;
const bc = sp.find((x) => x.label === '4 KB bash -c')!.command;
const inner = bc.slice(9, -1).replace(/'\\''/g, "'");
let serial = 0; const gc = (globalThis as any).gc;
const med = (c0: string) => { const t: number[] = []; for (let r = 0; r < 6000; r++) { const c = uniqueCopy(c0, serial++); gc({ type: 'minor' }); const t0 = process.hrtime.bigint(); analyzeShellCommand(c, CTX); t.push(Number(process.hrtime.bigint() - t0) / 1e3); } t.sort((a, b) => a - b); return t[t.length >> 1]!.toFixed(1); };
for (let k = 0; k < 2; k++) console.log('script', med(script), 'inner', med(inner), 'bash -c', med(bc), 'inner len', inner.length, 'script len', script.length);
