import { commandSpread, uniqueCopy, CTX } from './spread.ts';
import { analyzeShellCommand } from '../../dist/workflows/index.js';
const label = process.argv[2] ?? '4 KB setup script';
const e = commandSpread().find((x) => x.label === label)!;
const lines = e.command.split('\n');
// group here-docs: lines until terminator
const stmts: string[] = []; let cur: string[] = []; let term: string | undefined;
for (const l of lines) { cur.push(l); const m = /<<-?'?(\w+)'?/.exec(l); if (term === undefined && m) { term = m[1]; continue; } if (term !== undefined) { if (l === term) { term = undefined; } else continue; } stmts.push(cur.join('\n')); cur = []; }
let serial = 0; const gc = (globalThis as any).gc;
const res: [number, string][] = [];
let total = 0;
for (const s of stmts) {
  const t: number[] = [];
  for (let r = 0; r < 3000; r++) { const c = uniqueCopy(s, serial++); if (r % 50 === 0) gc({ type: 'minor' }); const t0 = process.hrtime.bigint(); analyzeShellCommand(c, CTX); t.push(Number(process.hrtime.bigint() - t0) / 1e3); }
  t.sort((a, b) => a - b); const m = t[t.length >> 1]!; total += m; res.push([m, s.slice(0, 110).replace(/\n/g, '⏎')]);
}
console.log('stmts', stmts.length, 'sum of medians µs', total.toFixed(1));
const agg = new Map<string, [number, number, string]>();
for (const [m, s] of res) { const k = s.replace(/api\d+/g, 'api'); const a = agg.get(k) ?? [0, 0, s]; a[0] += m; a[1]++; agg.set(k, a); }
for (const [k, [m, n]] of [...agg].sort((a, b) => b[1][0] - a[1][0])) console.log(m.toFixed(1).padStart(7), n, k);
