import { commandSpread } from './spread.ts';
import { writeFileSync } from 'node:fs';
writeFileSync('/tmp/heavy.json', JSON.stringify(['4 KB script', '4 KB setup script', '4 KB bash -c'].map((l) => commandSpread().find((e) => e.label === l)!.command)));
