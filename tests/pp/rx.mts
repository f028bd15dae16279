import { commandSpread } from './spread.ts';
const ASSIGNS_HOME = /(?:^|[^$\w{])HOME\b/; // check actual
const SETS = /\(\(|\$\{[^}]*=|\bIFS\b|printf\s+-v|export\s+-|(?:^|[\s;&|(`])(?:let|declare|typeset|local|readonly|read|mapfile|readarray|getopts|source|\.|unset|set|shopt|coproc|select|alias)(?=[\s;&|)]|$)/;
for (const e of commandSpread().filter((x) => x.command.length > 3000)) {
  for (const [n, rx] of [['HOME', ASSIGNS_HOME], ['SETS', SETS]] as const) {
    let t = 0; const N = 20000;
    for (let i = 0; i < N; i++) { const c = e.command + '\n#' + i; c.indexOf('\0'); const t0 = process.hrtime.bigint(); rx.test(c); t += Number(process.hrtime.bigint() - t0); }
    console.log(e.label, n, (t / N / 1000).toFixed(2), 'µs');
  }
}
