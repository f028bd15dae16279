// A/B: alternate two builds in separate processes? No: load both in one process, alternate per round.
import { commandSpread, uniqueCopy, CTX } from './spread.ts';
const A = await import('/tmp/dist-base/workflows/index.js');
const B = await import('/work/main/dist/workflows/index.js');
const spread = commandSpread().filter((e) => e.command.length > 3000 && /script|bash/.test(e.label));
let serial = 0; const gc = (globalThis as any).gc;
const res: Record<string, number[]> = {};
for (let r = 0; r < 6000; r++) for (const [name, m] of [['A', A], ['B', B]] as const) for (const e of spread) {
  const c = uniqueCopy(e.command, serial++); gc({ type: 'minor' });
  const t0 = process.hrtime.bigint(); m.analyzeShellCommand(c, CTX); const ms = Number(process.hrtime.bigint() - t0) / 1e3;
  if (r > 1000) (res[`${name} ${e.label}`] ??= []).push(ms);
}
for (const [k, v] of Object.entries(res)) { v.sort((a, b) => a - b); console.log(k.padEnd(24), 'p50', v[v.length >> 1]!.toFixed(1), 'p90', v[Math.floor(v.length * .9)]!.toFixed(1)); }
