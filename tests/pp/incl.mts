import { readdirSync, readFileSync } from 'node:fs';
const dir = '/tmp/prof'; const f = readdirSync(dir)[0];
const p = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map<string, number>(); let total = 0;
p.samples.forEach((id: number, i: number) => {
  const dt = p.timeDeltas[i]; total += dt;
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\/work\/main\//, '').replace('dist/workflows/shell/', '')}:${n.callFrame.lineNumber + 1}`;
    if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + dt); }
  }
});
const filter = process.argv[2] ? new RegExp(process.argv[2]) : /./;
for (const [k, v] of [...incl].filter(([k]) => filter.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log((v / total * 100).toFixed(1).padStart(5), k);
