import { readdirSync, readFileSync } from 'node:fs';
const dir = '/tmp/prof'; const f = readdirSync(dir)[0];
const p = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
const byId = new Map(p.nodes.map((n: any) => [n.id, n]));
const self = new Map<string, number>();
const dt = p.timeDeltas; let total = 0;
p.samples.forEach((id: number, i: number) => { const n: any = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\/work\/main\//, '')}:${n.callFrame.lineNumber + 1}`; self.set(k, (self.get(k) ?? 0) + dt[i]); total += dt[i]; });
const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, 45);
for (const [k, v] of rows) console.log((v / total * 100).toFixed(1).padStart(5), k);
// by file
const byFile = new Map<string, number>();
for (const [k, v] of self) { const file = k.split(' ')[1]?.replace(/:\d+$/, '') ?? '?'; byFile.set(file, (byFile.get(file) ?? 0) + v); }
console.log('---');
for (const [k, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log((v / total * 100).toFixed(1).padStart(5), k);
