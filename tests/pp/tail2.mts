import { commandSpread, uniqueCopy, CTX } from './spread.ts';
import { analyzeShellCommand } from '../../dist/workflows/index.js';
import { createIdleCollector } from '../../dist/daemon/idle-collector.js';
import { PerformanceObserver } from 'node:perf_hooks';
const spread = commandSpread();
const col = createIdleCollector();
let serial = 0;
const R = 2300;
const rec: { r: number; i: number; ms: number; t: number }[] = [];
let gcs: any[] = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) gcs.push({ st: e.startTime, d: e.duration, k: (e as any).detail?.kind, f: (e as any).detail?.flags }); }).observe({ entryTypes: ['gc'] });
const start = performance.now();
for (let r = 0; r < R; r++) spread.forEach((e, i) => {
  const c = uniqueCopy(e.command, serial++);
  col.collectIfWorthIt();
  const t = performance.now();
  const t0 = process.hrtime.bigint();
  analyzeShellCommand(c, CTX);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r >= 300 && e.command.length > 3000) rec.push({ r, i, ms, t });
});
await new Promise((r) => setTimeout(r, 100));
const s = rec.map((x) => x.ms).sort((a, b) => a - b);
const q = (p: number) => s[Math.floor(s.length * p)]!.toFixed(3);
console.log('n', s.length, 'p50', q(.5), 'p90', q(.9), 'p95', q(.95), 'p98', q(.98), 'p99', q(.99), 'p995', q(.995));
const thr = s[Math.floor(s.length * .99)]!;
const slow = rec.filter((x) => x.ms >= thr);
// How many slow ones had a GC start within their timed window?
const withGc = slow.filter((x) => gcs.some((g) => g.st >= x.t - 0.01 && g.st <= x.t + x.ms + 0.01)).length;
console.log('slow', slow.length, 'withGc', withGc, 'by cmd', JSON.stringify(slow.reduce((m: any, x) => ((m[x.i] = (m[x.i] ?? 0) + 1), m), {})));
// clustering: rounds of slow ones
console.log('rounds', slow.map((x) => x.r).join(' '));

const ov = slow.flatMap((x) => gcs.filter((g) => g.st >= x.t - 0.01 && g.st <= x.t + x.ms + 0.01).map((g) => `${g.k}/${g.f}/${g.d.toFixed(3)}@${(g.st - x.t).toFixed(3)}of${x.ms.toFixed(3)}`));
console.log(ov.slice(0, 30).join(' '));
console.log('all gcs', gcs.length, 'kinds', JSON.stringify(gcs.reduce((m: any, g) => ((m[`${g.k}/${g.f}`] = (m[`${g.k}/${g.f}`] ?? 0) + 1), m), {})));
