import { readdirSync, readFileSync } from 'node:fs';
const dir = '/tmp/prof'; const f = readdirSync(dir)[0];
const p = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
const m = new Map<string, number>(); let total = 0;
for (const n of p.nodes) for (const pt of n.positionTicks ?? []) { const k = `${n.callFrame.url.replace(/.*\/work\/main\//, '')}:${pt.line} ${n.callFrame.functionName}`; m.set(k, (m.get(k) ?? 0) + pt.ticks); }
const byId = new Map(p.nodes.map((n: any) => [n.id, n])); for (const s of p.samples) { const n: any = byId.get(s); if (n.callFrame.functionName !== '(garbage collector)' && n.callFrame.functionName !== '(idle)' && n.callFrame.functionName !== '(program)') total++; }
for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[2] ?? 50))) console.log((v / total * 100).toFixed(1).padStart(5), k);
