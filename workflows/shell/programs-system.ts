// System and toolchain inspectors: programs whose read-only forms a developer runs to look at the
// machine (`ip addr`, `timedatectl`, `apt-cache policy x`, `xcrun --show-sdk-path`, `defaults read
// x`). Each is read by a table of its verbs that only show; any other verb, an option that changes
// something, or a word only known at run time, leaves it a program gobby does not know.
import { parseArgv, type OptionSpec } from './argv.js';
import { entries, mayBeAgentsFile, noEffect, operandsOf, readsOperands, type ProgramEntry, type ProgramHandler } from './program-kit.js';

interface Inspector {
  /** The verbs (the first operand) that only show; `''` when the program may be run with none. */
  readonly reads: readonly string[];
  /** Groups whose verb comes second (`nmcli device status`, `ip route show`, `diskutil apfs list`). */
  readonly groups?: readonly string[];
  /** Options that take a value, so the value is not read as a verb. */
  readonly options?: OptionSpec;
  /** Options that make the program change something or run something, whatever the verb. */
  readonly changes?: RegExp;
  /** Operands after the verb are files it reads (`plutil -p Info.plist`). */
  readonly readsFiles?: boolean;
  /** At most this many operands (`ifconfig eth0`: one interface shown; `ifconfig eth0 down` changes it). */
  readonly maxOperands?: number;
}

/** A program whose forms this table knows, in the shape its verbs come in. */
function inspector(spec: Inspector): ProgramHandler {
  return (site, fx) => {
    const parsed = parseArgv(site.args, spec.options ?? {});
    const operands = operandsOf(parsed, site);
    const changes = site.args.find((arg) => spec.changes?.test(arg.value) === true);
    const grouped = spec.groups !== undefined && spec.groups.includes(operands[0]?.value ?? '');
    const verb = operands[grouped ? 1 : 0];
    const shown = site.args.every((arg) => !arg.dynamic) && changes === undefined && (spec.maxOperands === undefined || operands.length <= spec.maxOperands) && spec.reads.includes(verb?.value ?? '');
    if (!shown) {
      fx.unknown(changes !== undefined ? `${site.program} ${changes.value}` : [site.program, ...operands.slice(0, grouped ? 2 : 1).map((arg) => arg.value)].join(' '));
      return;
    }
    if (spec.readsFiles === true) for (const file of operands.slice(verb === undefined ? 0 : operands.indexOf(verb) + 1)) fx.read(site.program, file);
  };
}

/** Short options made of one letter each: whether every letter of every option word is one of `letters` (`ssh-keygen -lf`). */
function onlyLetters(args: readonly { readonly value: string }[], letters: string, withValue: string): boolean {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!.value;
    if (!word.startsWith('-')) continue;
    for (let c = 1; c < word.length; c++) {
      if (withValue.includes(word[c]!)) {
        if (c === word.length - 1) i++;
        break;
      }
      if (!letters.includes(word[c]!)) return false;
    }
  }
  return true;
}

/** systemd's tools: their options that take a value (`-H host`, `-M machine`, `-p PROP`, `--since`). */
const SYSTEMD_OPTIONS: OptionSpec = { short: 'HMpPnFDSU', long: ['host', 'machine', 'property', 'lines', 'since', 'until', 'field', 'directory', 'file', 'root', 'image', 'order', 'fuzz', 'iterations', 'base-time', 'unit', 'type', 'state'] };
/** `-o FILE` of coredumpctl writes the core; `debug`/`gdb` run a debugger. */
const SYSTEMD_WRITES = /^(?:-o|--output)(?:=|$)/;

/**
 * `ip [-4|-6|-br|-j|…] OBJECT [show|list|get …]`: iproute2's objects shown; `add`, `del`,
 * `set`, `flush`, `netns exec` and `-batch FILE` change the network or run commands.
 */
const ip = inspector({
  groups: ['address', 'addr', 'a', 'link', 'l', 'route', 'r', 'ro', 'neigh', 'neighbour', 'neighbor', 'n', 'rule', 'ru', 'maddress', 'maddr', 'm', 'tunnel', 'netconf', 'ntable', 'mroute', 'netns', 'tuntap', 'xfrm', 'vrf', 'nexthop', 'monitor'],
  reads: ['', 'show', 'list', 'lst', 'ls', 'get'],
  options: { short: 'fnl', long: [] },
  changes: /^-(?:b|batch|force|netns|n)$/,
});

/** `ifconfig`, `ifconfig -a`, `ifconfig eth0` show interfaces; with more words (`ifconfig eth0 down`) they configure one. */
const ifconfig: ProgramHandler = (site, fx) => {
  if (site.args.every((arg) => !arg.dynamic && (/^-[alsuv]+$/.test(arg.value) || /^[\w.:-]+$/.test(arg.value))) && site.args.filter((arg) => !arg.value.startsWith('-')).length <= 1) return;
  fx.unknown('ifconfig');
};

/** ssh-keygen's reading forms: `-l` (fingerprint), `-y` (public key), `-F host`, `-B`, `-L` (a certificate), `-r host`; any other option generates or changes a key or known_hosts. */
const sshKeygen: ProgramHandler = (site, fx) => {
  const words = site.args.map((arg) => arg.value);
  const asks = words.some((word) => /^-[a-zA-Z]*[lyFBLr]/.test(word) && word.startsWith('-'));
  if (site.args.every((arg) => !arg.dynamic) && asks && onlyLetters(site.args, 'lyBLvq', 'fEFr')) {
    const parsed = parseArgv(site.args, { short: 'fEFr' });
    for (const file of parsed.options.filter((option) => option.name === '-f')) if (file.value !== undefined && file.value.value !== '-') fx.read('ssh-keygen', file.value);
    return;
  }
  fx.unknown('ssh-keygen');
};

/** `xcrun --show-sdk-path`, `--find TOOL`, `simctl list`: where Xcode's tools are, and the simulators; `xcrun TOOL …` runs the tool. */
const xcrun: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'f', long: ['sdk', 'toolchain', 'find'] });
  const operands = operandsOf(parsed, site);
  const shows = parsed.options.every((option) => /^(?:--show-sdk-[\w-]+|--show-toolchain-path|--find|-f|--sdk|-sdk|--toolchain|--verbose|-v|--version|--no-cache|-n|--log|-l)$/.test(option.name));
  if (site.args.every((arg) => !arg.dynamic) && shows && (operands.length === 0 || (operands[0]!.value === 'simctl' && ['list', 'help', undefined].includes(operands[1]?.value)))) return;
  fx.unknown(['xcrun', ...operands.slice(0, 2).map((arg) => arg.value)].join(' '));
};

/** `codesign -dv app`, `codesign --verify --deep app`: a signature shown or checked; signing (`-s`), `--remove-signature` and files written (`--extract-certificates`, an `--entitlements` path) change something. */
const codesign: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'Ra', long: ['entitlements', 'test-requirement', 'architecture', 'verbose'] });
  const checks = parsed.options.some((option) => /^(?:-d|-v|--display|--verify)$/.test(option.name));
  const known = parsed.options.every((option) => /^(?:-d|-v|-R|-a|--display|--verify|--deep|--strict|--verbose|--xml|--der|--check-notarization|--test-requirement|--architecture|--no-strict)$/.test(option.name) || (option.name === '--entitlements' && /^:?-$/.test(option.value?.value ?? '')));
  if (site.args.every((arg) => !arg.dynamic) && checks && known) {
    for (const file of operandsOf(parsed, site)) fx.read('codesign', file);
    return;
  }
  fx.unknown('codesign');
};

/** plutil shows (`-p`) or checks (`-lint`) a property list; `-convert`, `-insert`, `-replace`, `-remove` and `-extract` rewrite it, `-o` writes another. */
const plutil: ProgramHandler = (site, fx) => {
  const options = site.args.filter((arg) => arg.value.startsWith('-'));
  if (site.args.every((arg) => !arg.dynamic) && options.length > 0 && options.every((arg) => /^-(?:p|lint|s|help)$/.test(arg.value))) {
    for (const file of site.args.filter((arg) => !arg.value.startsWith('-'))) if (file.value !== '-') fx.read('plutil', file);
    return;
  }
  fx.unknown('plutil');
};

/** `mdls FILE`: a file's metadata; `-name ATTR`, `-nullMarker X` take a value; `-plist FILE` writes one. */
const mdls: ProgramHandler = (site, fx) => {
  if (site.args.some((arg) => arg.dynamic || /^-{1,2}plist/.test(arg.value))) {
    fx.unknown('mdls');
    return;
  }
  for (let i = 0; i < site.args.length; i++) {
    const word = site.args[i]!.value;
    if (/^-{1,2}(?:name|n|nullMarker)$/.test(word)) i++;
    else if (!word.startsWith('-')) fx.read('mdls', site.args[i]!);
  }
};

/** pipdeptree prints the installed packages' tree; `--python PATH` runs that interpreter to ask it. */
const pipdeptree: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'pea', long: ['python', 'packages', 'exclude', 'path', 'encoding', 'graph-output', 'depth'] });
  for (const option of parsed.options) {
    if (option.name !== '--python' || option.value === undefined || option.value.value === 'auto') continue;
    if (/[/~]/.test(option.value.value) && mayBeAgentsFile(fx, option.value)) fx.opaque(`pipdeptree --python runs ${option.value.value}`, 'pipdeptree');
  }
};

/** `sysctl -n hw.ncpu`, `sysctl kern.ostype`, `sysctl -a`: kernel settings read; `-w`, `NAME=VALUE`, `-p`/`--load`/`--system` and BSD's `-f FILE` set them. */
const sysctl: ProgramHandler = (site, fx) => {
  if (site.args.every((arg) => !arg.dynamic && !arg.value.includes('=') && !/^-[a-zA-Z]*[wpf]|^--(?:write|load|system)/.test(arg.value))) return;
  fx.unknown('sysctl');
};

/** `blkid`, `blkid /dev/sda1`: block devices' labels and types; `-c FILE` keeps a cache file. */
const blkid: ProgramHandler = (site, fx) => {
  if (site.args.some((arg) => arg.dynamic || /^-[a-zA-Z]*c|^--cache-file/.test(arg.value))) fx.unknown('blkid');
};

export const SYSTEM_PROGRAMS: readonly [string, ProgramEntry][] = [
  // Machine and OS facts: they print and change nothing.
  ...entries(noEffect, 'lsb_release', 'findmnt', 'vm_stat', 'system_profiler', 'mdfind', 'lsipc', 'lslocks', 'lsns', 'hwinfo'),
  ['blkid', { handle: blkid }],
  ['ip', { handle: ip }],
  ['ifconfig', { handle: ifconfig }],
  ['sysctl', { handle: sysctl }],
  ['timedatectl', { handle: inspector({ reads: ['', 'status', 'show', 'list-timezones', 'timesync-status', 'show-timesync'], options: SYSTEMD_OPTIONS }) }],
  ['hostnamectl', { handle: inspector({ reads: ['', 'status'], options: SYSTEMD_OPTIONS }) }],
  ['localectl', { handle: inspector({ reads: ['', 'status', 'list-locales', 'list-keymaps', 'list-x11-keymap-models', 'list-x11-keymap-layouts', 'list-x11-keymap-variants', 'list-x11-keymap-options'], options: SYSTEMD_OPTIONS }) }],
  ['loginctl', { handle: inspector({ reads: ['', 'list-sessions', 'list-users', 'list-seats', 'show-session', 'show-user', 'show-seat', 'session-status', 'user-status', 'seat-status'], options: SYSTEMD_OPTIONS }) }],
  ['resolvectl', { handle: inspector({ reads: ['', 'status', 'statistics', 'query', 'show-cache', 'show-server-state'], options: SYSTEMD_OPTIONS }) }],
  ['coredumpctl', { handle: inspector({ reads: ['', 'list', 'info'], options: SYSTEMD_OPTIONS, changes: SYSTEMD_WRITES }) }],
  ['systemd-analyze', { handle: inspector({ reads: ['', 'time', 'blame', 'critical-chain', 'dump', 'plot', 'dot', 'unit-paths', 'calendar', 'timespan', 'timestamp', 'security', 'cat-config', 'syscall-filter', 'filesystems', 'capability', 'exit-status'], options: SYSTEMD_OPTIONS }) }],
  // `nmcli device status`, `nmcli connection show`, `nmcli general`: shown; `up`, `down`, `modify`, `radio wifi off` change the network.
  ['nmcli', { handle: inspector({ groups: ['general', 'g', 'networking', 'n', 'radio', 'r', 'connection', 'c', 'con', 'device', 'd', 'dev'], reads: ['', 'status', 'show'], options: { short: 'fgmecw', long: ['fields', 'get-values', 'mode', 'escape', 'colors', 'wait'] } }) }],
  // `apt-cache policy x`, `show`, `search`, `depends`: the package lists read; `gencaches` and `-o`/`-c` configuration are left out.
  ['apt-cache', { handle: inspector({ reads: ['policy', 'show', 'search', 'showpkg', 'showsrc', 'depends', 'rdepends', 'madison', 'stats', 'pkgnames', 'unmet', 'dump', 'dumpavail'], changes: /^-[a-zA-Z]*[oc]|^--(?:option|config-file)/ }) }],
  ['zipinfo', { handle: readsOperands({ short: 'OI' }) }],
  ['otool', { handle: readsOperands({ short: 'sp' }) }],
  ['ssh-keygen', { handle: sshKeygen }],
  ['xcrun', { handle: xcrun }],
  ['xcode-select', { handle: inspector({ reads: [''], changes: /^-(?!p$|v$|h$)|^--(?!print-path$|version$|help$)/ }) }],
  ['diskutil', { handle: inspector({ groups: ['apfs', 'cs', 'appleRAID', 'ar'], reads: ['list', 'info'] }) }],
  ['plutil', { handle: plutil }],
  ['mdls', { handle: mdls }],
  // `defaults read DOMAIN [KEY]`, `read-type`, `domains`, `find`: the preferences shown; `write`, `delete`, `import` change them.
  ['defaults', { handle: inspector({ reads: ['read', 'read-type', 'domains', 'find', 'help'], options: { long: ['host'] } }) }],
  ['codesign', { handle: codesign }],
  // `scutil --get ComputerName`, `--dns`, `--proxy`, `--nwi`, `-r host`; `--set` changes, and bare `scutil` reads commands from its input.
  ['scutil', { handle: (site, fx) => (site.args.every((arg) => !arg.dynamic) && /^(?:--get|--dns|--proxy|--nwi|-r)$/.test(site.args[0]?.value ?? '') ? undefined : fx.unknown('scutil')) }],
  ['pipdeptree', { handle: pipdeptree }],
];

