import { commandSpread, uniqueCopy, CTX } from './spread.ts';
import { analyzeShellCommand } from '../../dist/workflows/index.js';
import { createIdleCollector } from '../../dist/daemon/idle-collector.js';
const spread = commandSpread();
const junk = new Float64Array((Number(process.env.THRASH ?? 0) * 1024 * 1024) / 8); let junkSum = 0;
const col = createIdleCollector();
let serial = 0;
const which = spread.findIndex((e) => e.label === (process.argv[2] ?? '4 KB setup script'));
const t: number[] = []; const yes: number[] = []; const no: number[] = []; const seq: number[] = [];
for (let r = 0; r < 3300; r++) spread.forEach((e, i) => {
  const c = uniqueCopy(e.command, serial++);
  if (junk.length) { for (let k = 0; k < junk.length; k += 8) junk[k] += 1; junkSum += junk[5]!; }
  const did = process.env.NOCOL ? false : col.collectIfWorthIt();
  const t0 = process.hrtime.bigint();
  analyzeShellCommand(c, CTX);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r >= 300 && i === which) { t.push(ms); seq.push(ms); (did ? yes : no).push(ms); }
});
const h = new Map<number, number>();
for (const x of t) { const b = Math.floor(x * 100) / 100; h.set(b, (h.get(b) ?? 0) + 1); }
if (process.env.H) for (const [b, n] of [...h].sort((a, b) => a[0] - b[0])) console.log(b.toFixed(2), String(n).padStart(5), '#'.repeat(Math.ceil(n / 20)));
// autocorrelation: slow followed by slow?
const s = [...t].sort((a, b) => a - b); const thr = s[Math.floor(s.length * 0.9)]!;
let ss = 0, sl = 0; for (let i = 1; i < seq.length; i++) if (seq[i - 1]! >= thr) { sl++; if (seq[i]! >= thr) ss++; }
console.log('P(slow|prev slow)', (ss / sl).toFixed(2), 'base 0.10');

const q = (a: number[], p: number) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length * p)]?.toFixed(3); };
console.log('collected before', yes.length, q(yes, .5), q(yes, .9), q(yes, .99), 'not', no.length, q(no, .5), q(no, .9), q(no, .99));
console.log('all', q(t, .5), q(t, .75), q(t, .9), q(t, .99));
