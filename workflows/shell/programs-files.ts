// Programs that read or change files: the read-only tools a developer runs all day, and the
// writers with their per-flag rules (which operand is the destination, which flag makes a
// reader write: `sed -i`, `sort -o`, `tree -o`).
import { hasOption, lastOptionValue, optionValues, parseArgv, type OptionSpec, type ParsedArgv } from './argv.js';
import { inspectAwkProgram } from './awk-program.js';
import {
  deletesOperands,
  entries,
  everythingBelow,
  filesNamedByData,
  inEachDirectory,
  NAMED_IN_A_LIST,
  noEffect,
  onlyAsksVersion,
  operandsOf,
  readerOptions,
  readsOperands,
  withReaderOptions,
  workingDirectory,
  writesOperands,
  type CommandSite,
  type ProgramEntry,
  type ProgramHandler,
  type ShellEffects,
  writesOutputOptions,
} from './program-kit.js';
import { mktempTarget } from './mktemp.js';
import { baseName, dirName, resolveAgainst } from './paths.js';
import { selectedBelow, skippedBelow } from './find-expression.js';
import { mayBacktrackBadly } from './regex-safety.js';
import { inspectSedScript } from './sed-script.js';
import type { PathRef } from './types.js';
import { literalArg, type Arg } from './words.js';

/** Programs that print or compute and touch no file: their operands are data, not paths. */
const PURE_PROGRAMS = [
  'echo', 'printf', 'pwd', 'true', 'false', 'test', '[', ':', 'sleep', 'uname', 'whoami', 'id', 'groups',
  'uptime', 'nproc', 'arch', 'free', 'ps', 'pgrep', 'pidof', 'top', 'lsof', 'ss', 'netstat', 'locale', 'tty',
  'getconf', 'seq', 'yes', 'expr', 'factor', 'basename', 'dirname', 'which', 'whereis', 'type', 'cal',
  'printenv', 'tput', 'clear', 'numfmt', 'tr', 'logname', 'users', 'who', 'w', 'lscpu', 'lsblk', 'vmstat',
  'iostat', 'mpstat', 'sensors', 'jobs', 'dirs', 'umask', 'ulimit', 'times', 'shift', 'return',
  'exit', 'break', 'continue', 'wait', 'set', 'unset', 'shopt', 'getopts', 'let', 'local', 'declare',
  'typeset', 'readonly', 'export', 'read', 'unalias', 'caller', 'disown', 'help', 'hash',
  'compgen', 'complete', 'compopt', 'bc', 'date', 'hostname', 'realpath', 'readlink', 'dmesg', 'c++filt',
  'arp', 'getent', 'lsmod', 'last', 'lastlog', 'nvidia-smi', 'pkg-config', 'sw_vers', 'pg_isready', 'lsusb', 'lspci',
];

/** journalctl only reads logs, unless told to rotate, flush or vacuum them (the system's logs, which gobby does not judge). */
const journalctl: ProgramHandler = (site, fx) => {
  const maintenance = site.args.find((arg) => /^--(?:vacuum-|rotate|flush|relinquish-var|sync|setup-keys|update-catalog)/.test(arg.value));
  if (maintenance) fx.unknown(`journalctl ${maintenance.value.split('=')[0]}`);
};

export const AG_OPTIONS: OptionSpec = { short: 'GgABCmp', long: ['ignore', 'ignore-dir', 'file-search-regex', 'depth', 'max-count', 'after', 'before', 'context', 'path-to-ignore', 'pager', 'type', 'ignore-file'] };
export const DU_OPTIONS: OptionSpec = { short: 'dBtX', long: ['max-depth', 'block-size', 'threshold', 'exclude', 'exclude-from', 'files0-from', 'time', 'time-style'] };
export const GREP_OPTIONS: OptionSpec = { short: 'efmABCdD', long: ['regexp', 'file', 'max-count', 'after-context', 'before-context', 'context', 'directories', 'devices', 'include', 'exclude', 'exclude-dir', 'exclude-from', 'label', 'binary-files', 'color', 'colour', 'group-separator'] };

/** Read-only programs whose operands are files, with the options that take a value. */
const READERS: readonly (readonly [readonly string[], OptionSpec, number, ('cwd' | 'tree')?])[] = [
  [['cat', 'tac', 'rev', 'more', 'most', 'wc', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'sha224sum', 'sha384sum', 'b2sum', 'cksum', 'sum', 'comm', 'cmp', 'zcat', 'bzcat', 'xzcat', 'zless', 'lsattr', 'getfacl', 'tsort', 'shasum'],
    { short: 'a', long: ['files0-from', 'algorithm', 'bytes', 'ignore-initial'] }, 0],
  [['ls', 'dir', 'vdir'], { short: 'ITw', long: ['ignore', 'hide', 'tabsize', 'width', 'block-size', 'time', 'time-style', 'sort', 'format', 'quoting-style', 'indicator-style', 'color'] }, 0],
  [['du'], DU_OPTIONS, 0],
  [['df'], { short: 'tBx', long: ['type', 'exclude-type', 'block-size', 'output'] }, 0],
  [['stat'], { short: 'c', long: ['format', 'printf'] }, 0],
  [['head', 'tail'], { short: 'ncs', long: ['lines', 'bytes', 'sleep-interval', 'pid', 'max-unchanged-stats'] }, 0],
  [['nl'], { short: 'bdfhilnsvw', long: [] }, 0],
  [['cut'], { short: 'bcdf', long: ['bytes', 'characters', 'delimiter', 'fields', 'output-delimiter'] }, 0],
  [['paste'], { short: 'd', long: ['delimiters'] }, 0],
  [['join'], { short: '12jtoe', long: [] }, 0],
  [['od', 'hexdump', 'hd'], { short: 'AtjNwnsef', long: ['address-radix', 'format', 'skip-bytes', 'read-bytes', 'width'] }, 0],
  [['strings'], { short: 'ntTe', long: ['bytes', 'radix', 'encoding', 'target'] }, 0],
  // Object-file inspectors print what a binary holds; none runs it (ldd would, so it is not here).
  [['nm', 'size', 'addr2line'], { short: 'te', long: ['format', 'radix', 'target', 'exe'] }, 0],
  [['objdump'], { short: 'jMbm', long: ['section', 'disassembler-options', 'target', 'architecture', 'start-address', 'stop-address', 'prefix', 'prefix-strip', 'dwarf'] }, 0],
  [['readelf', 'eu-readelf'], { short: 'xpR', long: ['hex-dump', 'string-dump', 'relocated-dump', 'debug-dump'] }, 0],
  [['javap', 'diffstat', 'ffprobe'], { short: '', long: ['classpath', 'cp', 'show_entries', 'select_streams', 'of', 'print_format'] }, 0],
  [['base64', 'base32', 'basenc'], { short: 'w', long: ['wrap'] }, 0],
  [['column'], { short: 'tsceoNRHWOcl', long: [] }, 0],
  [['fold', 'fmt'], { short: 'wgp', long: ['width', 'goal', 'prefix'] }, 0],
  [['expand', 'unexpand'], { short: 't', long: ['tabs'] }, 0],
  [['grep', 'egrep', 'fgrep', 'zgrep'], GREP_OPTIONS, -1],
  [['ack'], AG_OPTIONS, 1, 'tree'],
  [['tree'], { short: 'LPIHT', long: ['charset', 'filelimit', 'timefmt', 'sort'] }, 0, 'cwd'],
];

const AG_READER_OPTIONS = withReaderOptions(AG_OPTIONS);

/**
 * ag and pt search the trees they are given (the working directory without one), leaving out names
 * that start with a dot unless told not to (`--hidden`, `-u`/`--unrestricted`), as rg does. With
 * `-g PATTERN` they list file names and take no search pattern.
 */
const agLike: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, AG_READER_OPTIONS);
  readerOptions(site, parsed, fx); // `--pager CMD`
  const skipsDotNames = !site.args.some((arg) => arg.dynamic || /^(?:--hidden|--unrestricted|--search-zip)$|^-[a-zA-Z]*u/.test(arg.value));
  const files = operandsOf(parsed, site).slice(hasOption(parsed, '-g', '--file-search-regex') ? 0 : 1);
  for (const file of files.length > 0 ? files : [literalArg('.')]) if (file.value !== '-') fx.readTree(site.program, file, { skipsDotNames });
};

/** jq's options that take two words: a name, then a value (`--arg v 1`) or a file it reads (`--slurpfile s a.json`). */
const JQ_NAMED_VALUES = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
const JQ_OPTIONS: OptionSpec = { short: 'fL', long: ['indent', 'from-file', 'arg', 'argjson', 'slurpfile', 'rawfile', 'args', 'jsonargs'] };
const jqSearch = searchHandler(JQ_OPTIONS);

/** jq: the name of a two-word option is dropped, so its value is what the option takes; the files of `--slurpfile`/`--rawfile` are read. */
const jq: ProgramHandler = (site, fx) => {
  const args: Arg[] = [];
  for (let i = 0; i < site.args.length; i++) {
    const arg = site.args[i]!;
    args.push(arg);
    if (arg.value === '--') {
      args.push(...site.args.slice(i + 1));
      break;
    }
    if (!arg.dynamic && JQ_NAMED_VALUES.has(arg.value)) {
      const value = site.args[i + 2];
      if (value !== undefined && (arg.value === '--slurpfile' || arg.value === '--rawfile')) fx.read(site.program, value);
      i++; // the name
    }
  }
  jqSearch({ ...site, args }, fx);
};

function searchHandler(spec: OptionSpec): ProgramHandler {
  // grep/jq: the first operand is the pattern or filter unless one was given by -e/-f.
  const recursive = spec === GREP_OPTIONS;
  return (site, fx) => {
    const parsed = parseArgv(site.args, spec);
    const patternGiven = hasOption(parsed, '-e', '--regexp', '-f', '--file', '--from-file');
    for (const file of optionValues(parsed, '-f', '--file', '--from-file')) fx.read(site.program, file);
    const files = operandsOf(parsed, site).slice(patternGiven ? 0 : 1);
    const tree = recursive && hasOption(parsed, '-r', '-R', '--recursive', '--dereference-recursive');
    const read = tree ? fx.readTree : fx.read;
    for (const file of files) if (file.value !== '-') read.call(fx, site.program, file);
    if (files.length === 0 && tree) fx.readTree(site.program, workingDirectory(fx));
  };
}

export const RG_OPTIONS: OptionSpec = {
  short: 'efgtTmABCjMErd',
  long: ['regexp', 'file', 'glob', 'iglob', 'type', 'type-not', 'type-add', 'type-clear', 'max-count', 'after-context', 'before-context', 'context', 'threads', 'max-columns', 'encoding', 'replace', 'max-depth', 'sort', 'sortr', 'ignore-file', 'pre', 'pre-glob', 'color', 'colors', 'path-separator', 'max-filesize', 'engine', 'field-match-separator', 'field-context-separator', 'context-separator', 'dfa-size-limit', 'regex-size-limit', 'hostname-bin', 'hyperlink-format'],
};

const rg: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, RG_OPTIONS);
  // --pre runs a program of the agent's choosing on every file searched.
  // Each file searched is its argument: it changes, or reads, what the search walks (`rg --pre rm --hidden x`).
  for (const pre of optionValues(parsed, '--pre')) {
    fx.opaque(`rg --pre runs \`${pre.value}\` on every file it searches`, 'rg');
    fx.run([pre], { stdinArgs: true });
  }
  for (const host of optionValues(parsed, '--hostname-bin')) fx.opaque(`rg --hostname-bin runs \`${host.value}\``, 'rg');
  const listsOnly = hasOption(parsed, '--files', '--type-list');
  const patternGiven = listsOnly || hasOption(parsed, '-e', '--regexp', '-f', '--file');
  const files = operandsOf(parsed, site).slice(patternGiven ? 0 : 1);
  // rg leaves out dot names below its folders unless told to search them (`--hidden`, `-.`, `-uu`),
  // or given globs or ignore files of its own, which can take them back (`-g '*'`), or a config file.
  const skipsDotNames = !site.args.some((arg) => arg.dynamic || /^(?:--hidden|-\.|--unrestricted|--no-ignore[\w-]*|--glob|--iglob|--ignore-file|--pre-glob)(?:=|$)|^-[a-zA-Z.]*[u.g]/.test(arg.value)) && optionValues(parsed, '-g', '--glob', '--iglob', '--ignore-file').length === 0;
  const read = (file: Arg | PathRef): void => (listsOnly ? fx.read('rg', file) : fx.readTree('rg', file, { skipsDotNames }));
  for (const file of files) if (file.value !== '-') read(file);
  if (files.length === 0) read(workingDirectory(fx));
};

const fd: ProgramHandler = (site, fx) => {
  const execAt = site.args.findIndex((arg) => ['-x', '--exec', '-X', '--exec-batch'].includes(arg.value));
  const own = execAt === -1 ? site.args : site.args.slice(0, execAt);
  const parsed = parseArgv(own, { short: 'etEdcjSoC', long: ['extension', 'type', 'exclude', 'max-depth', 'min-depth', 'exact-depth', 'color', 'threads', 'size', 'changed-within', 'changed-before', 'owner', 'base-directory', 'search-path', 'path-separator', 'max-results', 'ignore-file', 'format'] });
  const roots = operandsOf(parsed, site).slice(1);
  for (const root of roots) fx.read('fd', root);
  if (roots.length === 0) fx.read('fd', workingDirectory(fx));
  if (execAt !== -1) fx.run(site.args.slice(execAt + 1).filter((arg) => arg.value !== ';'), { stdinArgs: true });
};

const sortHandler: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'ktSTo', long: ['key', 'field-separator', 'buffer-size', 'temporary-directory', 'output', 'compress-program', 'files0-from', 'random-source', 'parallel', 'batch-size'] });
  for (const program of optionValues(parsed, '--compress-program')) fx.opaque(`sort --compress-program runs \`${program.value}\``, 'sort');
  for (const out of optionValues(parsed, '-o', '--output')) fx.write('sort', out);
  for (const file of operandsOf(parsed, site)) if (file.value !== '-') fx.read('sort', file);
};

/** `uniq in out`, `xxd in out`: the second operand is written. */
function inputThenOutput(spec: OptionSpec): ProgramHandler {
  return (site, fx) => {
    const operands = operandsOf(parseArgv(site.args, spec), site);
    if (operands[0] && operands[0].value !== '-') fx.read(site.program, operands[0]);
    if (operands[1] && operands[1].value !== '-') fx.write(site.program, operands[1]);
  };
}

/** Readers with an output-file option (`tree -o f`, `shuf -o f`, `iconv -o f`, `sdiff -o f`). */
function readsWithOutput(spec: OptionSpec, outputs: readonly string[]): ProgramHandler {
  return (site, fx) => {
    const parsed = parseArgv(site.args, spec);
    for (const out of optionValues(parsed, ...outputs)) fx.write(site.program, out);
    for (const file of operandsOf(parsed, site)) if (file.value !== '-') fx.read(site.program, file);
  };
}

const readsWithLog = readsWithOutput({ short: 'oObhjkpPtTxyz', long: ['log-file', 'LOG-FILE', 'pattern', 'tag', 'tag-file', 'tabs', 'shift', 'window', 'max-back-scroll', 'max-forw-scroll'] }, ['-o', '-O', '--log-file', '--LOG-FILE']);

/** less: `-o file` copies what it shows into `file`; a `+` start-up command with `!` or `|` runs a shell. */
const less: ProgramHandler = (site, fx) => {
  const shellCommand = site.args.find((arg) => arg.dynamic || (arg.value.startsWith('+') && /[!|]/.test(arg.value)));
  if (shellCommand) fx.opaque(`less ${shellCommand.value} runs a shell command`, site.program);
  readsWithLog({ ...site, args: site.args.filter((arg) => !arg.value.startsWith('+')) }, fx);
};

/** file: `-C` compiles the magic files into `<name>.mgc` in the working directory. */
const fileType: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'mFeP', long: ['magic-file', 'separator', 'exclude', 'parameter'] });
  if (hasOption(parsed, '-C', '--compile')) fx.write('file', { path: `${fx.cwd}/*.mgc`, dynamic: true });
  for (const file of operandsOf(parsed, site)) fx.read('file', file);
};

/** yq (Go or Python): the first operand is the expression unless it comes from a file; `-i` rewrites the files. */
const yq: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'oIpf', long: ['output-format', 'input-format', 'indent', 'front-matter', 'from-file', 'expression', 'arg', 'argjson', 'split-exp'] });
  for (const file of optionValues(parsed, '--from-file')) fx.read('yq', file);
  // Go yq's `--split-exp EXPR` writes each document to a file its expression names from the data.
  // (Its short `-s` is python yq's `--slurp`, which writes nothing: left as a read.)
  if (optionValues(parsed, '--split-exp').length > 0) fx.write('yq', filesNamedByData(fx));
  const fromFile = optionValues(parsed, '--from-file', '--expression').length > 0;
  const operands = operandsOf(parsed, site);
  // Go yq's subcommands: `yq eval '.a' f.yaml`.
  if (['e', 'eval', 'ea', 'eval-all'].includes(operands[0]?.value ?? '')) operands.shift();
  const inPlace = hasOption(parsed, '-i', '--inplace', '--in-place');
  // Go yq takes a lone operand that names a file as that file, with the expression `.`
  // (`yq -i -P config.yaml`, `yq ~/x.yaml`); a lone expression (`yq '.a'`) reads its input.
  const loneFile = !fromFile && operands.length === 1 && (inPlace || looksLikeFile(operands[0]!.value));
  const files = operands.slice(fromFile || loneFile ? 0 : 1);
  for (const file of files) if (file.value !== '-') (inPlace ? fx.write : fx.read).call(fx, 'yq', file);
};

/** A yq operand that is a path rather than an expression: it has a folder or a file's extension, and no expression syntax. */
function looksLikeFile(text: string): boolean {
  if (/[\s|=()"'$]/.test(text)) return false;
  return /^(?:~|\.{0,2}\/)/.test(text) || text.includes('/') || /\.(?:ya?ml|json|xml|toml|ini|properties|csv|tsv|hcl|env|lock)$/i.test(text) || !text.startsWith('.');
}

const find: ProgramHandler = (site, fx) => {
  // find's own grammar: start paths, then an expression. Its actions decide the effect.
  const args = site.args;
  let i = 0;
  // `-L` (and the `-follow` test) follow every link below the start paths: what is found may be anywhere.
  let followsLinks = args.some((arg) => arg.value === '-follow');
  for (; i < args.length && ['-H', '-L', '-P', '-O0', '-O1', '-O2', '-O3'].includes(args[i]!.value); i++) followsLinks ||= args[i]!.value === '-L';
  if (args[i]?.value === '-D') i += 2;
  const roots: Arg[] = [];
  for (; i < args.length; i++) {
    const value = args[i]!.value;
    if (!args[i]!.dynamic && (value.startsWith('-') || value === '(' || value === '!' || value === ',')) break;
    roots.push(args[i]!);
  }
  if (roots.length === 0) roots.push({ value: '.', dynamic: false, unknownAt: -1 });
  for (const root of roots) fx.read('find', root);
  // What {} stands for: the files below each start path that the expression's name and path tests
  // can select (`find . -name '*.pyc' -delete` deletes `<root>/**/*.pyc`; with no such test, anything
  // below it, dot names included: workflows/shell/find-expression.ts).
  const expression = args.slice(i);
  const found: PathRef[] = [];
  for (const root of roots) {
    const at = fx.path(root);
    const base = at.path === '/' ? '' : at.path;
    for (const glob of (root.dynamic ? undefined : selectedBelow(root.value, expression)) ?? ['**']) {
      found.push(at.unplaced === true || followsLinks ? { path: `${base}/${glob}`, dynamic: true, unplaced: true } : { path: `${base}/${glob}`, dynamic: true });
    }
  }
  for (; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === '-delete') {
      // What the expression keeps out of (`-path ./.gobby -prune -o …`) is not deleted: the guard may leave it out.
      const except = roots.length === 1 && !roots[0]!.dynamic ? skippedBelow(roots[0]!.value, expression).map((folder) => fx.path(literalArg(folder)).path) : [];
      for (const path of found) fx.remove('find', except.length > 0 ? { ...path, except } : path);
    }
    else if (['-fprint', '-fprint0', '-fls', '-fprintf'].includes(value)) {
      const target = args[i + 1];
      if (target) fx.write('find', target);
      i += value === '-fprintf' ? 2 : 1;
    } else if (['-exec', '-execdir', '-ok', '-okdir'].includes(value)) {
      const command: Arg[] = [];
      for (i++; i < args.length && args[i]!.value !== ';' && args[i]!.value !== '+'; i++) command.push(args[i]!);
      // `{}` is each kind of file it may be: the command is judged once for each.
      const runEach = (): void => {
        for (const path of found) fx.run(command.map((arg) => (arg.value.includes('{}') ? { value: arg.value.replaceAll('{}', path.path), dynamic: true, unknownAt: -1 } : arg)));
      };
      // With `;` find's exit status ignores the command's (it is only a test of the expression); with `+` a failure makes find fail.
      if (args[i]?.value === '+') runEach();
      else fx.hidingStatus(runEach);
    }
  }
};

const CP_OPTIONS: OptionSpec = { short: 'tS', long: ['target-directory', 'suffix', 'backup', 'reply', 'sparse', 'preserve', 'no-preserve', 'reflink', 'update', 'exchange'] };

const cpLike = (kind: 'copy' | 'move', spec: OptionSpec = CP_OPTIONS): ProgramHandler => (site, fx) => {
  const parsed = parseArgv(site.args, spec);
  const target = lastOptionValue(parsed, '-t', '--target-directory');
  const operands = operandsOf(parsed, site);
  const destination = target ?? operands.pop();
  if (!destination) return;
  // `cp -rT x dest` (no target directory, however shortened): dest becomes a copy of x, so x's contents land in dest whatever they are named.
  const intoItself = kind === 'copy' && target === undefined && hasOption(parsed, '-r', '-R', '-a', '--recursive', '--archive') && (hasOption(parsed, '-T') || site.args.some((arg) => arg.value.length > 5 && '--no-target-directory'.startsWith(arg.value)));
  // `--parents`: each source lands under its own path below dest (`cp --parents .claude/settings.json ~/app`).
  const contentsNamed = intoItself || (kind === 'copy' && hasOption(parsed, '--parents'));
  for (const source of operands) {
    // `cp -r dir/. dest` (also `dir/./`, `dir/sub/..`) copies what is in dir, whatever it is named, into dest.
    if (kind === 'copy') fx.copy(site.program, source, contentsNamed || namesItsContents(source) ? filesNamedByData(fx, destination) : destination);
    else fx.move(site.program, source, destination);
  }
  // `-b`/`--backup` keeps what the destination held under its name plus a suffix (`~` by default).
  const suffix = backupSuffix(parsed, site);
  if (suffix !== undefined) writeBackups(fx, site.program, destination, operands, suffix, true);
  if (kind === 'copy' && hasOption(parsed, '-l', '--link')) writesThroughHardLinks(fx, site.program, operands);
  // `cp -s` makes symbolic links (to absolute sources, or relative ones in the destination's folder).
  if (kind === 'copy' && hasOption(parsed, '-s', '--symbolic-link')) writesThroughNewSymlinks(fx, operands, destination);
  if (operands.length === 0) fx.write(site.program, destination);
};


const ln: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'tS', long: ['target-directory', 'suffix', 'backup'] });
  const target = lastOptionValue(parsed, '-t', '--target-directory');
  const operands = operandsOf(parsed, site);
  const place = target ?? (operands.length > 1 ? operands[operands.length - 1]! : undefined);
  const files = target || operands.length === 1 ? operands : operands.slice(0, -1);
  if (operands.length === 1 && !target) fx.write('ln', { value: baseName(operands[0]!.value), dynamic: operands[0]!.dynamic, unknownAt: operands[0]!.unknownAt });
  const symbolic = hasOption(parsed, '-s', '--symbolic');
  if (place !== undefined) {
    // `ln -s x DEST` where DEST does not exist makes DEST stand for x, a folder's files and all: as a copy of x would.
    if (!target && symbolic && files.length === 1) fx.copy('ln', linkTarget(fx, files[0]!, place), place);
    else if (!target) fx.write('ln', place);
    // Into a folder (`-t DIR`, or a last operand that is one: `ln -sf x/settings.json ~/.claude/`) each link takes its source's name.
    if (!place.dynamic) for (const file of files) fx.write('ln', landedIn(place, file));
    // `-b -S .json`: what the destination held is kept under its name plus the suffix.
    const suffix = backupSuffix(parsed, site);
    if (suffix !== undefined) writeBackups(fx, 'ln', place, files, suffix, !target);
  }
  if (!symbolic) writesThroughHardLinks(fx, site.program, files);
  else writesThroughNewSymlinks(fx, files, place);
};

/** What a symbolic link made at `link` points to: a relative target is read from the link's folder. */
function linkTarget(fx: ShellEffects, target: Arg, link: Arg): PathRef {
  if (target.dynamic || target.value.startsWith('/')) return fx.path(target);
  const place = fx.path(link);
  return { path: resolveAgainst(dirName(place.path), target.value), dynamic: place.dynamic };
}

/** Where `source` lands in the folder `folder` under its own name. */
function landedIn(folder: Arg, source: Arg): Arg {
  return { ...folder, value: `${folder.value.replace(/\/+$/, '')}/${baseName(source.value.replace(/\/+$/, ''))}` };
}

/** `-b`/`--backup[=CONTROL]` (with `-S SUFFIX`): the suffix a replaced file's backup is named with; undefined without a backup. */
function backupSuffix(parsed: ParsedArgv, site: CommandSite): string | undefined {
  if (!hasOption(parsed, '-b', '--backup') && !site.args.some((arg) => arg.value.startsWith('--backup='))) return undefined;
  return lastOptionValue(parsed, '-S', '--suffix')?.value ?? '~';
}

/**
 * The backups of what a copy, move or link replaces: the destination itself (when it may be a file)
 * and what each source replaces inside it when it is a folder (`-S .json` turns `settings` into `settings.json`).
 */
function writeBackups(fx: ShellEffects, program: string, destination: Arg, sources: readonly Arg[], suffix: string, destinationItself: boolean): void {
  if (destinationItself) fx.write(program, backupOf(destination, suffix, fx));
  for (const source of sources) fx.write(program, backupOf(landedIn(destination, source), suffix, fx));
}

/**
 * A symbolic link made now is not on disk yet when the daemon looks for links, so the shell
 * remembers it: a later path through it in the same command (`ln -s ~/app/README.md /tmp/r && :
 * > /tmp/r`) is the file it points to. A relative target is read from the link's folder.
 */
function writesThroughNewSymlinks(fx: ShellEffects, files: readonly Arg[], place: Arg | undefined): void {
  if (place === undefined || place.dynamic) return;
  const link = fx.path(place).path;
  for (const file of files) {
    if (file.dynamic) continue;
    const target = linkTarget(fx, file, place).path;
    // One source into an existing folder lands inside it under its own name; the shell cannot tell which.
    fx.linkMade(link, target);
    fx.linkMade(`${link}/${baseName(file.value)}`, target);
  }
}

/**
 * A hard link is the same file under a second name: writing one writes the other, wherever the
 * new name is (`ln src/app.ts /tmp/x`, then `echo x > /tmp/x`), and no path says so afterwards.
 * So making one counts as writing the file it names (`ln`, `link`, `cp -l`). A symbolic link is
 * followed when it is used (workflows/shell-through-links.ts).
 */
function writesThroughHardLinks(fx: ShellEffects, program: string, files: readonly (Arg | PathRef)[]): void {
  for (const file of files) fx.write(program, file);
}

const INSTALL_OPTIONS: OptionSpec = { short: 'mogtSZ', long: ['mode', 'owner', 'group', 'target-directory', 'suffix', 'backup', 'context', 'strip-program'] };

const install: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, INSTALL_OPTIONS);
  if (hasOption(parsed, '-d', '--directory')) {
    for (const dir of operandsOf(parsed, site)) fx.write('install', dir);
    return;
  }
  cpLike('copy', INSTALL_OPTIONS)(site, fx);
};

const dd: ProgramHandler = (site, fx) => {
  for (const arg of site.args) {
    if (arg.value.startsWith('of=')) fx.write('dd', { ...arg, value: arg.value.slice(3), unknownAt: arg.unknownAt === -1 ? -1 : Math.max(0, arg.unknownAt - 3) });
    else if (arg.value.startsWith('if=')) fx.read('dd', { ...arg, value: arg.value.slice(3), unknownAt: arg.unknownAt === -1 ? -1 : Math.max(0, arg.unknownAt - 3) });
  }
};

/** A mode that looks like an option (`chmod -x f`, `chattr -i f`). */
const MODE_ARGUMENT: Readonly<Record<string, RegExp>> = { chmod: /^[-+=][rwxXstugo]+$/, chattr: /^[-+=][aAcCdDeFijmPsStTux]+$/ };

/**
 * chmod/chown/chgrp/chattr/setfacl: the first operand is the mode or owner unless --reference gives
 * it (setfacl's come as options). With -R every file below each operand changes too. Without it, a
 * folder's mode, owner or attributes still decide who may read or change what is in it (`chmod 000
 * .claude` takes Claude Code's settings away from it): an operand that may be a folder, a name
 * without an extension (`.claude`, `src`, `.`), counts as changing everything below it as well.
 */
const changeAttributes: ProgramHandler = (site, fx) => {
  const mode = MODE_ARGUMENT[site.program];
  const args = mode ? site.args.map((arg) => (mode.test(arg.value) ? { ...arg, value: `mode:${arg.value}` } : arg)) : site.args;
  const parsed = parseArgv(args, { short: site.program === 'setfacl' ? 'mMxX' : '', long: ['reference', 'from', 'modify', 'modify-file', 'remove', 'remove-file', 'set', 'set-file'] });
  const operands = operandsOf(parsed, site);
  const files = hasOption(parsed, '--reference') || site.program === 'setfacl' ? operands : operands.slice(1);
  const recursive = hasOption(parsed, '-R', '--recursive');
  const takesAccess = takesOwnersAccess(site.program, parsed, operands, args);
  for (const file of files) {
    fx.write(site.program, takesAccess ? { ...fx.path(file), takesAccess } : file);
    if (recursive || mayBeFolder(file)) fx.write(site.program, takesAccess ? { ...everythingBelow(fx, file), takesAccess } : everythingBelow(fx, file));
  }
};

/**
 * Whether a change of attributes may take the owner's own access away: a mode without the owner's
 * read, write and search (`chmod 000`, `chmod -R 644`, `chmod u-x`, `a=r`), a new owner (`chown`),
 * an immutable or append-only flag (`chattr +i`), or an ACL entry for the owner (`setfacl -m u::-`).
 * Modes only known at run time or copied (`--reference`, `u=g`, `setfacl -M file`) may too.
 * (`chgrp` and modes that only add, or only concern others, leave the owner as before.)
 */
function takesOwnersAccess(program: string, parsed: ParsedArgv, operands: readonly Arg[], args: readonly Arg[]): true | undefined {
  const spec = hasOption(parsed, '--reference') ? undefined : operands[0];
  switch (program) {
    case 'chmod':
      return spec === undefined || spec.dynamic || modeTakesOwnersAccess(spec.value.replace(/^mode:/, '')) ? true : undefined;
    case 'chown':
      // `chown :staff f` and `chown .staff f` change the group only.
      return spec === undefined || spec.dynamic || !/^[:.]/.test(spec.value) ? true : undefined;
    case 'chattr':
      return args.some((arg) => arg.dynamic || /^(?:mode:)?[+=][a-zA-Z]*[ia]/.test(arg.value)) ? true : undefined;
    case 'setfacl':
      return args.some((arg) => arg.dynamic || /(?:^|,)\s*(?:u|user)::|^-[^-]*[MX]|^--(?:modify-file|remove-file|set-file|restore)/.test(arg.value)) ? true : undefined;
    default:
      return undefined;
  }
}

/** A chmod mode that may leave the owner without read, write or search: octal with an owner digit below 7, or a clause that takes from `u`. */
function modeTakesOwnersAccess(mode: string): boolean {
  if (/^[0-7]{1,4}$/.test(mode)) return mode.length < 3 || mode[mode.length - 3] !== '7';
  for (const clause of mode.split(',')) {
    const parts = /^([ugoa]*)((?:[-+=][rwxXstugo]*)+)$/.exec(clause);
    if (parts === null) return true;
    const [, who, actions] = parts as unknown as [string, string, string];
    if (who !== '' && !who.includes('u') && !who.includes('a')) continue;
    for (const [, op, perms] of actions.matchAll(/([-+=])([rwxXstugo]*)/g)) {
      if (op === '-' && /[rwxugo]/.test(perms!)) return true;
      if (op === '=' && (!perms!.includes('r') || !perms!.includes('w') || !/[xX]/.test(perms!) || /[ugo]/.test(perms!))) return true;
    }
  }
  return false;
}

const DIFF_OPTIONS: OptionSpec = { short: 'UCLIFxXD', long: ['unified', 'context', 'label', 'ignore-matching-lines', 'show-function-line', 'exclude', 'exclude-from', 'from-file', 'to-file', 'tabsize', 'line-format', 'horizon-lines', 'ifdef', 'color', 'palette'] };
const DIFF_READER_OPTIONS = withReaderOptions(DIFF_OPTIONS);

/**
 * diff reads its operands, and a folder's files too (`diff -rN ~/.gobby /tmp/empty` prints every
 * file below it; without `-r`, the files directly in it): an operand that may be a folder is read as a tree.
 */
const diff: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, DIFF_READER_OPTIONS);
  readerOptions(site, parsed, fx);
  for (const file of operandsOf(parsed, site)) {
    if (file.value === '-') continue;
    fx.read(site.program, file);
    // `<(ls a)` is a pipe (readTree would leave it too), and most operands are files with an extension.
    if (file.unknownAt !== 0 && mayBeFolder(file)) fx.readTree(site.program, file);
  }
};

/** A path whose last name has no extension: `src`, `.claude`, `..`, `~`, `$DIR` (not `run.sh`, `a.ts`). */
function mayBeFolder(file: Arg): boolean {
  const name = file.value.replace(/\/+$/, '');
  const last = name.slice(name.lastIndexOf('/') + 1);
  return file.dynamic || !last.slice(1).includes('.') || last === '..';
}

const sed: ProgramHandler = (site, fx) => {
  // -E and -r are flags (extended expressions); -e, -f and -l take a value.
  const parsed = parseArgv(site.args, { short: 'efl', long: ['expression', 'file', 'line-length'] });
  // -i and --in-place take an optional suffix glued to the flag; parseArgv sees -i then letters.
  // `-i`, `-iSUFFIX`, `--in-place[=SUFFIX]`, and `--in-place` shortened (`--i`, `--in-pl`).
  const inPlaceArg = site.args.find((arg) => !arg.dynamic && (/^-[^-]*i/.test(arg.value) || isSedInPlace(arg.value.split('=')[0]!)));
  const inPlace = inPlaceArg !== undefined;
  // A backup suffix names the backup: `-i.json` makes `f.json`; with `*`, it is the name (`--in-place='bak/*'`).
  const suffix = inPlaceArg === undefined ? '' : inPlaceArg.value.startsWith('--') ? (inPlaceArg.value.split('=')[1] ?? '') : inPlaceArg.value.slice(inPlaceArg.value.indexOf('i') + 1);
  const scripts = optionValues(parsed, '-e', '--expression');
  for (const file of optionValues(parsed, '-f', '--file')) {
    fx.read('sed', file);
    fx.opaque(`sed runs the script in \`${file.value}\`, which can write files or run commands`, 'sed');
  }
  const operands = operandsOf(parsed, site);
  if (scripts.length === 0 && !hasOption(parsed, '-f', '--file')) {
    const script = operands.shift();
    if (script) scripts.push(script);
  }
  for (const script of scripts) inspectSed(script, fx, site.program);
  for (const file of operands) {
    if (inPlace) {
      fx.write('sed', file);
      if (suffix !== '') fx.write('sed', backupOf(file, suffix, fx));
    } else if (file.value !== '-') fx.read('sed', file);
  }
};

/** `--in-place` as sed reads it, shortened to any prefix from `--i` (no other sed option starts with i). */
function isSedInPlace(spelled: string): boolean {
  return spelled.length >= 3 && '--in-place'.startsWith(spelled);
}

/** The backup a program makes of `file` with `suffix` (sed's and perl's `-i`, cp's `-b -S`): `*` stands for the file's name. */
function backupOf(file: Arg, suffix: string, fx: ShellEffects): PathRef {
  const path = fx.path(file);
  if (!suffix.includes('*')) return { ...path, path: path.path + suffix };
  const named = suffix.replaceAll('*', baseName(path.path));
  return named.includes('/') ? fx.path({ ...file, value: named }) : { ...path, path: `${dirName(path.path)}/${named}` };
}

/** sed's `w file`, `s///w file` write, `r file` reads, `e` and `s///e` run commands (workflows/shell/sed-script.ts). */
function inspectSed(script: Arg, fx: Parameters<ProgramHandler>[1], program: string): void {
  if (script.dynamic) {
    fx.opaque('the sed script is built at run time', program);
    return;
  }
  const effects = inspectSedScript(script.value);
  for (const path of effects.writes) fx.write(program, literalArg(path));
  for (const path of effects.reads) fx.read(program, literalArg(path));
  if (effects.opaque !== undefined) fx.opaque(effects.opaque, program);
}

/** The extensions gawk ships, loaded by name from its own library folder. */
const GAWK_EXTENSIONS = new Set(['filefuncs', 'fnmatch', 'fork', 'inplace', 'intdiv', 'ordchr', 'readdir', 'readfile', 'revoutput', 'revtwoway', 'rwarray', 'time']);

/** gawk's options that dump its variables or a profile, with the file each writes when none is attached. */
const GAWK_DUMPS: Readonly<Record<string, string>> = { '-d': 'awkvars.out', '--dump-variables': 'awkvars.out', '-p': 'awkprof.out', '--profile': 'awkprof.out', '-o': 'awkprof.out', '--pretty-print': 'awkprof.out' };

const awk: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'fvFiWEl', long: ['file', 'assign', 'field-separator', 'include', 'load', 'source', 'exec'], optionalShort: 'dpoD', optional: ['dump-variables', 'profile', 'pretty-print', 'debug'] });
  // gawk writes its variables or a profile to the file attached to the option, or to a fixed name in the folder it runs in.
  for (const option of parsed.options) {
    const defaultName = GAWK_DUMPS[option.name];
    if (defaultName === undefined) continue;
    const file = option.value ?? literalArg(defaultName);
    if (file.value !== '/dev/stdout' && file.value !== '/dev/stderr' && file.value !== '-') fx.write(site.program, file);
  }
  // `-D`/`--debug` reads the debugger's commands from the attached file.
  for (const option of parsed.options) if ((option.name === '-D' || option.name === '--debug') && option.value) fx.read(site.program, option.value);
  // mawk's `-W exec FILE` (and `-W e…`) runs a program file as gawk's `-E` does.
  const mawkExec = optionValues(parsed, '-W').some((option) => /^e/.test(option.value));
  // `-l NAME` loads one of gawk's own extensions; a path (`-l /tmp/x.so`) a library of the caller's.
  const extensions = optionValues(parsed, '-l', '--load').filter((library) => library.dynamic || !GAWK_EXTENSIONS.has(library.value));
  if (extensions.length > 0) fx.opaque(`awk loads ${extensions[0]!.value}, a library of the caller's choosing`, site.program);
  const programFiles = [...optionValues(parsed, '-f', '--file', '-E', '--exec', '-i', '--include'), ...(mawkExec ? [literalArg('(a program file)')] : [])];
  const inPlace = programFiles.some((file) => file.value === 'inplace');
  const operands = operandsOf(parsed, site);
  if (programFiles.some((file) => file.value !== 'inplace')) fx.opaque('awk runs a program read from a file', site.program);
  else {
    const code = lastOptionValue(parsed, '--source') ?? operands.shift();
    if (code?.dynamic) fx.opaque('the awk program is only known at run time', site.program);
    else if (code) {
      // awk can write (`print > "f"`), read other files (`getline < "f"`), pipe to a command, or call system().
      const program = inspectAwkProgram(code.value);
      for (const path of program.writes) fx.write(site.program, literalArg(path));
      for (const path of program.reads) fx.read(site.program, literalArg(path));
      if (program.opaque !== undefined) fx.opaque(program.opaque, site.program);
    }
  }
  for (const file of operands) {
    if (/^\w+=/.test(file.value)) continue; // var=value operands are assignments
    if (inPlace) fx.write(site.program, file);
    else if (file.value !== '-') fx.read(site.program, file);
  }
};

const tar: ProgramHandler = (site, fx) => {
  let args = [...site.args];
  // Old style: `tar xzf a.tgz` bundles the mode and options into the first word.
  const first = args[0];
  if (first && !first.dynamic && !first.value.startsWith('-') && /^[A-Za-z]+$/.test(first.value)) args = [{ ...first, value: `-${first.value}` }, ...args.slice(1)];
  const parsed = parseArgv(args, { short: 'fCTXbHgKLNVIF', long: ['file', 'directory', 'files-from', 'exclude-from', 'exclude', 'blocking-factor', 'format', 'listed-incremental', 'starting-file', 'tape-length', 'newer', 'after-date', 'label', 'use-compress-program', 'to-command', 'checkpoint-action', 'transform', 'xform', 'owner', 'group', 'mode', 'mtime', 'strip-components', 'index-file', 'info-script', 'new-volume-script', 'rsh-command', 'rmt-command'] });
  for (const option of ['-I', '--use-compress-program', '--to-command', '--checkpoint-action', '--info-script', '--new-volume-script', '-F', '--rsh-command', '--rmt-command']) {
    for (const value of optionValues(parsed, option)) fx.opaque(`tar ${option} runs \`${value.value}\``, 'tar');
  }
  // `--index-file F` takes the verbose listing, in every mode.
  for (const index of optionValues(parsed, '--index-file')) fx.write('tar', index);
  // `-f -` is the standard input or output (`tar -cf - . | ssh …`).
  const archives = optionValues(parsed, '-f', '--file').filter((archive) => archive.value !== '-');
  const members = operandsOf(parsed, site);
  // Each -C changes directory from where the one before left it (`-C /tmp -C ~/app` is ~/app).
  const here = inEachDirectory(fx, optionValues(parsed, '-C', '--directory'));
  if (hasOption(parsed, '-x', '--extract', '--get')) {
    for (const archive of archives) fx.read('tar', archive);
    // -O (--to-stdout) prints the members instead of writing them.
    // `-P` keeps absolute and `..` names: the archive may write anywhere. Options that rename members
    // (`--strip-components`, `--transform`, bsdtar's `-s`, unanchored names) leave the names to the archive.
    if (hasOption(parsed, '-O', '--to-stdout')) return;
    const renames = hasOption(parsed, '-T', '--files-from', '--no-anchored', '--wildcards-match-slash') || site.args.some((arg) => /^--(?:strip-components|transform|xform)(?:=|$)|^-s$/.test(arg.value));
    if (hasOption(parsed, '-P', '--absolute-names')) here.write('tar', filesNamedByData(here, literalArg('/')));
    unpackMembers('tar', members, here, renames);
  } else if (hasOption(parsed, '-c', '--create', '-r', '--append', '-u', '--update', '-A', '--catenate', '--concatenate', '--delete')) {
    for (const archive of archives) fx.write('tar', archive);
    // An incremental dump rewrites its snapshot file (`-g snap`, `--listed-incremental=snap`).
    for (const snapshot of optionValues(parsed, '-g', '--listed-incremental')) fx.write('tar', snapshot);
    for (const member of members) here.readTree('tar', member);
    // `-T list`, `-T -`: members named in a list, from a file or the input (`find ~/x | tar -cf a.tar -T -`).
    for (const list of optionValues(parsed, '-T', '--files-from')) {
      if (list.value !== '-' && list.value !== '/dev/stdin') fx.read('tar', list);
      here.readTree('tar', NAMED_IN_A_LIST);
    }
    // `--remove-files` deletes what it archived.
    if (hasOption(parsed, '--remove-files')) for (const member of members) here.remove('tar', member);
  } else {
    for (const archive of archives) fx.read('tar', archive);
  }
};

const unzip: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'dxP', long: [] });
  const operands = operandsOf(parsed, site);
  if (operands[0]) fx.read('unzip', operands[0]);
  if (hasOption(parsed, '-l', '-v', '-t', '-Z', '-p', '-z', '-c')) return;
  const directory = lastOptionValue(parsed, '-d');
  const here = directory ? fx.at(directory) : fx;
  // `-:` keeps `../` in member names: the archive may write anywhere; `-j` drops the archive's folders.
  if (site.args.some((arg) => !arg.dynamic && /^-[a-zA-Z]*:/.test(arg.value))) here.write('unzip', filesNamedByData(here, literalArg('/')));
  if (hasOption(parsed, '-j')) here.write('unzip', everythingBelow(here));
  else unpackMembers('unzip', operands.slice(1), here, hasOption(parsed, '-x'));
};

/**
 * A remote folder copied in (`rsync -a host:logs .`, `scp -r host:logs .`): it lands under its own
 * name (`./logs/**`, named by the data); its contents, whatever they are named, land in the
 * destination itself when the copy names them (`host:logs/`, `host:logs/.`) or the name is not
 * known (`host:`, `host:$D`).
 */
export function writesRemoteCopy(fx: ShellEffects, program: string, source: Arg, destination: Arg, contents: boolean): void {
  const path = source.value.replace(/^(?:[a-z]+:\/\/[^/]*|[^/:]*:)/, '');
  const name = baseName(path);
  if (contents || source.dynamic || namesItsContents({ ...source, value: path }) || name === '' || name === '.' || name === '..' || name === '~') {
    fx.write(program, filesNamedByData(fx, destination));
    return;
  }
  // The destination is a folder it lands in, or the name it takes.
  const landed = { ...destination, value: `${destination.value.replace(/\/+$/, '')}/${name}` };
  fx.write(program, destination);
  fx.write(program, landed);
  fx.write(program, filesNamedByData(fx, landed));
}

/** A source that stands for its folder's contents: it ends in `.` or `..` as a last name (`x/.`, `x/./`, `x/sub/..`, `.`). */
export function namesItsContents(source: Arg): boolean {
  const last = source.value.charCodeAt(source.value.length - 1);
  return (last === 46 || last === 47) && /(?:^|\/)\.\.?\/*$/.test(source.value); // ends in `.` or `/`
}

/**
 * What unpacking writes: each member named (`tar -xf a.tar src/`: `src` and everything below it),
 * or, with none, a list read from a file or exclusions only (`-T list`, `unzip a.zip -x …`), or a
 * member that is the whole archive (`.`), whatever the archive holds.
 */
function unpackMembers(program: string, members: readonly Arg[], here: ShellEffects, namesFromElsewhere: boolean): void {
  if (members.length === 0 || namesFromElsewhere || members.some((member) => member.unknownAt === 0 || /^(?:\.\/?)*$/.test(member.value))) {
    here.write(program, filesNamedByData(here));
    return;
  }
  for (const member of members) {
    // A pattern (`tar --wildcards '*.json'`, `unzip a.zip 'src/*'`) matches across `/`: anything below its fixed folder.
    const wildcard = member.value.search(/[*?[]/);
    if (wildcard !== -1) {
      const folder = member.value.slice(0, member.value.lastIndexOf('/', wildcard) + 1);
      here.write(program, folder === '' ? filesNamedByData(here) : everythingBelow(here, { ...member, value: folder, dynamic: false, unknownAt: -1 }));
      continue;
    }
    here.write(program, member);
    here.write(program, everythingBelow(here, member));
  }
}

const zip: ProgramHandler = (site, fx) => {
  // `-TT cmd` (two letters, one option) and `--unzip-command`: a command zip runs. `-T` alone only tests.
  const tt = site.args.findIndex((arg) => arg.value === '-TT');
  const args = tt === -1 ? site.args : [...site.args.slice(0, tt), ...site.args.slice(tt + 2)];
  const parsed = parseArgv(args, { short: 'bnPstxiZO', long: ['temp-path', 'suffixes', 'password', 'exclude', 'include', 'unzip-command', 'output-file'] });
  if (tt !== -1 || hasOption(parsed, '--unzip-command')) fx.opaque('zip -TT runs a command of the caller\'s choosing', 'zip');
  const operands = operandsOf(parsed, { ...site, args });
  const archive = operands.shift();
  // `-O FILE`/`--output-file FILE`: the archive's new version goes there, the archive named is only read.
  const output = lastOptionValue(parsed, '-O', '--output-file');
  if (output) fx.write('zip', output);
  // `zip -r - src`: the archive goes to the standard output.
  if (archive && archive.value !== '-') (output ? fx.read : fx.write).call(fx, 'zip', archive);
  const moves = hasOption(parsed, '-m', '--move');
  const read = hasOption(parsed, '-r', '--recurse-paths', '-R', '--recurse-patterns') ? fx.readTree : fx.read;
  // `-@`: the names come on the input (`find ~/x | zip a.zip -@`).
  if (site.args.some((arg) => !arg.dynamic && /^-[a-zA-Z]*@/.test(arg.value) || arg.value === '--names-stdin')) operands.push(NAMED_IN_A_LIST);
  for (const member of operands) (moves ? fx.remove : read).call(fx, 'zip', member);
};

/** gzip and friends replace each file with its (de)compressed twin unless told to keep it or print. */
/** Each compressor's own suffix, which compressing adds and decompressing takes off. */
const COMPRESSED_SUFFIX: Readonly<Record<string, string>> = { gzip: '.gz', gunzip: '.gz', bzip2: '.bz2', bunzip2: '.bz2', xz: '.xz', unxz: '.xz', zstd: '.zst', unzstd: '.zst', lz4: '.lz4', brotli: '.br', compress: '.Z', uncompress: '.Z' };

/**
 * gzip and its kind replace each file with the compressed one (`a` → `a.gz`) or, decompressing,
 * the other way (`a.gz` → `a`); `-S` sets the suffix (`gzip -S son settings.j` makes
 * `settings.json`). The written name is the one judged.
 */
const compressor: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'SbT', long: ['suffix', 'threads'] });
  const toStdout = hasOption(parsed, '-c', '--stdout', '--to-stdout', '-l', '--list', '-t', '--test');
  const keep = hasOption(parsed, '-k', '--keep');
  const decompress = /^(?:un|gunzip|bunzip2)/.test(site.program) || hasOption(parsed, '-d', '--decompress', '--uncompress');
  const suffixArg = lastOptionValue(parsed, '-S', '--suffix');
  const suffix = suffixArg?.value ?? COMPRESSED_SUFFIX[site.program] ?? '';
  for (const file of operandsOf(parsed, site)) {
    if (toStdout) {
      fx.read(site.program, file);
      continue;
    }
    fx.read(site.program, file);
    const named = decompress ? (file.value.endsWith(suffix) && suffix !== '' ? file.value.slice(0, -suffix.length) : file.value) : file.value + suffix;
    fx.write(site.program, { ...file, value: named, dynamic: file.dynamic || suffixArg?.dynamic === true });
    if (!keep) fx.remove(site.program, file);
  }
};

const patch: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'iopdDrBFVYzgF', long: ['input', 'output', 'strip', 'directory', 'ifdef', 'reject-file', 'prefix', 'fuzz', 'version-control', 'basename-prefix', 'suffix', 'get', 'quoting-style'] });
  for (const input of optionValues(parsed, '-i', '--input')) fx.read('patch', input);
  if (hasOption(parsed, '--dry-run')) return;
  const outputs = optionValues(parsed, '-o', '--output');
  const directory = lastOptionValue(parsed, '-d', '--directory');
  const here = directory ? fx.at(directory) : fx;
  const operands = operandsOf(parsed, site);
  if (outputs.length > 0) for (const out of outputs) fx.write('patch', out);
  else if (operands[0]) here.write('patch', operands[0]);
  else here.write('patch', everythingBelow(here));
  if (operands[1]) fx.read('patch', operands[1]);
  // Side files of the caller's choosing: the rejected hunks (`-r FILE`; `-` keeps none) and
  // backups named by a prefix (`-B bak/` puts `bak/<file>` for each file it changes).
  for (const rejects of optionValues(parsed, '-r', '--reject-file')) if (rejects.value !== '-') fx.write('patch', rejects);
  for (const prefix of optionValues(parsed, '-B', '--prefix')) {
    const slash = prefix.value.lastIndexOf('/');
    fx.write('patch', slash === -1 ? { path: `${here.cwd}/${prefix.value}*`, dynamic: true } : everythingBelow(here, { ...prefix, value: prefix.value.slice(0, slash) || '/' }));
  }
};

const tee: ProgramHandler = (site, fx) => {
  for (const file of operandsOf(parseArgv(site.args, { long: ['output-error'] }), site)) fx.write('tee', file);
};

const touch: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'rdt', long: ['reference', 'date', 'time'] });
  for (const reference of optionValues(parsed, '-r', '--reference')) fx.read('touch', reference);
  for (const file of operandsOf(parsed, site)) fx.write('touch', file);
};

const truncate: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'sr', long: ['size', 'reference'] });
  for (const file of operandsOf(parsed, site)) fx.write('truncate', file);
};

const split: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'abCdlntx', long: ['suffix-length', 'additional-suffix', 'bytes', 'line-bytes', 'lines', 'number', 'separator', 'filter'] });
  for (const filter of optionValues(parsed, '--filter')) fx.opaque(`split --filter runs \`${filter.value}\``, 'split');
  const operands = operandsOf(parsed, site);
  if (operands[0]) fx.read(site.program, operands[0]);
  const prefix = operands[1]?.value ?? 'x';
  fx.write(site.program, { value: `${prefix}*`, dynamic: true, unknownAt: operands[1]?.unknownAt ?? -1 });
};

/** `shopt -s dotglob`, `-s nocaseglob` and `-s globstar` widen what later globs match; an option named at run time may be any. */
const shopt: ProgramHandler = (site, fx) => {
  // `-s`, also among other letters (`-sq`, `-qs`); `-o` names `set -o` options, none of which glob.
  if (!site.args.some((arg) => arg.dynamic || /^-[a-z]*s[a-z]*$/.test(arg.value))) return;
  for (const arg of site.args) {
    if (arg.dynamic || arg.value === 'dotglob') fx.widenGlobs('dotGlob');
    if (arg.dynamic || arg.value === 'nocaseglob') fx.widenGlobs('noCase');
    if (arg.dynamic || arg.value === 'globstar') fx.widenGlobs('globStar');
  }
};

/** zsh's `setopt globdots` (any case, underscores ignored: `GLOB_DOTS`) lets globs match dot names, `setopt nocaseglob` any case. */
const setopt: ProgramHandler = (site, fx) => {
  for (const arg of site.args) {
    const name = arg.value.toLowerCase().replace(/_/g, '');
    if (arg.dynamic || name === 'globdots' || name === 'dotglob') fx.widenGlobs('dotGlob');
    if (arg.dynamic || name === 'nocaseglob') fx.widenGlobs('noCase');
  }
};

/** jar's first word is its mode: `t` lists (and `x` extracts here, `c`/`u` write the archive named with `f`). */
const jar: ProgramHandler = (site, fx) => {
  // JDK 9's GNU-style form: `jar --extract --file a.jar [--dir DIR]`, `jar -x -f a.jar`.
  if (site.args.some((arg) => arg.value.startsWith('--') && arg.value.length > 2) || site.args.filter((arg) => /^-[a-zA-Z]/.test(arg.value)).length > 1) {
    jarLongForm(site, fx);
    return;
  }
  const mode = site.args[0]?.value.replace(/^-/, '') ?? '';
  const archive = mode.includes('f') ? site.args[1] : undefined;
  if (/^[tx]/.test(mode) && archive) fx.read('jar', archive);
  if (mode.startsWith('x')) unpackMembers('jar', archive ? site.args.slice(2) : site.args.slice(1), fx, false);
  else if (/^[cu]/.test(mode)) fx.write('jar', archive ?? literalArg('(the archive on stdout)'));
  else if (!mode.startsWith('t')) fx.unknown(`jar ${mode}`.trim());
};

const JAR_OPTIONS: OptionSpec = { short: 'fCeim', long: ['file', 'dir', 'main-class', 'manifest', 'module-version', 'hash-modules', 'module-path', 'release', 'date'] };

function jarLongForm(site: CommandSite, fx: ShellEffects): void {
  const parsed = parseArgv(site.args, JAR_OPTIONS);
  const archive = lastOptionValue(parsed, '-f', '--file');
  const directory = lastOptionValue(parsed, '--dir', '-C');
  const members = operandsOf(parsed, site);
  if (hasOption(parsed, '-x', '--extract')) {
    if (archive) fx.read('jar', archive);
    unpackMembers('jar', members, directory ? fx.at(directory) : fx, false);
  } else if (hasOption(parsed, '-c', '--create', '-u', '--update')) {
    fx.write('jar', archive ?? literalArg('(the archive on stdout)'));
    for (const member of members) fx.readTree('jar', member);
  } else if (hasOption(parsed, '-t', '--list', '-d', '--describe-module')) {
    if (archive) fx.read('jar', archive);
  } else fx.unknown('jar');
}

/**
 * Command-line unpackers whose first word is the command: `unrar x a.rar [DEST/]`, `lha x a.lzh`,
 * `arj x a.arj`. `keeps` extract with the archive's folders (its members choose the names and where
 * they go), `flat` into one folder; `reads` list, test or print. Any other command changes the archive.
 */
function commandUnpacker(spec: { readonly keeps: readonly string[]; readonly flat: readonly string[]; readonly reads: readonly string[] }): ProgramHandler {
  return (site, fx) => {
    const words = site.args.filter((arg) => arg.dynamic || !arg.value.startsWith('-'));
    const [command, archive, ...rest] = words;
    // lha glues options to its command (`xw=DIR`, `xf`): the first letter is the command.
    const mode = command === undefined || command.dynamic ? '' : site.program.startsWith('lha') ? command.value.replace(/^-/, '')[0] ?? '' : command.value.toLowerCase();
    if (archive === undefined || mode === '') {
      fx.unknown(site.program);
      return;
    }
    fx.read(site.program, archive);
    if (spec.reads.includes(mode)) return;
    if (!spec.keeps.includes(mode) && !spec.flat.includes(mode)) {
      fx.write(site.program, archive);
      for (const file of rest) fx.readTree(site.program, file);
      return;
    }
    // unrar's destination is a last operand ending in `/` (`unrar x a.rar out/`); lha's `w=DIR`, rar's `-op DIR`.
    const last = rest[rest.length - 1];
    const lhaDir = site.program.startsWith('lha') ? /w=(.+)$/.exec(command!.value)?.[1] : undefined;
    const option = site.args.find((arg) => /^-op./.test(arg.value));
    const destination = lhaDir !== undefined ? literalArg(lhaDir) : option !== undefined ? { ...option, value: option.value.slice(3) } : last !== undefined && last.value.endsWith('/') ? last : undefined;
    const here = destination === undefined ? fx : fx.at(destination);
    here.write(site.program, spec.flat.includes(mode) ? everythingBelow(here) : filesNamedByData(here));
  };
}

/** Unpackers with one action and options: `cabextract [-d DIR] a.cab`, `patool extract [--outdir DIR] a.zip`, `aunpack [-X DIR] a.zip`. */
function optionUnpacker(directoryOptions: readonly string[], listOptions: readonly string[], spec: OptionSpec, subcommands?: { readonly extract: readonly string[]; readonly reads: readonly string[] }): ProgramHandler {
  return (site, fx) => {
    const parsed = parseArgv(site.args, spec);
    let archives = operandsOf(parsed, site);
    if (subcommands !== undefined) {
      const [sub, ...rest] = archives;
      archives = rest;
      const name = sub === undefined || sub.dynamic ? '' : sub.value;
      if (subcommands.reads.includes(name)) {
        for (const archive of archives) fx.read(site.program, archive);
        return;
      }
      if (!subcommands.extract.includes(name)) {
        fx.unknown(`${site.program} ${name}`.trim());
        return;
      }
    }
    for (const archive of archives) fx.read(site.program, archive);
    if (hasOption(parsed, ...listOptions)) return;
    const directory = lastOptionValue(parsed, ...directoryOptions);
    const here = directory ? fx.at(directory) : fx;
    here.write(site.program, filesNamedByData(here));
  };
}

/**
 * rename, in both of its kinds. util-linux's `rename FROM TO FILE…` replaces the first FROM in each
 * name by TO (`--all` every one, `--last` the last): computed. Perl's `rename 's/PAT/REP/' FILE…`
 * (also `y///`, `tr///`, `-e EXPR`) runs its expression on each path as given, so it may move a
 * file into another folder (`s/^x/.claude/`): a single substitution or transliteration is computed,
 * anything else is Perl code, opaque. `-n` only prints what it would do.
 */
const rename: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'eE', long: ['expr'] });
  if (hasOption(parsed, '-n', '--no-act', '--dry-run', '--just-print')) return;
  const operands = operandsOf(parsed, site);
  const expressions = optionValues(parsed, '-e', '-E', '--expr');
  const perl = expressions.length > 0 || (operands[0] !== undefined && PERL_RENAME_CODE.test(operands[0].value));
  const files = perl && expressions.length === 0 ? operands.slice(1) : perl ? operands : operands.slice(2);
  const code = perl ? (expressions.length > 0 ? expressions : operands.slice(0, 1)) : [];
  const newName = perl ? perlRenamer(code) : utilLinuxRenamer(operands[0], operands[1], hasOption(parsed, '-a', '--all'), hasOption(parsed, '-l', '--last'));
  if (newName === undefined) {
    // Perl code may give each file any name, anywhere: the files named are moved away, to places only known at run time.
    fx.opaque(`${site.program} runs the Perl code \`${code.map((arg) => arg.value).join('; ').slice(0, 80)}\` on each name`, site.program);
    for (const file of files) fx.remove(site.program, file);
    return;
  }
  for (const file of files) {
    // A glob's names are renamed as its pattern is (`.claude/*.bak` → `.claude/*`); a name only known at run time may become any.
    const renamed = file.unknownAt !== -1 ? undefined : newName(file.value);
    if (renamed === undefined) fx.move(site.program, file, { value: file.value, dynamic: true, unknownAt: 0 });
    else if (renamed !== file.value) fx.move(site.program, file, { value: renamed, dynamic: file.dynamic, unknownAt: -1 });
    // The pattern itself is left as it is, but the names it matches may not be (`s/a/b/` on `src/*`
    // renames src/a.ts): those files move, to names known only when it runs.
    else if (file.dynamic) fx.move(site.program, file, { value: file.value, dynamic: true, unknownAt: 0 });
  }
};

/** What makes rename's first operand Perl's: a substitution or transliteration, or code. */
const PERL_RENAME_CODE = /^\s*(?:s|y|tr)([^\w\s])|[;$()]/;

/** `s/PAT/REP/FLAGS`, `y/A/B/`, `tr/A/B/` with any delimiter that is not a bracket. */
const PERL_SUBSTITUTION = /^\s*(s|y|tr)([^\w\s({[<])((?:\\.|(?!\2).)*)\2((?:\\.|(?!\2).)*)\2([a-z]*)\s*;?\s*$/s;

function perlRenamer(code: readonly Arg[]): ((name: string) => string | undefined) | undefined {
  const steps: ((name: string) => string | undefined)[] = [];
  for (const expression of code) {
    if (expression.dynamic) return undefined;
    const match = PERL_SUBSTITUTION.exec(expression.value);
    if (match === null) return undefined;
    const [, operator, , from, to, flags] = match as unknown as [string, string, string, string, string, string];
    const step = operator === 's' ? perlSubstitution(from, to, flags) : perlTransliteration(from, to, flags);
    if (step === undefined) return undefined;
    steps.push(step);
  }
  return (name) => steps.reduce<string | undefined>((current, step) => (current === undefined ? undefined : step(current)), name);
}

/** A substitution JavaScript reads the same way: no `e` (code), a replacement with only text and `$1`…`$9`. */
function perlSubstitution(pattern: string, replacement: string, flags: string): ((name: string) => string | undefined) | undefined {
  if (/[^gimsx]/.test(flags) || /\(\?[{?<]?[{#]|\\[QEULulGzZAK]/.test(pattern) || /[@]|\$(?!\d|\{\d\})|\\[^\d\\/.\-_]/.test(replacement)) return undefined;
  // Run in the daemon on names the agent chose: only patterns that cannot backtrack for long, on names of a path's length.
  if (mayBacktrackBadly(pattern, 2, 256)) return undefined;
  let regex: RegExp;
  try {
    regex = new RegExp(flags.includes('x') ? pattern.replace(/\s+|#.*$/gm, '') : pattern, flags.replace(/[x]/g, ''));
  } catch {
    return undefined;
  }
  const text = replacement.replace(/\\(\d)/g, '$$$1').replace(/\$\{(\d)\}/g, '$$$1').replace(/\\([\\/.\-_])/g, '$1');
  return (name) => (name.length > MAX_RENAMED_NAME ? undefined : name.replace(regex, text));
}

/** Longer names are not renamed here: the new one is left unknown (Linux's PATH_MAX). */
const MAX_RENAMED_NAME = 4096;

/** `y/a-z/A-Z/`: each character of the first list becomes the one at its place in the second. */
function perlTransliteration(from: string, to: string, flags: string): ((name: string) => string) | undefined {
  if (flags !== '' || /\\/.test(from + to)) return undefined;
  const expand = (list: string): string => list.replace(/(.)-(.)/g, (_, a: string, b: string) => (a <= b ? Array.from({ length: b.charCodeAt(0) - a.charCodeAt(0) + 1 }, (__, i) => String.fromCharCode(a.charCodeAt(0) + i)).join('') : `${a}-${b}`));
  if (from.length + to.length > 256) return undefined;
  const source = expand(from);
  // An empty replacement list is the search list again: `tr/a-z//` counts and changes nothing.
  const target = to === '' ? source : expand(to);
  if (source.length > 512 || target.length > 512) return undefined; // `\0-\uffff`: too wide a range to map here
  return (name) => [...name].map((c) => (source.includes(c) ? (target[source.indexOf(c)] ?? target[target.length - 1]!) : c)).join('');
}

function utilLinuxRenamer(from: Arg | undefined, to: Arg | undefined, all: boolean, last: boolean): ((name: string) => string | undefined) | undefined {
  if (from === undefined || to === undefined) return () => undefined;
  if (from.dynamic || to.dynamic) return () => undefined;
  return (name) => {
    if (from.value === '') return name;
    if (all) return name.split(from.value).join(to.value);
    const at = last ? name.lastIndexOf(from.value) : name.indexOf(from.value);
    return at === -1 ? name : name.slice(0, at) + to.value + name.slice(at + from.value.length);
  };
}

/** atool: `-x`/`-X DIR` unpack like aunpack, `-l`/`-c`/`-d` read, `-a`/`-r` write the first archive named. */
const ATOOL_OPTIONS: OptionSpec = { short: 'XFOEDSf', long: ['extract-to', 'format', 'format-option', 'explain', 'subdir', 'config', 'option'] };
const aunpack = optionUnpacker(['-X', '--extract-to'], [], ATOOL_OPTIONS);

const atool: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, ATOOL_OPTIONS);
  const operands = operandsOf(parsed, site);
  if (hasOption(parsed, '-x', '--extract', '-X', '--extract-to')) aunpack(site, fx);
  else if (hasOption(parsed, '-l', '--list', '-c', '--cat', '-d', '--diff')) {
    for (const archive of operands) fx.read('atool', archive);
  } else if (hasOption(parsed, '-a', '--add', '-r', '--repack') && operands[0]) {
    fx.write('atool', operands[0]);
    for (const file of operands.slice(1)) fx.readTree('atool', file);
  } else fx.unknown('atool');
};

/**
 * 7-Zip: `x`/`e` unpack the archive's members into the working directory or `-o<dir>`; `a`, `u`,
 * `d`, `rn` change the archive; `l`, `t`, `h`, `i` only read. Unknown commands are left to the phase.
 */
const sevenZip: ProgramHandler = (site, fx) => {
  const [command, archive, ...files] = site.args.filter((arg) => arg.dynamic || !arg.value.startsWith('-'));
  const output = site.args.find((arg) => arg.value.startsWith('-o') && arg.value.length > 2);
  const mode = command?.dynamic ? '' : (command?.value ?? '');
  if (archive !== undefined && archive.value !== '-si') fx.read(site.program, archive);
  if ((mode === 'x' || mode === 'e') && !site.args.some((arg) => arg.value === '-so')) {
    const here = output === undefined ? fx : fx.at({ ...output, value: output.value.slice(2), unknownAt: output.unknownAt === -1 ? -1 : Math.max(0, output.unknownAt - 2) });
    // `-spf`: full paths as stored, anywhere; `e` puts every member directly in the folder (no folders of the archive's).
    if (site.args.some((arg) => arg.value.startsWith('-spf'))) here.write(site.program, filesNamedByData(here, literalArg('/')));
    else here.write(site.program, mode === 'e' ? everythingBelow(here) : filesNamedByData(here));
  } else if (['a', 'u', 'd', 'rn'].includes(mode) && archive !== undefined) {
    fx.write(site.program, archive);
    // With no files named, it adds everything in the working directory; `@list` names them in a file.
    if (mode === 'a' || mode === 'u') {
      for (const file of files.length > 0 ? files : [literalArg('.')]) {
        if (file.value.startsWith('@') && !file.dynamic) {
          fx.read(site.program, { ...file, value: file.value.slice(1) });
          fx.readTree(site.program, NAMED_IN_A_LIST);
        } else fx.readTree(site.program, file);
      }
    }
    // `-sdel` deletes the files once they are in the archive.
    if (site.args.some((arg) => arg.value === '-sdel')) for (const file of files.length > 0 ? files : [literalArg('.')]) fx.remove(site.program, everythingBelow(fx, file));
  } else if (!['l', 't', 'h', 'i', 'b'].includes(mode)) fx.unknown(`${site.program} ${mode}`.trim());
};

/**
 * cpio: `-i` unpacks the archive it reads into the working directory (or `-D dir`), `-p DIR` copies
 * the files named on its input into DIR, `-o` writes an archive of them to its output (`-F`/`-O`
 * name a file). `-t` only lists.
 */
const cpio: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'DEFHIMORs', long: ['directory', 'pattern-file', 'file', 'format', 'message', 'owner', 'rsh-command', 'block-size', 'io-size'] });
  for (const value of optionValues(parsed, '--rsh-command')) fx.opaque(`cpio --rsh-command runs \`${value.value}\``, 'cpio');
  const directory = lastOptionValue(parsed, '-D', '--directory');
  const here = directory ? fx.at(directory) : fx;
  const archive = lastOptionValue(parsed, '-F', '-I', '-O', '--file');
  const listOnly = hasOption(parsed, '-t', '--list');
  if (hasOption(parsed, '-i', '--extract') || listOnly) {
    if (archive) fx.read('cpio', archive);
    if (!listOnly && !hasOption(parsed, '--to-stdout')) here.write('cpio', filesNamedByData(here, hasOption(parsed, '--no-absolute-filenames') ? undefined : literalArg('/')));
  } else if (hasOption(parsed, '-p', '--pass-through')) {
    // It copies the files named on its input, or with `-l` links them (writesThroughHardLinks).
    fx.read('cpio', NAMED_IN_A_LIST);
    if (hasOption(parsed, '-l', '--link')) writesThroughHardLinks(fx, 'cpio', [NAMED_IN_A_LIST]);
    const target = operandsOf(parsed, site)[0];
    if (target) here.write('cpio', filesNamedByData(here, target));
    else fx.unknown('cpio -p');
  } else if (hasOption(parsed, '-o', '--create')) {
    if (archive) fx.write('cpio', archive);
    // The files it archives are named on its input, found at run time.
    fx.read('cpio', NAMED_IN_A_LIST);
  } else fx.unknown('cpio');
};

/** pax: `-r` unpacks into the working directory, `-rw … DIR` copies into DIR, `-w` writes an archive (`-f`). With neither it lists. */
const pax: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'bcfosxBGTUs', long: [] });
  const archive = lastOptionValue(parsed, '-f');
  const reads = hasOption(parsed, '-r');
  const writes = hasOption(parsed, '-w');
  const operands = operandsOf(parsed, site);
  if (reads && writes) {
    const target = operands.pop();
    for (const file of operands) fx.readTree('pax', file);
    // `-l` links the files instead of copying them where it can (writesThroughHardLinks).
    if (hasOption(parsed, '-l')) writesThroughHardLinks(fx, 'pax', operands.flatMap((file) => [file, everythingBelow(fx, file)]));
    if (target) fx.write('pax', filesNamedByData(fx, target));
  } else if (reads) {
    if (archive) fx.read('pax', archive);
    // pax keeps absolute and `../` member names: they land where they point.
    fx.write('pax', filesNamedByData(fx, literalArg('/')));
  } else if (writes) {
    if (archive) fx.write('pax', archive);
    for (const file of operands) fx.readTree('pax', file);
  } else if (archive) fx.read('pax', archive);
};

/** ar: `x` unpacks members into the working directory; `t` and `p` read; the others change the archive. */
const ar: ProgramHandler = (site, fx) => {
  // GNU ar's `--output=DIR` (or `--output DIR`): where `x` puts what it unpacks.
  const outputAt = site.args.findIndex((arg) => /^--output(?:=|$)/.test(arg.value));
  const output = outputAt === -1 ? undefined : site.args[outputAt]!.value.includes('=') ? { ...site.args[outputAt]!, value: site.args[outputAt]!.value.slice('--output='.length) } : site.args[outputAt + 1];
  const [key, archive, ...members] = outputAt === -1 ? site.args : site.args.filter((_, i) => i !== outputAt && (i !== outputAt + 1 || site.args[outputAt]!.value.includes('=')));
  const here = output === undefined ? fx : fx.at(output);
  const mode = key === undefined || key.dynamic ? '' : key.value.replace(/^-/, '');
  if (archive === undefined || mode === '') {
    fx.unknown('ar');
    return;
  }
  const operation = /[dmpqrstx]/.exec(mode)?.[0];
  if (operation === 'x') {
    fx.read('ar', archive);
    // Named members land under their names; without any, whatever the archive holds.
    if (members.length > 0) for (const member of members) here.write('ar', member);
    else here.write('ar', filesNamedByData(here));
  } else if (operation === 't' || operation === 'p') fx.read('ar', archive);
  else if (operation === undefined) fx.unknown(`ar ${mode}`);
  else {
    fx.write('ar', archive);
    for (const member of members) fx.read('ar', member);
  }
};

/** unar unpacks into the working directory or `-o DIR`; lsar only lists. */
const UNAR_OPTIONS: OptionSpec = { short: 'opeE', long: ['output-directory', 'password', 'encoding', 'password-encoding'] };

/** dpkg-deb's actions (dpkg hands the same ones on, but for `-R`, its `--recursive`). */
export const DPKG_DEB_ACTION = /^-(?:[xXRbcIfeW]|-(?:extract|vextract|raw-extract|build|contents|info|field|control|ctrl-tarfile|fsys-tarfile|show))$/;

/** dpkg-deb: `-x`/`-R`/`-X` unpack a package into a folder; `-b` builds one; the rest read it. (dpkg hands these actions to it.) */
export const dpkgDeb: ProgramHandler = (site, fx) => {
  const action = site.args.find((arg) => !arg.dynamic && DPKG_DEB_ACTION.test(arg.value));
  const operands = site.args.filter((arg) => arg !== action && (arg.dynamic || !arg.value.startsWith('-')));
  const name = action?.value ?? '';
  if (['-x', '-X', '-R', '--extract', '--vextract', '--raw-extract'].includes(name)) {
    if (operands[0]) fx.read('dpkg-deb', operands[0]);
    if (operands[1]) fx.write('dpkg-deb', filesNamedByData(fx, operands[1]));
    else fx.unknown(`dpkg-deb ${name}`);
  } else if (name === '-b' || name === '--build') {
    if (operands[0]) fx.readTree('dpkg-deb', operands[0]);
    fx.write('dpkg-deb', operands[1] ?? everythingBelow(fx));
  } else if (name === '-e' || name === '--control') {
    if (operands[0]) fx.read('dpkg-deb', operands[0]);
    fx.write('dpkg-deb', filesNamedByData(fx, operands[1] ?? literalArg('DEBIAN')));
  } else if (action !== undefined) {
    if (operands[0]) fx.read('dpkg-deb', operands[0]);
  } else fx.unknown('dpkg-deb');
};

/** keytool and gpg list and check keys without changing a keystore or keyring only with these options. */
const KEY_READS = /^-(?:list|printcert|printcertreq|printcrl|-list-keys|-list-public-keys|-list-secret-keys|-list-sigs|-check-sigs|-fingerprint|-verify|k|K|-version)$/;
const keyTool: ProgramHandler = (site, fx) => {
  const action = site.args.find((arg) => arg.value.startsWith('-'));
  if (action === undefined || !KEY_READS.test(action.value)) fx.unknown(`${site.program} ${action?.value ?? ''}`.trim());
};

/** `history -w FILE` (or `-a`, `-n`, `-r`): the history file, `$HISTFILE` when none is named; -w writes it even in a script, emptying it. */
const history: ProgramHandler = (site, fx) => {
  const mode = site.args.find((arg) => /^-[a-z]*[wanr]/.test(arg.value));
  if (mode === undefined) return;
  const file = site.args.find((arg) => !arg.value.startsWith('-')) ?? { value: '$HISTFILE', dynamic: true, unknownAt: 0 };
  if (/[wa]/.test(mode.value)) fx.write('history', file);
  else fx.read('history', file);
};

/** csplit FILE PATTERN…: the pieces are `<prefix>NN` (`-f`, default `xx`), and `-b '%.0d'` can make the first one the prefix itself. */
const csplit: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'fbn', long: ['prefix', 'suffix-format', 'digits'] });
  const operands = operandsOf(parsed, site);
  if (operands[0] && operands[0].value !== '-') fx.read('csplit', operands[0]);
  const prefix = lastOptionValue(parsed, '-f', '--prefix') ?? literalArg('xx');
  fx.write('csplit', { ...prefix, value: `${prefix.value}*`, dynamic: true });
};

const mktemp: ProgramHandler = (site, fx) => {
  const target = mktempTarget(site.args, fx.tmpdir());
  if (target.dryRun) return;
  fx.write('mktemp', fx.path({ value: target.glob, dynamic: true, unknownAt: target.dynamic || target.glob.startsWith('$') ? 0 : -1 }));
};

const editor: ProgramHandler = (site, fx) => {
  // Editors run with commands (`vim -c wq`, `+cmd`, `-s script`, `ed <<<`) change files and can run shell commands.
  const scripted = site.program === 'ed' || site.program === 'ex' || site.args.some((arg) => /^(?:-[cSs]|--cmd|\+|--eval|-l|--load|--batch|-batch|-x|--script|-e)/.test(arg.value));
  if (scripted) fx.opaque(`${site.program} runs editor commands, which can write any file or run a shell`, site.program);
  const spec: OptionSpec = site.program === 'ed' ? { short: 'p' } : { short: 'cSsTuiwWrtq', long: ['cmd', 'eval', 'load', 'script'] };
  const parsed = parseArgv(site.args.filter((arg) => !arg.value.startsWith('+')), spec);
  for (const file of operandsOf(parsed, site)) fx.write(site.program, file);
};

/** Dot-commands of the sqlite3 shell that only print (`.output`, `.shell`, `.import`, `.save`… are not among them). */
const SQLITE_PRINTING_DOT_COMMANDS = /^\.(?:tables|table|schema|fullschema|indexes|indices|headers|header|mode|databases|dump|dbinfo|help|width|nullvalue|separator|timer|stats|show|print|changes|eqp|explain|echo|bail)(?:\s|$)/i;
/** `.backup ?DB? FILE` and its old name `.save`: a copy of the database, read, into FILE, written (sqliteBackups). */
const SQLITE_BACKUP = /^\.(?:backup|save)\s/i;
/** A dot-command's argument as sqlite3's shell splits them: a word, or a quoted one. */
const SQLITE_DOT_ARGUMENT = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;

/** The files `.backup` and `.save` write: the last argument, after the options (`--append`, `--async`). */
function sqliteBackups(code: readonly Arg[]): Arg[] {
  const files: Arg[] = [];
  for (const arg of code) {
    if (arg.dynamic) continue;
    for (const line of arg.value.split('\n')) {
      const trimmed = line.trim();
      if (!SQLITE_BACKUP.test(trimmed)) continue;
      const words = [...trimmed.matchAll(SQLITE_DOT_ARGUMENT)].slice(1).map((match) => match[1] ?? match[2] ?? match[3]!).filter((word) => !word.startsWith('--'));
      const file = words.at(-1);
      if (file !== undefined) files.push(literalArg(file));
    }
  }
  return files;
}
/** Words of SQL that change a database, or reach outside it (writefile, edit, load_extension). */
const SQL_CHANGES = /\b(?:insert|update|delete|replace(?!\s*\()|create|drop|alter|attach|detach|vacuum|reindex|analyze|begin|commit|rollback|savepoint|release|writefile|edit|load_extension|upsert)\b/i;

/** Whether literal sqlite3 input only reads: dot-commands that print, and queries with no word that changes anything. */
function sqliteOnlyReads(code: readonly Arg[]): boolean {
  return code.every((arg) => {
    if (arg.dynamic) return false;
    // String literals may hold anything; what is left is what the statements are.
    // String literals and quoted identifiers may hold anything (`"'"` is a name, not half a string).
    const text = arg.value.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, "''");
    return text.split(/[;\n]/).every((statement) => {
      const trimmed = statement.trim();
      if (trimmed === '') return true;
      if (trimmed.startsWith('.')) return SQLITE_PRINTING_DOT_COMMANDS.test(trimmed) || SQLITE_BACKUP.test(trimmed);
      return /^(?:select|with|explain|values)\b/i.test(trimmed) ? !SQL_CHANGES.test(trimmed) : pragmaOnlyReads(trimmed);
    });
  });
}

/**
 * `pragma table_info(users)` and `pragma integrity_check` read; a pragma given a value
 * (`user_version(2)`, `journal_mode = wal`) sets it, and `optimize`, `wal_checkpoint` and
 * `incremental_vacuum` change the file.
 */
function pragmaOnlyReads(statement: string): boolean {
  const match = /^pragma\s+(?:\w+\.)?(\w+)\s*(\(\s*(?:[\w.]*|'')\s*\))?\s*$/i.exec(statement);
  if (match === null) return false;
  const name = match[1]!.toLowerCase();
  return match[2] === undefined ? !/^(?:optimize|wal_checkpoint|incremental_vacuum)$/.test(name) : PRAGMAS_OF_A_TABLE.has(name);
}

/** Pragmas whose argument names what to describe, not a value to set. */
const PRAGMAS_OF_A_TABLE = new Set(['table_info', 'table_xinfo', 'table_list', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list', 'foreign_key_check', 'integrity_check', 'quick_check']);

/** sqlite3's file functions and the path expression each is given (up to its first comma or closing parenthesis, string literals whole). */
const SQL_FILE_FUNCTION = /\b(readfile|writefile|edit)\s*\(((?:'(?:[^']|'')*'|char\s*\([\d\s,]*\)|[^,)'])*)/gi;
/** `'a' || 'b'`, `char(47)`: a path SQL builds from fixed parts. */
const SQL_STRING_PART = /^\s*(?:'((?:[^']|'')*)'|char\s*\(\s*([\d\s,]+)\))\s*$/i;

/**
 * `readfile(X)` reads the file X names, `writefile(X, …)` and `edit(…, X)`-style calls write it:
 * a path of fixed parts (`'/home/dev/.go' || 'bby/token'`, `char(47) || 'etc'`) is that file, one
 * built otherwise (a column, a subquery) is any file.
 */
function sqlFileFunctions(sql: string, fx: ShellEffects): void {
  for (const match of sql.matchAll(SQL_FILE_FUNCTION)) {
    const name = match[1]!.toLowerCase();
    let path = '';
    for (const piece of match[2]!.split('||')) {
      const part = SQL_STRING_PART.exec(piece);
      if (part === null) {
        path = '';
        break;
      }
      path += part[1] !== undefined ? part[1].replaceAll("''", "'") : String.fromCharCode(...part[2]!.split(',').map((code) => Number(code.trim())));
    }
    if (path === '') fx.opaque(`sqlite3 ${name}() is given a path built as the SQL runs`, 'sqlite3');
    else if (name === 'readfile') fx.read('sqlite3', literalArg(path));
    else if (name === 'writefile') fx.write('sqlite3', literalArg(path));
    else fx.opaque('sqlite3 edit() runs an editor', 'sqlite3');
  }
}

/** Manual pages print; a pager, a browser or an output file of the caller's choosing is another matter. */
const manual: ProgramHandler = (site, fx) => {
  const given = site.args.find((arg) => arg.dynamic || /^(?:-[a-zA-Z]*[PHo]|--pager|--html|--output|--browser)/.test(arg.value));
  if (given) fx.opaque(`${site.program} ${given.value} runs a program or writes a file of the caller's choosing`, site.program);
};

const sqlite: ProgramHandler = (site, fx) => {
  // `-A` (archive mode, `-Ax`, `-A -x -C DIR`): extracting writes the archive's files wherever they say.
  if (site.args.some((arg) => /^-A[a-zA-Z]*$|^--?archive$/.test(arg.value))) {
    fx.write('sqlite3', everythingBelow(fx));
    fx.opaque('sqlite3 -A works on an archive whose members name their own paths', 'sqlite3');
  }
  // sqlite3 spells its long options with one dash (`-cmd`, `-init`, `-readonly`) or two.
  const args = site.args.map((arg) => (!arg.dynamic && /^-[a-z]{2,}$/.test(arg.value) ? { ...arg, value: `-${arg.value}` } : arg));
  const parsed = parseArgv(args, { long: ['cmd', 'init', 'separator', 'newline', 'nullvalue', 'vfs', 'mmap', 'lookaside', 'pagecache', 'heap', 'maxsize'] });
  const [database, ...sql] = operandsOf(parsed, { ...site, args });
  // `sqlite3 -version`, `sqlite3 --help`: it prints and exits, reading no input and no database.
  if (database === undefined && hasOption(parsed, '--version', '--help')) return;
  const code = [...sql, ...optionValues(parsed, '--cmd')];
  const fromInput = code.length === 0 || optionValues(parsed, '--init').length > 0;
  const readOnly = hasOption(parsed, '--readonly') || (!fromInput && sqliteOnlyReads(code));
  // A URI filename (`file:data.db?mode=ro`) names the file before its query.
  const file = database && /^file:/.test(database.value) ? { ...database, value: database.value.replace(/^file:(?:\/\/localhost)?/, '').replace(/\?.*$/, '') } : database;
  if (file) (readOnly ? fx.read : fx.write).call(fx, 'sqlite3', file);
  for (const arg of code) if (!arg.dynamic) sqlFileFunctions(arg.value, fx);
  for (const backup of sqliteBackups(code)) fx.write('sqlite3', backup);
  // Dot-commands (.shell, .system, .output), SQL that writes other files and SQL read from stdin can do anything.
  if (fromInput || code.some((arg) => arg.dynamic || (/(^|\n)\s*\.|load_extension|\bATTACH\b|writefile|\bedit\s*\(|\bvacuum\b/i.test(arg.value) && !sqliteOnlyReads([arg])))) {
    fx.opaque('sqlite3 runs SQL and dot-commands (.shell, .output) it reads from stdin or a file', 'sqlite3');
  }
};

const tree: ProgramHandler = readsWithOutput({ short: 'LPIHTo', long: ['charset', 'filelimit', 'timefmt', 'sort'] }, ['-o']);

const shred: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'ns', long: ['iterations', 'size', 'random-source', 'remove'] });
  const removes = hasOption(parsed, '-u', '--remove');
  for (const file of operandsOf(parsed, site)) (removes ? fx.remove : fx.write).call(fx, 'shred', file);
};

const rsync: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'eBfTM', long: ['rsh', 'rsync-path', 'exclude', 'include', 'exclude-from', 'include-from', 'files-from', 'filter', 'temp-dir', 'compare-dest', 'copy-dest', 'link-dest', 'read-batch', 'backup-dir', 'suffix', 'chmod', 'chown', 'usermap', 'groupmap', 'timeout', 'contimeout', 'port', 'password-file', 'log-file', 'bwlimit', 'partial-dir', 'max-size', 'min-size', 'modify-window', 'out-format', 'info', 'debug', 'sockopts', 'outbuf', 'iconv', 'block-size', 'checksum-choice', 'compress-choice', 'compress-level', 'skip-compress'] });
  // The remote shell runs here: judged as the command it is (`-e 'ssh -o ProxyCommand=…'` runs local code).
  for (const shell of optionValues(parsed, '-e', '--rsh')) fx.runShellCode(shell, 'rsync', false);
  for (const path of optionValues(parsed, '--rsync-path')) fx.opaque(`rsync --rsync-path runs \`${path.value}\``, 'rsync');
  // `-n`/`--dry-run` (also in a cluster, `-avn`) only lists what it would do; `--list-only` too.
  if (site.args.some((arg) => !arg.dynamic && (/^--(?:dry-run|list-only)$/.test(arg.value) || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(arg.value)))) return;
  for (const file of optionValues(parsed, '--log-file', '--write-batch', '--only-write-batch')) fx.write('rsync', file);
  for (const folder of optionValues(parsed, '--backup-dir', '--partial-dir', '--temp-dir')) fx.write('rsync', everythingBelow(fx, folder));
  // Files in these folders are copied or hard-linked into the destination when rsync finds them the same by size and time.
  for (const folder of optionValues(parsed, '--copy-dest', '--compare-dest', '--link-dest')) fx.readTree('rsync', folder);
  const linkFolders = optionValues(parsed, '--link-dest');
  const operands = operandsOf(parsed, site);
  const destination = operands.pop();
  // `--read-batch=FILE DEST` replays a batch: whole trees, named by the data.
  for (const batch of optionValues(parsed, '--read-batch')) {
    fx.read('rsync', batch);
    fx.write('rsync', filesNamedByData(fx, destination ?? literalArg('.')));
  }
  // A hard link to a file of the folder is that file: written whenever the link is (writesThroughHardLinks). A
  // relative folder is taken from the destination, as rsync does.
  for (const folder of linkFolders) writesThroughHardLinks(fx, 'rsync', [everythingBelow(destination && !folder.value.startsWith('/') && !folder.value.startsWith('~') ? fx.at(destination) : fx, folder)]);
  if (!destination) return;
  // `-R` keeps each source's path below the destination; `--files-from` takes the names from a list.
  const keepsPaths = hasOption(parsed, '--files-from') || site.args.some((arg) => !arg.dynamic && (/^--relative$/.test(arg.value) || /^-[a-zA-Z]*R[a-zA-Z]*$/.test(arg.value)));
  const remote = (arg: Arg): string | undefined => /^(?:rsync:\/\/([^/]+)|(?:[^@/:]+@)?([^/:]+):)/.exec(arg.value)?.slice(1).find(Boolean);
  const host = remote(destination);
  for (const source of operands) {
    const sourceHost = remote(source);
    if (sourceHost) fx.network('rsync', sourceHost);
    else if (host) fx.readTree('rsync', source);
  }
  if (host) fx.network('rsync', host);
  else {
    // A source ending in `/` is copied as its contents (`rsync -a tmpl/ .claude/`), whatever they are named.
    for (const source of operands) if (!remote(source)) fx.copy('rsync', source, keepsPaths || source.value.endsWith('/') || namesItsContents(source) ? filesNamedByData(fx, destination) : destination);
    if (keepsPaths && operands.length === 0) fx.write('rsync', filesNamedByData(fx, destination));
    for (const source of operands) if (remote(source)) writesRemoteCopy(fx, 'rsync', source, destination, keepsPaths || source.value.endsWith('/'));
    // --delete removes from the destination whatever the source lacks: any name below it, dot names included.
    if (hasOption(parsed, '--delete', '--delete-before', '--delete-after', '--delete-during', '--delete-excluded', '--del')) {
      const below = fx.path(destination).path.replace(/\/$/, '');
      fx.remove('rsync', { path: `${below}/**/*`, dynamic: true });
    }
    if (hasOption(parsed, '--remove-source-files')) for (const source of operands) if (!remote(source)) fx.remove('rsync', /\/\.?$/.test(source.value) ? everythingBelow(fx, source) : source);
  }
};

interface InspectorSpec {
  readonly options?: OptionSpec;
  /** Leading operands that are not paths: a subcommand (`xsv headers`, `trivy fs`, `gitleaks detect`). */
  readonly subcommands?: number;
  /** With no operand, the tool reads everything below the working directory (`tokei`, `typos`). */
  readonly tree?: boolean;
  /** Options that name a file the tool writes its report to. */
  readonly outputs?: readonly string[];
  /** Flags that make it rewrite what it reads (`typos -w`, `semgrep --autofix`). */
  readonly fixes?: RegExp;
}

/**
 * Viewers, counters, linters and scanners that read the files or trees they are given (`bat`,
 * `eza`, `tokei`, `codespell`, `semgrep`, `trivy fs`, `gitleaks`): reads, unless a flag makes them
 * rewrite what they read or an option names a report file.
 */
function inspector(spec: InspectorSpec): ProgramHandler {
  return (site, fx) => {
    if (onlyAsksVersion(site.args)) return;
    const parsed = parseArgv(site.args, withReaderOptions(spec.options));
    readerOptions(site, parsed, fx);
    for (const out of optionValues(parsed, ...(spec.outputs ?? []))) fx.write(site.program, out);
    writesOutputOptions(fx, site.program, site.args);
    const files = operandsOf(parsed, site).slice(spec.subcommands ?? 0);
    const fixes = spec.fixes !== undefined && site.args.some((arg) => spec.fixes!.test(arg.value));
    const targets: readonly (Arg | PathRef)[] = files.length > 0 ? files : spec.tree ? [workingDirectory(fx)] : [];
    for (const target of targets) {
      if ('value' in target && target.value === '-') continue;
      if (fixes) fx.write(site.program, spec.tree ? everythingBelow(fx, target) : target);
      else if (spec.tree) fx.readTree(site.program, target);
      else fx.read(site.program, target);
    }
  };
}


const INSPECTORS: readonly [readonly string[], InspectorSpec][] = [
  [['bat', 'batcat', 'glow', 'jless', 'gron', 'delta', 'difft', 'difftastic'], { options: { short: 'lHrmL', long: ['language', 'highlight-line', 'line-range', 'map-syntax', 'theme', 'style', 'tabs', 'terminal-width', 'width', 'pager'] } }],
  [['xsv', 'qsv'], { subcommands: 1, options: { short: 'odsnl', long: ['output', 'delimiter', 'select', 'limit'] }, outputs: ['-o', '--output'] }],
  [['pandoc'], { options: { short: 'oftFLdM', long: ['output', 'from', 'to', 'template', 'metadata', 'variable', 'lua-filter', 'filter', 'resource-path', 'data-dir', 'defaults'] }, outputs: ['-o', '--output'] }],
  [['eza', 'exa', 'lsd'], { tree: false, options: { short: 'LIsTX', long: ['level', 'ignore-glob', 'sort', 'time-style', 'color', 'icons', 'depth', 'group-dirs', 'blocks'] } }],
  [['tokei', 'scc', 'cloc', 'dust', 'du-dust'], { tree: true, options: { short: 'etsdnXwfoc', long: ['exclude', 'type', 'sort', 'depth', 'output', 'format', 'by', 'exclude-dir', 'report-file', 'out', 'include-lang'] }, outputs: ['--out', '--report-file', '-o', '--output'] }],
  [['codespell', 'typos'], { tree: true, options: { short: 'LSIDcx', long: ['ignore-words-list', 'skip', 'ignore-words', 'dictionary', 'config', 'exclude', 'format'] }, fixes: /^(?:-w|--write-changes|-i\d*|--interactive)$/ }],
  [['semgrep', 'opengrep'], { tree: true, subcommands: 0, options: { short: 'fceo', long: ['config', 'exclude', 'include', 'output', 'json-output', 'sarif-output', 'text-output', 'lang', 'pattern', 'severity', 'metrics', 'jobs', 'timeout'] }, outputs: ['-o', '--output', '--json-output', '--sarif-output', '--text-output'], fixes: /^--autofix$/ }],
  [['bandit'], { tree: false, options: { short: 'cpstfoxlib', long: ['configfile', 'profile', 'tests', 'skip', 'format', 'output', 'exclude', 'baseline', 'ini', 'msg-template', 'severity-level', 'confidence-level'] }, outputs: ['-o', '--output'] }],
  [['trivy'], { tree: true, subcommands: 1, options: { short: 'fo', long: ['format', 'output', 'severity', 'scanners', 'skip-dirs', 'skip-files', 'ignorefile', 'cache-dir', 'timeout', 'template', 'config'] }, outputs: ['-o', '--output'] }],
  [['osv-scanner'], { tree: true, options: { short: 'rLfM', long: ['lockfile', 'format', 'output', 'config', 'sbom', 'call-analysis'] }, outputs: ['--output'] }],
  [['gitleaks'], { tree: true, subcommands: 1, options: { short: 'scrfl', long: ['source', 'config', 'report-path', 'report-format', 'log-opts', 'baseline-path', 'log-level'] }, outputs: ['-r', '--report-path'] }],
];

/** xmllint reads its files; `--output FILE` writes, and `--shell` reads commands from its input. */
const xmllint: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'o', long: ['output', 'xpath', 'schema', 'relaxng', 'dtdvalid', 'dtdvalidfpi', 'encode', 'path', 'pattern', 'maxmem', 'pretty', 'c14n11', 'xinclude', 'catalogs'] });
  for (const out of optionValues(parsed, '-o', '--output')) fx.write('xmllint', out);
  for (const schema of optionValues(parsed, '--schema', '--relaxng', '--dtdvalid')) fx.read('xmllint', schema);
  if (hasOption(parsed, '--shell')) fx.opaque('xmllint --shell runs the commands it reads', 'xmllint');
  for (const file of operandsOf(parsed, site)) if (file.value !== '-') fx.read('xmllint', file);
};

/** mlr: reads its files, or rewrites them with `-I`; its verbs and their arguments come before them, so every operand counts as a file. */
const mlr: ProgramHandler = (site, fx) => {
  const inPlace = site.args.some((arg) => arg.value === '-I');
  const parsed = parseArgv(site.args, { long: ['from', 'ifs', 'ofs', 'ips', 'ops', 'irs', 'ors', 'nr-progress-mod', 'load', 'mload'] });
  for (const file of [...optionValues(parsed, '--from'), ...operandsOf(parsed, site)]) {
    if (inPlace) fx.write('mlr', file);
    else fx.read('mlr', file);
  }
  for (const code of optionValues(parsed, '--load', '--mload')) fx.opaque(`mlr loads the DSL code in \`${code.value}\``, 'mlr');
  // Its DSL runs commands (`system("…")`, `exec`) and writes files (`tee > "f"`, `emit > "f"`), as do the `tee` and `split` verbs.
  // `put -f FILE` / `filter -f FILE` (also after put's own flags) take their DSL from a file.
  const fromFile = (i: number): boolean => site.args[i]!.value === '-f' && site.args.slice(Math.max(0, i - 3), i).some((arg) => arg.value === 'put' || arg.value === 'filter');
  // `mlr -s FILE` takes its arguments from a file.
  const writesOrRuns = site.args.find((arg, i) => MLR_RUNS_OR_WRITES.test(arg.value) || arg.value === 'tee' || arg.value === 'split' || arg.dynamic || fromFile(i) || (i === 0 && arg.value === '-s'));
  if (writesOrRuns !== undefined) fx.opaque(`mlr runs commands or writes files its verbs or DSL name (\`${writesOrRuns.value.slice(0, 80)}\`)`, 'mlr');
};

/** mlr DSL that runs a command or sends output to a file or a pipe. */
const MLR_RUNS_OR_WRITES = /\b(?:system|exec)\s*\(|\b(?:tee|emit[pf1]?|print[n]?|eprint[n]?|dump|edump)\s*[>|]/;

/** `sd FIND REPLACE [FILES]`: rewrites its files in place, unless `-p` only previews; with none it filters its input. */
const sd: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'nf', long: ['max-replacements', 'flags'] });
  const preview = hasOption(parsed, '-p', '--preview');
  for (const file of operandsOf(parsed, site).slice(2)) {
    if (preview) fx.read('sd', file);
    else fx.write('sd', file);
  }
};

/** dasel: `put` and `delete` rewrite the file given with `-f` (unless `-o` sends the result elsewhere); the rest read it. */
const dasel: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'frwospv', long: ['file', 'read', 'write', 'out', 'selector', 'parser', 'value', 'type'] });
  const changes = ['put', 'delete'].includes(operandsOf(parsed, site)[0]?.value ?? '');
  const out = lastOptionValue(parsed, '-o', '--out');
  for (const file of optionValues(parsed, '-f', '--file')) {
    fx.read('dasel', file);
    if (changes && !out) fx.write('dasel', file);
  }
  if (out) fx.write('dasel', out);
};

export const FILE_PROGRAMS: readonly [string, ProgramEntry][] = [
  ...entries(noEffect, ...PURE_PROGRAMS),
  ['journalctl', { handle: journalctl }],
  ...INSPECTORS.flatMap(([names, spec]) => entries(inspector(spec), ...names)),
  ['mlr', { handle: mlr }],
  ['sd', { handle: sd }],
  ['dasel', { handle: dasel }],
  ...entries(noEffect, 'duf', 'procs', 'btop', 'htop', 'locate', 'plocate', 'mlocate'),
  ['xmllint', { handle: xmllint }],
  ...READERS.flatMap(([names, spec, skip, withoutOperands]) =>
    entries(skip === -1 ? searchHandler(spec) : readsOperands(spec, skip, withoutOperands), ...names),
  ),
  ['rg', { handle: rg }],
  ...entries(agLike, 'ag', 'pt'),
  ...entries(jq, 'jq', 'gojq', 'jaq'),
  ['fd', { handle: fd }],
  ['fdfind', { handle: fd }],
  ['find', { handle: find }],
  ['sort', { handle: sortHandler }],
  ...entries(inputThenOutput({ short: 'fsw', long: ['skip-fields', 'skip-chars', 'check-chars'] }), 'uniq'),
  ...entries(inputThenOutput({ short: 'lscgonR', long: ['len', 'seek', 'cols', 'groupsize', 'offset', 'name'] }), 'xxd'),
  ...entries(readsWithOutput({ short: 'nio', long: ['head-count', 'input-range', 'output', 'random-source'] }, ['-o', '--output']), 'shuf'),
  ...entries(readsWithOutput({ short: 'ftco', long: ['from-code', 'to-code', 'output'] }, ['-o', '--output']), 'iconv'),
  ...entries(readsWithOutput({ short: 'woIW', long: ['width', 'output'] }, ['-o', '--output']), 'sdiff'),
  ['tree', { handle: tree }],
  ['less', { handle: less }],
  ['file', { handle: fileType }],
  ['yq', { handle: yq }],
  ['cp', { handle: cpLike('copy') }],
  ['mv', { handle: cpLike('move') }],
  ['ln', { handle: ln }],
  ['link', { handle: (site, fx) => {
    writesOperands({}, 1)(site, fx);
    writesThroughHardLinks(fx, 'link', site.args.slice(0, 1));
  } }],
  ['install', { handle: install }],
  ...entries(deletesOperands({ long: ['interactive'] }), 'rm', 'rmdir', 'unlink', 'rimraf', 'del', 'trash', 'trash-put'),
  ['shred', { handle: shred }],
  ...entries(writesOperands({ short: 'mZ', long: ['mode', 'context'] }), 'mkdir', 'mkdirp', 'mkfifo', 'mknod'),
  ['touch', { handle: touch }],
  ['tee', { handle: tee }],
  ['truncate', { handle: truncate }],
  ['dd', { handle: dd }],
  ...entries(changeAttributes, 'chmod', 'chown', 'chgrp', 'chattr', 'setfacl'),
  ['sed', { handle: sed }],
  ['gsed', { handle: sed }],
  ...entries(awk, 'awk', 'gawk', 'mawk', 'nawk'),
  ['tar', { handle: tar }],
  ['gtar', { handle: tar }],
  ['bsdtar', { handle: tar }],
  ['unzip', { handle: unzip }],
  ['zip', { handle: zip }],
  ...entries(compressor, 'gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd', 'lz4', 'brotli', 'compress', 'uncompress'),
  ['patch', { handle: patch }],
  ['split', { handle: split }],
  ['csplit', { handle: csplit }],
  ['mktemp', { handle: mktemp }],
  ['history', { handle: history }],
  ['jar', { handle: jar }],
  ...entries(diff, 'diff', 'diff3', 'colordiff'),
  ...entries(sevenZip, '7z', '7za', '7zr', '7zz'),
  ['cpio', { handle: cpio }],
  ['pax', { handle: pax }],
  ['ar', { handle: ar }],
  ['unar', { handle: optionUnpacker(['-o', '--output-directory'], [], UNAR_OPTIONS) }],
  ['lsar', { handle: readsOperands(UNAR_OPTIONS) }],
  ['dpkg-deb', { handle: dpkgDeb }],
  ...entries(commandUnpacker({ keeps: ['x'], flat: ['e'], reads: ['l', 'lb', 'lt', 'lta', 'v', 'vb', 'vt', 'vta', 't', 'p'] }), 'unrar', 'rar'),
  ...entries(commandUnpacker({ keeps: ['x'], flat: ['e'], reads: ['l', 'v', 't', 'p'] }), 'lha', 'lhasa'),
  ...entries(commandUnpacker({ keeps: ['x'], flat: ['e'], reads: ['l', 'v', 't', 'p'] }), 'arj', 'unarj'),
  ['cabextract', { handle: optionUnpacker(['-d', '--directory'], ['-l', '--list', '-t', '--test', '-p', '--pipe'], { short: 'dFe', long: ['directory', 'filter', 'encoding'] }) }],
  ['patool', { handle: optionUnpacker(['--outdir'], [], { long: ['outdir', 'password'] }, { extract: ['extract'], reads: ['list', 'test', 'diff', 'search', 'formats'] }) }],
  ['atool', { handle: atool }],
  ...entries(rename, 'rename', 'prename', 'perl-rename', 'file-rename', 'rename.ul'),
  ['aunpack', { handle: aunpack }],
  ...entries(keyTool, 'keytool', 'gpg', 'gpg2'),
  ['shopt', { handle: shopt }],
  ['setopt', { handle: setopt }],
  ...entries(editor, 'vi', 'vim', 'nvim', 'view', 'ex', 'ed', 'emacs', 'nano', 'pico', 'micro', 'joe', 'kak', 'hx'),
  ['sqlite3', { handle: sqlite }],
  ...entries(manual, 'man', 'info', 'apropos', 'whatis', 'tldr'),
  ['sqlite', { handle: sqlite }],
  ['rsync', { handle: rsync }],
];
