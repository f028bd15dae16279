// Where `mktemp` makes its file or folder, which is also the name it prints: a command that
// writes to `"$(mktemp)"` or to `$tmp` after `tmp=$(mktemp)` writes there. GNU mktemp's rules:
//   no template           tmp.XXXXXXXXXX in -p DIR, --tmpdir=DIR, $TMPDIR or /tmp
//   TEMPLATE              relative to the working directory (`mktemp notes.XXXX` makes ./notes.Ab12)
//   -p DIR / --tmpdir[=DIR] TEMPLATE   relative to that folder ($TMPDIR or /tmp without one)
//   -t TEMPLATE           in $TMPDIR when it is set, else -p DIR, else /tmp
// The name is the template with its last run of three or more X's replaced (`--suffix` added).
import { hasOption, lastOptionValue, parseArgv } from './argv.js';
import type { Arg } from './words.js';

export interface MktempTarget {
  /** The path as a glob (`/tmp/tmp.*`, `notes.*`): relative to the working directory when not absolute. */
  readonly glob: string;
  /** Part of it is only known at run time (the template or the folder): the glob is then as rendered. */
  readonly dynamic: boolean;
  /** `-u`: a name is printed, nothing is made. */
  readonly dryRun: boolean;
}

/**
 * `tmpdir` is TMPDIR as the command left it: a folder, `$TMPDIR` when it was set to something
 * only known at run time, or undefined when the command does not set it (then /tmp).
 */
export function mktempTarget(args: readonly Arg[], tmpdir: string | undefined): MktempTarget {
  // --tmpdir takes its folder only after `=`; `--tmpdir notes.XXX` is a template.
  const parsed = parseArgv(args.map(spelledOut), { short: 'p', long: ['suffix'] });
  const template = parsed.operands[0];
  const folder = lastOptionValue(parsed, '-p', '--tmpdir');
  const inTmpdir = template === undefined || folder !== undefined || hasOption(parsed, '--tmpdir', '-t');
  const suffix = lastOptionValue(parsed, '--suffix');
  const name = `${template === undefined ? 'tmp.*' : lastXsReplaced(template.value)}${suffix?.value ?? ''}`;
  const dynamic = template?.dynamic === true || folder?.dynamic === true || suffix?.dynamic === true;
  const dryRun = hasOption(parsed, '-u', '--dry-run');
  if (!inTmpdir || name.startsWith('/')) return { glob: name, dynamic, dryRun };
  // -t puts TMPDIR before -p; -p and --tmpdir=DIR otherwise win over it.
  const base = hasOption(parsed, '-t') ? (tmpdir ?? folder?.value ?? '/tmp') : (folder?.value ?? tmpdir ?? '/tmp');
  return { glob: `${base.replace(/\/+$/, '')}/${name}`, dynamic, dryRun };
}

const LONG_OPTIONS = ['--directory', '--dry-run', '--quiet', '--suffix', '--tmpdir', '--help', '--version'];

/** A long option as getopt_long reads it, any unambiguous shortening spelled out (`--t=DIR` is `--tmpdir=DIR`). */
function spelledOut(arg: Arg): Arg {
  if (arg.dynamic || !arg.value.startsWith('--') || arg.value === '--') return arg;
  const eq = arg.value.indexOf('=');
  const name = eq === -1 ? arg.value : arg.value.slice(0, eq);
  const matches = LONG_OPTIONS.filter((option) => option.startsWith(name));
  return matches.length === 1 ? { ...arg, value: `${matches[0]}${eq === -1 ? '' : arg.value.slice(eq)}` } : arg;
}

function lastXsReplaced(template: string): string {
  const match = /X{3,}(?!.*X{3})/.exec(template);
  return match === null ? `${template}*` : `${template.slice(0, match.index)}*${template.slice(match.index + match[0].length)}`;
}
