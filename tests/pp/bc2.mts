import { commandSpread, uniqueCopy, CTX } from './spread.ts';
import { analyzeShellCommand } from '../../dist/workflows/index.js';
import { parse } from 'unbash';
const sp = commandSpread();
const bc = sp.find((x) => x.label === '4 KB bash -c')!.command;
let serial = 0;
const med = (f: (c: string) => unknown) => { const t: number[] = []; for (let r = 0; r < 6000; r++) { const c = uniqueCopy(bc, serial++); const t0 = process.hrtime.bigint(); f(c); t.push(Number(process.hrtime.bigint() - t0) / 1e3); } t.sort((a, b) => a - b); return t[t.length >> 1]!.toFixed(1); };
for (let k = 0; k < 2; k++) console.log('outer parse', med((c) => parse(c)), 'outer parse + word parts', med((c) => { const s: any = parse(c); const w = s.commands[0].command.suffix[1]; return [w.text, w.parts?.length]; }));
