import { uniqueCopy, CTX } from './spread.ts';
import { analyzeShellCommand } from '../../dist/workflows/index.js';
const s = process.argv[2]!;
let serial = 0; const gc = (globalThis as any).gc;
for (let r = 0; r < 300000; r++) { const c = uniqueCopy(s, serial++); if (r % 100 === 0) gc({ type: 'minor' }); analyzeShellCommand(c, CTX); }
