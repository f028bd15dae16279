// Where `mktemp` makes its file or folder, which is also the name it prints: a command that
// writes to `"$(mktemp)"` or to `$tmp` after `tmp=$(mktemp)` writes there. GNU mktemp's rules:
//   no template           tmp.XXXXXXXXXX in -p DIR, --tmpdir=DIR, $TMPDIR or /tmp
//   TEMPLATE              relative to the working directory (`mktemp notes.XXXX` makes ./notes.Ab12)
//   -p DIR / --tmpdir[=DIR] TEMPLATE   relative to that folder ($TMPDIR or /tmp without one)
//   -t TEMPLATE           in $TMPDIR when it is set, else -p DIR, else /tmp
// The name is the template with its last run of three or more X's replaced (`--suffix` added).
import { hasOption, lastOptionValue, parseArgv } from './argv.js';
import type { Arg } from './words.js';

/** `$(mktemp -d)`, `$(mktemp -dt build.XXXX)`: a folder in TMPDIR or /tmp, with no folder of its own given (`-p`). */
const MKTEMP_IN_TMP = String.raw`\$\(mktemp(?:\s+-[dqu]+|\s+-[dqu]*t\s+[\w.-]+)*\)`;
/** `NAME=$(mktemp -d)`: a variable that holds such a folder. */
const ASSIGNED_FROM_MKTEMP = new RegExp(String.raw`\b([A-Za-z_]\w*)=(["']?)${MKTEMP_IN_TMP}\2`, 'g');
/** `TMPDIR=$(mktemp -d)` or `TMPDIR=$NAME`, as a whole value. */
const TMPDIR_ASSIGNED = new RegExp(String.raw`\bTMPDIR=(["']?)(?:${MKTEMP_IN_TMP}|\$\{?([A-Za-z_]\w*)\}?)\1(?=[\s;&|)]|$)`, 'g');

/**
 * Whether the command sets TMPDIR to anything but a folder mktemp made (`TMPDIR=$(mktemp -d) npm
 * test`, `d=$(mktemp -d); export TMPDIR=$d`). Such a TMPDIR is itself below /tmp, so every name
 * mktemp makes in it is too, and mktemp's names can be known before the command runs.
 */
export function setsTmpdirElsewhere(command: string): boolean {
  if (!command.includes('TMPDIR')) return false;
  const madeByMktemp = new Set(['TMPDIR']);
  // A name assigned once, from mktemp (`d=$(mktemp -d); d=.claude` holds no such folder).
  for (const match of command.matchAll(ASSIGNED_FROM_MKTEMP)) if (command.split(`${match[1]!}=`).length === 2) madeByMktemp.add(match[1]!);
  const rest = command.replace(TMPDIR_ASSIGNED, (whole, _quote: string, name: string | undefined) => (name === undefined || madeByMktemp.has(name) ? '' : whole));
  // What is left names TMPDIR other than to read it (`$TMPDIR`, `${TMPDIR}`).
  return /\bTMPDIR\b/.test(rest.replace(/\$\{?TMPDIR\}?/g, ''));
}

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
