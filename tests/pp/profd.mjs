import { analyzeShellCommand } from '/work/main/dist/workflows/index.js';
import { readFileSync } from 'node:fs';
const cmds = JSON.parse(readFileSync('/tmp/heavy.json', 'utf8'));
const CTX = { cwd: '/home/dev/project', home: '/home/dev', projectRoot: '/home/dev/project' };
let serial = 0;
const gc = globalThis.gc;
for (let i = 0; i < 15000; i++) for (const c of cmds) { if (gc && i % 1 === 0) gc({ type: 'minor' }); analyzeShellCommand(`${c}\n#${serial++}`, CTX); }
