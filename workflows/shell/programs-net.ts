// Programs that reach the network or signal other processes. Network targets are kept as
// written; signal targets say whether they name a pid, a process name, a port or a job.
import { hasOption, lastOptionValue, optionValues, parseArgv, type OptionSpec } from './argv.js';
import { entries, everythingBelow, filesIn, filesNamedByData, mayBeAgentsFile, onlyAsksVersion, operandsOf, type ProgramEntry, type ProgramHandler, type ShellEffects } from './program-kit.js';
import { isPublicName, sshHost } from './hosts.js';
import { baseName, isWithin, localFileOfUrl } from './paths.js';
import { namesItsContents, writesRemoteCopy } from './programs-files.js';
import type { PathRef } from './types.js';
import { literalArg, type Arg } from './words.js';

/** The file curl -O / wget would save a URL to: its last path segment. */
function remoteFileName(url: string): string {
  const path = url.replace(/^[a-z]+:\/\//i, '').replace(/[?#].*$/, '');
  const slash = path.indexOf('/');
  const name = slash === -1 ? '' : path.slice(path.lastIndexOf('/') + 1);
  return name === '' ? 'index.html' : name;
}

const CURL_VALUES: OptionSpec = {
  short: 'oDdHXuAeTFbcKmxwEYyzrCQtPhU',
  long: ['output', 'dump-header', 'data', 'data-raw', 'data-binary', 'data-urlencode', 'data-ascii', 'json', 'header', 'request', 'user', 'user-agent', 'referer', 'upload-file', 'form', 'form-string', 'cookie', 'cookie-jar', 'config', 'max-time', 'proxy', 'write-out', 'cert', 'key', 'cacert', 'capath', 'connect-timeout', 'retry', 'retry-delay', 'retry-max-time', 'range', 'output-dir', 'url', 'resolve', 'connect-to', 'interface', 'limit-rate', 'max-filesize', 'proto', 'proto-redir', 'quote', 'time-cond', 'trace', 'trace-ascii', 'stderr', 'unix-socket', 'abstract-unix-socket', 'variable', 'expand-url', 'aws-sigv4', 'oauth2-bearer', 'etag-save', 'etag-compare', 'libcurl', 'hsts', 'alt-svc', 'netrc-file', 'local-port', 'dns-servers', 'doh-url', 'preproxy', 'proxy-user', 'socks5', 'socks5-hostname', 'socks4', 'socks4a', 'noproxy', 'ftp-port', 'krb', 'mail-from', 'mail-rcpt', 'pinnedpubkey', 'request-target', 'ciphers', 'max-redirs', 'keepalive-time', 'speed-limit', 'speed-time', 'continue-at', 'create-file-mode', 'delegation', 'parallel-max', 'happy-eyeballs-timeout-ms', 'expect100-timeout'],
  flags: ['head'],
};

/** An output name with curl's `#N`, the text the Nth glob of the URL took: any name there (`-o '.claude/#1'` is `.claude/*`). */
function withGlobTexts(out: Arg): Arg {
  const at = out.value.search(/#\d/);
  if (at === -1) return out;
  // A name that starts unknown is still placed in curl's folder (`-o '#1'` is `./*`).
  const placed = at === 0 && !out.dynamic ? `./${out.value}` : out.value;
  const unknownAt = placed.search(/#\d/);
  return { value: placed.replace(/#\d/g, '*'), dynamic: true, unknownAt: out.dynamic ? Math.min(out.unknownAt, unknownAt) : unknownAt };
}

/** More URLs than this from one curl glob are not listed: the command is opaque then. */
const MAX_CURL_URLS = 64;

/** The URLs curl makes from one with `{a,b}` sets and `[1-5]`/`[a-c]` ranges; undefined past MAX_CURL_URLS. */
function curlGlob(url: string): string[] | undefined {
  const glob = /\{([^{}]*)\}|\[(\d+)-(\d+)(?::\d+)?\]|\[([a-zA-Z])-([a-zA-Z])\]/.exec(url);
  if (glob === null) return [url];
  let choices: string[];
  if (glob[1] !== undefined) choices = glob[1].split(',');
  else if (glob[2] !== undefined) {
    const [from, to] = [Number(glob[2]), Number(glob[3])];
    if (to - from >= MAX_CURL_URLS) return undefined;
    choices = [];
    for (let n = from; n <= to; n++) choices.push(String(n).padStart(glob[2].length, '0'));
  } else {
    choices = [];
    for (let c = glob[4]!.charCodeAt(0); c <= glob[5]!.charCodeAt(0); c++) choices.push(String.fromCharCode(c));
  }
  const urls: string[] = [];
  for (const choice of choices) {
    const rest = curlGlob(url.slice(0, glob.index) + choice + url.slice(glob.index + glob[0].length));
    if (rest === undefined || urls.push(...rest) > MAX_CURL_URLS) return undefined;
  }
  return urls;
}

/**
 * curl 8.3's variables: `--variable NAME=TEXT` sets one, and an option written `--expand-OPTION`
 * is OPTION with `{{NAME}}` replaced by its text (`--variable p=7377 --expand-url
 * 'http://127.0.0.1:{{p}}/'`). A variable read from a file (`NAME@FILE`) or the environment
 * (`%NAME`), or passed through a function (`{{p:b64}}`, `:trim` aside), is only known when curl
 * runs: the word becomes dynamic there, as `$P` would. Without an `--expand-` option the words are as written.
 */
function expandCurlVariables(args: readonly Arg[]): readonly Arg[] {
  if (!args.some((arg) => arg.value.startsWith('--expand-'))) return args;
  const variables = new Map<string, string | undefined>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const definition = arg.value === '--variable' ? args[++i] : arg.value.startsWith('--variable=') ? { ...arg, value: arg.value.slice('--variable='.length) } : undefined;
    if (definition === undefined) continue;
    const named = /^%?([A-Za-z_][\w]*)(?:(=)|@|$)/.exec(definition.value);
    if (named === null) continue;
    const fixed = !definition.dynamic && !definition.value.startsWith('%') && named[2] === '=';
    variables.set(named[1]!, fixed ? definition.value.slice(named[0].length) : undefined);
  }
  const out: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const expand = /^--expand-([a-z0-9-]+)(=.*)?$/s.exec(arg.value);
    if (expand === null || arg.dynamic) {
      out.push(arg);
      continue;
    }
    const attached = expand[2] !== undefined;
    const value = attached ? { ...arg, value: expand[2]!.slice(1) } : args[++i];
    out.push(literalArg(`--${expand[1]!}`));
    if (value !== undefined) out.push(expandCurlText(value, variables));
  }
  return out;
}

function expandCurlText(value: Arg, variables: ReadonlyMap<string, string | undefined>): Arg {
  let unknownAt = value.dynamic ? value.unknownAt : -1;
  const text = value.value.replace(/\{\{([A-Za-z_]\w*)((?::\w+)*)\}\}/g, (whole, name: string, functions: string, offset: number) => {
    const known = variables.get(name);
    if (known !== undefined && functions.split(':').every((fn) => fn === '' || fn === 'trim')) return functions === '' ? known : known.trim();
    if (unknownAt === -1 || offset < unknownAt) unknownAt = offset;
    return whole;
  });
  return unknownAt === -1 ? { value: text, dynamic: false, unknownAt: -1 } : { value: text, dynamic: true, unknownAt };
}

const curl: ProgramHandler = (given, fx) => {
  if (onlyAsksVersion(given.args)) return;
  const site = { ...given, args: expandCurlVariables(given.args) };
  const parsed = parseArgv(site.args, CURL_VALUES);
  for (const config of optionValues(parsed, '-K', '--config')) {
    fx.read('curl', config);
    fx.opaque(`curl reads its options from \`${config.value}\``, 'curl');
  }
  const urls = [...operandsOf(parsed, site), ...optionValues(parsed, '--url')];
  // curl expands `{a,b}` and `[1-9]` in a URL itself, unless -g: each URL it makes is a target.
  const globbing = !hasOption(parsed, '-g', '--globoff');
  const uploads = optionValues(parsed, '-T', '--upload-file');
  for (const url of urls) {
    const expanded = globbing ? curlGlob(url.value) : [url.value];
    if (expanded === undefined) {
      fx.opaque(`curl reaches URLs made from \`${url.value}\`, too many to list`, 'curl');
      fx.network('curl', url.value);
    }
    else {
      for (const target of expanded) {
        // `file:///path` is a local file: read, or with -T written (`curl -T - file:///…` overwrites it).
        const file = localFileOfUrl(target);
        if (file === undefined) fx.network('curl', target);
        else (uploads.length > 0 ? fx.write : fx.read).call(fx, 'curl', { value: file, dynamic: url.dynamic, unknownAt: url.dynamic ? 0 : -1 });
      }
    }
  }
  const directory = lastOptionValue(parsed, '--output-dir');
  const here = directory ? fx.at(directory) : fx;
  // With globbing, `#1` in an output name is the text the first glob took (`-o '.claude/#1'`): any name there.
  for (const out of optionValues(parsed, '-o', '--output')) if (out.value !== '-') here.write('curl', globbing ? withGlobTexts(out) : out);
  // `-w '%output{file}…'` (curl 8.3) sends the rest of the write-out text to a file; `%output{>>file}` appends.
  for (const format of optionValues(parsed, '-w', '--write-out')) {
    for (const match of format.value.matchAll(/%output\{(?:>>)?([^}]*)\}/g)) fx.write('curl', { value: match[1]!, dynamic: format.dynamic, unknownAt: format.dynamic ? 0 : -1 });
    if (format.value.startsWith('@') && format.value !== '@-') {
      fx.read('curl', { ...format, value: format.value.slice(1) });
      fx.opaque(`curl reads its write-out format from \`${format.value.slice(1)}\`, which may send it to any file`, 'curl');
    }
  }
  for (const out of optionValues(parsed, '-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--stderr', '--libcurl', '--etag-save', '--hsts', '--alt-svc')) if (out.value !== '-') fx.write('curl', out);
  if (hasOption(parsed, '-O', '--remote-name', '--remote-name-all')) {
    // `-J` takes the name the server sends: any name in the folder. Without it, each URL a glob makes names its own file.
    const serverNames = hasOption(parsed, '-J', '--remote-header-name');
    for (const url of urls) {
      if (serverNames) here.write('curl', { value: './*', dynamic: true, unknownAt: 2 });
      else for (const target of (globbing ? curlGlob(url.value) : undefined) ?? [url.value]) here.write('curl', { value: remoteFileName(target), dynamic: url.dynamic, unknownAt: -1 });
    }
  }
  for (const upload of uploads) if (upload.value !== '-' && upload.value !== '.') fx.read('curl', upload);
  for (const data of optionValues(parsed, '-d', '--data', '--data-binary', '--data-urlencode', '--data-ascii', '--json', '-F', '--form')) {
    const at = data.value.indexOf('@');
    if (at !== -1 && (at === 0 || data.value[at - 1] === '=')) fx.read('curl', { value: data.value.slice(at + 1).replace(/;.*$/, ''), dynamic: data.dynamic, unknownAt: -1 });
  }
  for (const socket of optionValues(parsed, '--unix-socket', '--abstract-unix-socket')) fx.network('curl', `unix:${socket.value}`);
  // Where curl really connects, whatever the URL says: a proxy, or a host and port swapped in.
  // DNS over HTTPS asks that URL's server, wherever the names lead.
  for (const doh of optionValues(parsed, '--doh-url')) fx.network('curl', doh.value);
  for (const proxy of optionValues(parsed, '-x', '--proxy', '--preproxy', '--socks5', '--socks5-hostname', '--socks4', '--socks4a')) fx.network('curl', proxy.value);
  for (const swap of optionValues(parsed, '--connect-to')) {
    const to = /^.*?:\d*:(.*):(\d+)$/.exec(swap.value);
    if (to) fx.network('curl', `${to[1] || 'localhost'}:${to[2]}`);
  }
  for (const entry of optionValues(parsed, '--resolve')) {
    const resolved = /^\+?[^:]*:(\d+):(.+)$/.exec(entry.value);
    if (resolved) for (const address of resolved[2]!.split(',')) fx.network('curl', `${address}:${resolved[1]}`);
  }
};

/** Where in a URL wget finds the folders and the name it saves it under. */
interface WgetUrl {
  readonly protocol: string;
  /** `HOST` or `HOST:PORT`, as wget names the host's folder. */
  readonly host: string;
  /** The URL's folders, percent escapes decoded and `..` resolved as a browser would. */
  readonly folders: readonly string[];
  readonly name: string;
}

function readWgetUrl(url: string, defaultPage: string): WgetUrl {
  const parts = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/?#]*)([^?#]*)/i.exec(url)!;
  const segments = (parts[3] ?? '').split('/').slice(1).map(decodeEscapes);
  const name = segments.pop() || defaultPage;
  const folders: string[] = [];
  for (const segment of segments) if (segment === '..') folders.pop(); else if (segment !== '.' && segment !== '') folders.push(segment);
  return { protocol: (parts[1] ?? 'http').toLowerCase(), host: (parts[2] ?? '').replace(/^[^@]*@/, '').toLowerCase(), folders, name: name === '..' || name === '.' ? defaultPage : name };
}

/** `%XX` escapes as wget writes them into file names: decoded (`%2Eclaude` is `.claude`), except `/`, which cannot be in one. */
function decodeEscapes(segment: string): string {
  return segment.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => (hex.toLowerCase() === '2f' ? escape : String.fromCharCode(parseInt(hex, 16))));
}

const wget: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = parseArgv(site.args, { short: 'OoaPiBtTwUeQlAR', long: ['output-document', 'output-file', 'append-output', 'directory-prefix', 'input-file', 'base', 'tries', 'timeout', 'wait', 'user-agent', 'execute', 'quota', 'level', 'accept', 'reject', 'header', 'post-data', 'post-file', 'body-file', 'user', 'password', 'load-cookies', 'save-cookies', 'config', 'method', 'body-data', 'limit-rate', 'bind-address', 'ca-certificate', 'certificate', 'private-key', 'cut-dirs', 'default-page', 'warc-file', 'warc-cdx', 'rejected-log', 'hsts-file', 'use-askpass'] });
  for (const command of optionValues(parsed, '-e', '--execute', '--config')) fx.opaque(`wget runs the wgetrc command \`${command.value}\``, 'wget');
  // `--use-askpass=CMD` runs CMD to ask for the user name and password.
  for (const askpass of optionValues(parsed, '--use-askpass')) fx.run([askpass]);
  for (const input of optionValues(parsed, '-i', '--input-file', '--post-file', '--body-file', '--load-cookies')) fx.read('wget', input);
  for (const log of optionValues(parsed, '-o', '--output-file', '-a', '--append-output', '--save-cookies', '--rejected-log', '--hsts-file')) fx.write('wget', log);
  // A WARC archive of the session, named by its prefix (`--warc-file=x` writes x.warc.gz; with --no-warc-compression x.warc) and its CDX index (`x.cdx`).
  for (const warc of optionValues(parsed, '--warc-file')) for (const suffix of ['.warc.gz', '.warc', '.cdx', '-meta.warc.gz']) fx.write('wget', { ...warc, value: `${warc.value}${suffix}` });
  const urls = operandsOf(parsed, site);
  // `wget -i list.txt`: the URLs, and so the names of the files they are saved as, are in the list.
  const listed = optionValues(parsed, '-i', '--input-file');
  for (const url of urls) fx.network('wget', url.value);
  for (const list of listed) fx.network('wget', list.value === '-' ? 'the URLs on its input' : `the URLs in ${list.value}`);
  if (hasOption(parsed, '--spider')) return;
  const documents = optionValues(parsed, '-O', '--output-document');
  for (const document of documents) if (document.value !== '-') fx.write('wget', document);
  if (documents.length > 0) return;
  const directory = lastOptionValue(parsed, '-P', '--directory-prefix');
  const here = directory ? fx.at(directory) : fx;
  // `-nH`, `-nd`: two-letter short options, which the option parser reads as clusters.
  const spelled = (short: string, long: string): boolean => site.args.some((arg) => arg.value === short) || hasOption(parsed, long);
  const recursive = hasOption(parsed, '-r', '--recursive', '-m', '--mirror');
  const keepsFolders = !spelled('-nd', '--no-directories') && (recursive || spelled('-x', '--force-directories'));
  const keepsHost = !spelled('-nH', '--no-host-directories');
  const protocolFolder = hasOption(parsed, '--protocol-directories');
  const cutFolders = Number(lastOptionValue(parsed, '--cut-dirs')?.value ?? 0) || 0;
  const defaultPage = lastOptionValue(parsed, '--default-page')?.value ?? 'index.html';
  // The server names the file (`--content-disposition`, or a redirect's URL), or every file of a
  // recursive download (a page may link to `.claude/settings.local.json`).
  const serverNames = recursive || hasOption(parsed, '--content-disposition', '--trust-server-names');
  for (const url of urls) {
    const read = readWgetUrl(url.value, defaultPage);
    const hostFolders = keepsFolders ? [...(protocolFolder ? [read.protocol] : []), ...(keepsHost ? [read.host] : [])] : [];
    const folder = [...hostFolders, ...(keepsFolders ? read.folders.slice(cutFolders) : [])].join('/');
    const at = (path: string): PathRef => here.path({ value: path, dynamic: url.dynamic, unknownAt: -1 });
    if (!serverNames) here.write('wget', at(folder === '' ? read.name : `${folder}/${read.name}`));
    // Any name below the host's folder, or below the folder itself with `-nH`, where gobby's own may land.
    else if (recursive && keepsFolders) here.write('wget', filesNamedByData(here, hostFolders.length > 0 ? at(hostFolders.join('/')) : undefined));
    else here.write('wget', filesIn(here, folder === '' ? undefined : at(folder)));
  }
  if (listed.length > 0) here.write('wget', keepsFolders ? filesNamedByData(here) : filesIn(here));
};

/** nc, telnet, socat…: `host port` operands. */
const socketClient: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = parseArgv(site.args, { short: 'pswqiIOTVxXeci', long: ['source', 'source-port', 'wait', 'proxy', 'proxy-type', 'exec', 'sh-exec', 'lua-exec'] });
  for (const command of optionValues(parsed, '-e', '-c', '--exec', '--sh-exec', '--lua-exec')) fx.opaque(`${site.program} runs \`${command.value}\` on the connection`, site.program);
  const operands = operandsOf(parsed, site);
  const port = lastOptionValue(parsed, '-p');
  if (hasOption(parsed, '-l', '--listen')) fx.network(site.program, `listen:${port?.value ?? operands[operands.length - 1]?.value ?? ''}`);
  else if (operands[0]) fx.network(site.program, operands[1] ? `${operands[0].value}:${operands[1].value}` : operands[0].value);
};

/**
 * socat ADDRESS ADDRESS: each address is `TYPE:params,options`, a dual `A!!B`, or a bare path
 * (GOPEN: a file opened to read and write). Files are written unless `-u` makes the first address
 * only read (`-U` the second); programs run; sockets are network (`TCP4-CONNECT:h:p`, `INET:h:p`).
 */
const socat: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'lLbDdTt', long: [] });
  for (const log of site.args.flatMap((arg, i) => (arg.value === '-lf' ? [site.args[i + 1]] : arg.value.startsWith('-lf') ? [{ ...arg, value: arg.value.slice(3) }] : []))) if (log) fx.write('socat', log);
  const unidirectional = hasOption(parsed, '-u') ? 0 : hasOption(parsed, '-U') ? 1 : -1;
  const addresses = site.args.filter((arg, i) => (!arg.value.startsWith('-') || arg.value === '-') && site.args[i - 1]?.value !== '-lf');
  addresses.forEach((address, index) => {
    for (const part of address.value.split('!!')) {
      const colon = part.indexOf(':');
      const type = colon === -1 ? part : part.slice(0, colon);
      const rest = colon === -1 ? '' : part.slice(colon + 1);
      const upper = type.toUpperCase();
      const target = rest.split(',')[0] ?? '';
      // An address's options can change its file even where it is only read (`,trunc`, `,unlink-close`, `,creat`).
      const onlyRead = index === unidirectional && !/,(?:trunc|unlink|creat|o-trunc|o-creat|append|excl)/i.test(part);
      if (upper === 'EXEC' || upper === 'SYSTEM' || upper === 'SHELL') fx.runShellCode({ value: rest.split(',')[0] ?? '', dynamic: address.dynamic, unknownAt: address.dynamic ? 0 : -1 }, 'socat', false);
      else if (/^(?:OPEN|CREATE|CREAT|GOPEN|PIPE|FILE|NAMED|UNIX[\w-]*|ABSTRACT[\w-]*|PTY)$/.test(upper)) fileAddress(fx, { value: target, dynamic: address.dynamic, unknownAt: -1 }, onlyRead && !/^UNIX-(?:LISTEN|RECV|RECVFROM)/.test(upper));
      else if (colon === -1 && (part.includes('/') || part.includes('.'))) fileAddress(fx, { value: part.split(',')[0] ?? part, dynamic: address.dynamic, unknownAt: -1 }, onlyRead);
      else if (/TCP|UDP|SCTP|DCCP|INET|SSL|OPENSSL|SOCKS|PROXY|^IP/.test(upper)) fx.network('socat', target || address.value);
      else if (!/^(?:-|STDIO|STDIN|STDOUT|STDERR|FD|PTY|TUN)$/.test(upper)) fx.network('socat', part);
    }
  });
};

function fileAddress(fx: ShellEffects, file: Arg, onlyRead: boolean): void {
  if (file.value === '') return;
  if (onlyRead) fx.read('socat', file);
  else fx.write('socat', file);
}

const SSH_VALUES: OptionSpec = { short: 'BbcDEeFIiJLlmOoPpQRSWw', long: [] };

/**
 * What ssh, scp and sftp run on this machine besides the connection: an `-o` option that names a
 * command or a library (`ProxyCommand`, `LocalCommand`, `KnownHostsCommand`, `PKCS11Provider`,
 * `SecurityKeyProvider`, a `Match exec`), a config file (`-F`, which can hold any of them), a
 * PKCS#11 library (`-I`), or scp/sftp's own program (`-S`).
 */
function sshLocalCode(program: string, parsed: ReturnType<typeof parseArgv>, fx: ShellEffects): void {
  for (const option of optionValues(parsed, '-o')) if (/^(?:ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|Match|PKCS11Provider|SecurityKeyProvider)/i.test(option.value)) fx.opaque(`${program} -o ${option.value} runs local code`, program);
  if (optionValues(parsed, '-F').length > 0) fx.opaque(`${program} -F reads a config that can run local commands`, program);
  if (optionValues(parsed, '-I').length > 0) fx.opaque(`${program} -I loads a PKCS#11 library`, program);
  if (program !== 'ssh' && optionValues(parsed, '-S').length > 0) fx.opaque(`${program} -S runs a program of the caller's choosing`, program);
}

const ssh: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = parseArgv(site.args, { ...SSH_VALUES, stopAtOperand: true });
  sshLocalCode('ssh', parsed, fx);
  // `-E file` appends ssh's debug log to the file.
  for (const log of optionValues(parsed, '-E')) fx.write('ssh', log);
  // A forward (-L/-R port:host:hostport, -W host:port) connects to that host and port as well.
  for (const forward of optionValues(parsed, '-L', '-R', '-W')) {
    const target = /(?:^|:)(\[[^\]]+\]|[^:]+):(\d+)$/.exec(forward.value);
    if (target) fx.network('ssh', `${target[1]}:${target[2]}`);
  }
  const [destination, ...command] = site.args.slice(parsed.rest);
  if (!destination) return;
  fx.network('ssh', destination.value);
  if (command.length === 0) return;
  fx.opaque('ssh runs a command on another host (or this one)', 'ssh');
  // On a host that may be this machine (`localhost`, `127.1`, a one-word name), the command most
  // likely runs here, in the home, joined into one line for the remote shell: judged as such too.
  if (destination.dynamic || isPublicName(sshHost(destination.value)) || fx.home === null || command.some((word) => word.dynamic)) return;
  fx.at(literalArg(fx.home)).runShellCode(literalArg(command.map((word) => word.value).join(' ')), 'ssh', false);
};

/** scp/sftp: `[user@]host:path` operands are remote; the last is the destination. */
const scp: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'cFiIJloPSDX', long: [] });
  sshLocalCode(site.program, parsed, fx);
  const operands = operandsOf(parsed, site);
  const remoteHost = (arg: Arg): string | undefined => /^(?:scp:\/\/|sftp:\/\/)?(?:[^@/:]+@)?([^/:]+):/.exec(arg.value)?.[1];
  const destination = site.program === 'scp' ? operands.pop() : undefined;
  const read = hasOption(parsed, '-r') ? fx.readTree : fx.read;
  for (const operand of operands) {
    const host = remoteHost(operand);
    if (host) fx.network(site.program, host);
    else read.call(fx, site.program, operand);
  }
  if (!destination) return;
  const host = remoteHost(destination);
  if (host) {
    fx.network(site.program, host);
    return;
  }
  // Into a local folder: a local source is copied as cp copies it (`scp -r x/. ~` puts x's
  // contents, whatever they are named, in the home), a remote one lands under its own name.
  const recursive = hasOption(parsed, '-r');
  for (const source of operands) {
    if (remoteHost(source) !== undefined) writesRemoteCopy(fx, site.program, source, destination, false);
    else fx.copy(site.program, source, recursive && namesItsContents(source) ? filesNamedByData(fx, destination) : destination);
  }
  if (operands.length === 0) fx.write(site.program, destination);
};

/** Commands of sftp, ftp and lftp that fetch files into the local folder, and the ones that run a local shell. */
const FETCHES = /^(?:get|reget|mget|pget|lget|mirror|newer|recv)$/;
const RUNS_LOCALLY = /^(?:!|local$|shell$)/;

/**
 * sftp, ftp and lftp run the commands they are given (on their input, `sftp -b file`, `lftp -c`/
 * `-e`/`-f`): fixed text is read for what it fetches here (`get`, `mget`, `mirror`: files of
 * names gobby does not know, `<cwd>/**`) and for a local shell (`!cmd`); a file of commands is opaque.
 */
function transferCommands(program: string, fx: ShellEffects, script: Arg | undefined, file: Arg | undefined): void {
  if (file && file.value !== '-') {
    fx.read(program, file);
    fx.opaque(`${program} runs the commands in \`${file.value}\``, program);
  }
  if (script === undefined) return;
  if (script.dynamic) fx.opaque(`${program} runs commands built at run time`, program);
  for (const line of script.value.split(/[\n;]/)) {
    const [command = '', host] = line.trim().split(/\s+/);
    if (RUNS_LOCALLY.test(command)) fx.opaque(`${program} runs local shell commands (!)`, program);
    else if (FETCHES.test(command)) fx.write(program, everythingBelow(fx));
    else if (command === 'open' && host) fx.network(program, host);
  }
}

/** `sftp [options] [user@]host[:path [localdir]]`: a path that names a file fetches it here without a session. */
const sftp: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'bcDFiIJlPRSBosX' });
  sshLocalCode('sftp', parsed, fx);
  const [target] = operandsOf(parsed, site);
  if (!target) return;
  const remote = /^(?:sftp:\/\/)?(?:[^@/:]+@)?([^/:]+)(?::(.*))?$/.exec(target.value);
  const port = lastOptionValue(parsed, '-P');
  fx.network('sftp', `${remote?.[1] ?? target.value}${port ? `:${port.value}` : ''}`);
  const fetchesFile = remote?.[2] !== undefined && remote[2] !== '' && !remote[2].endsWith('/');
  transferCommands('sftp', fx, fetchesFile ? literalArg('get') : fx.stdin, lastOptionValue(parsed, '-b'));
};

const lftp: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'cefpu', long: ['user', 'password', 'env-password'] });
  const [host] = operandsOf(parsed, site);
  if (host) fx.network('lftp', host.value);
  const inline = [...optionValues(parsed, '-c'), ...optionValues(parsed, '-e')];
  const script = inline.length > 0 ? { value: inline.map((arg) => arg.value).join('\n'), dynamic: inline.some((arg) => arg.dynamic), unknownAt: 0 } : fx.stdin;
  transferCommands('lftp', fx, script, lastOptionValue(parsed, '-f'));
};

/** ftp's options are flags; its operand is the host, and its commands come on its input. */
const ftp: ProgramHandler = (site, fx) => {
  const host = site.args.find((arg) => !arg.value.startsWith('-'));
  if (host) fx.network('ftp', host.value);
  transferCommands('ftp', fx, fx.stdin, undefined);
};

/**
 * Client commands in SQL that reach outside the database: a local shell (`\!`, `system`), local
 * files written or run (`\o`, `\w`, `\g file`, `\s file`, `\copy … to`, `\i`, `tee`,
 * `source`), and files the server writes (`COPY … TO`, `INTO OUTFILE`, `lo_export`).
 */
const SQL_REACHES_OUT = /\\(?:!|o\b|w\b|g\s+\S|s\s+\S|copy\b|i\b|ir\b|lo_export|setenv)|\bsystem\b|^\s*(?:tee|source)\b|\bcopy\b[\s\S]*\bto\b|\binto\s+(?:out|dump)file\b|\blo_export\b|\bpager\b/im;

/**
 * Database clients (`psql`, `mysql`, `mariadb`): the SQL runs on a server, where what it changes is
 * the database, not the project's files. The client itself can write local files (`-o`, `-L`,
 * `--tee`) or run a shell, so SQL that reaches outside the database, SQL from a file, and SQL on an
 * input gobby cannot read are opaque.
 */
function databaseClient(spec: { readonly options: OptionSpec; readonly sql: readonly string[]; readonly files: readonly string[]; readonly outputs: readonly string[]; readonly host: readonly string[]; readonly port: readonly string[]; readonly lists: readonly string[] }): ProgramHandler {
  return (site, fx) => {
    if (onlyAsksVersion(site.args)) return;
    const parsed = parseArgv(site.args, spec.options);
    const host = lastOptionValue(parsed, ...spec.host)?.value ?? 'localhost';
    const port = lastOptionValue(parsed, ...spec.port)?.value;
    fx.network(site.program, port ? `${host}:${port}` : host);
    for (const out of optionValues(parsed, ...spec.outputs)) fx.write(site.program, out);
    for (const file of optionValues(parsed, ...spec.files)) {
      fx.read(site.program, file);
      fx.opaque(`${site.program} runs the SQL in \`${file.value}\``, site.program);
    }
    const sql = optionValues(parsed, ...spec.sql);
    const given = sql.length > 0 ? sql : fx.stdin ? [fx.stdin] : [];
    if (given.some((text) => text.dynamic)) fx.opaque(`${site.program} runs SQL built at run time`, site.program);
    else if (given.some((text) => SQL_REACHES_OUT.test(text.value))) fx.opaque(`${site.program} runs client commands that write files or run a shell`, site.program);
    else if (given.length === 0 && optionValues(parsed, ...spec.files).length === 0 && !hasOption(parsed, ...spec.lists)) fx.opaque(`${site.program} reads the SQL to run from its input`, site.program);
  };
}

/** `redis-cli [options] COMMAND…`: the command runs on the server; `--rdb` writes a local dump, `--eval` reads a script. */
const redisCli: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = parseArgv(site.args, { short: 'hpasunrid', long: ['user', 'pass', 'askpass', 'rdb', 'functions-rdb', 'eval', 'pipe-timeout', 'tls-cert', 'tls-key', 'cacert', 'cacertdir', 'sni', 'bigkeys', 'memkeys', 'scan', 'pattern', 'count', 'quoted-pattern', 'cluster', 'lru-test', 'stat', 'latency-dist', 'intrinsic-latency'], stopAtOperand: true });
  const host = lastOptionValue(parsed, '-h')?.value ?? '127.0.0.1';
  const port = lastOptionValue(parsed, '-p')?.value ?? '6379';
  fx.network('redis-cli', `${host}:${port}`);
  for (const dump of optionValues(parsed, '--rdb', '--functions-rdb')) fx.write('redis-cli', dump);
  for (const script of optionValues(parsed, '--eval')) fx.read('redis-cli', script);
};

/** HTTPie's and xh's options that take a value (`-a user:pass`, `-o FILE`); the rest are flags. */
const HTTPIE_OPTIONS: OptionSpec = {
  short: 'aAopPs',
  long: ['auth', 'auth-type', 'output', 'session', 'session-read-only', 'verify', 'cert', 'cert-key', 'cert-key-pass', 'ssl', 'ciphers', 'proxy', 'pretty', 'style', 'format-options', 'print', 'history-print', 'max-redirects', 'timeout', 'max-headers', 'response-charset', 'response-mime', 'default-scheme', 'boundary', 'raw', 'bearer', 'http-version', 'resolve', 'interface', 'unix-socket', 'path-as-is'],
};

/**
 * HTTPie (`http`, `https`) and xh: `[METHOD] URL [ITEM…]`, `:3000/x` being localhost. Items that
 * name files are read (`@body.json`, `f=@x.txt`, `f:=@x.json`, `f@upload.bin`); `-o FILE` writes,
 * and `--download` without it writes a file the server names in the working directory. A session
 * given as a path is read and written; `--unix-socket` and `--proxy` are where it really connects.
 */
const httpie: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = parseArgv(site.args, HTTPIE_OPTIONS);
  const operands = [...operandsOf(parsed, site)];
  if (operands.length > 1 && !operands[0]!.dynamic && /^[A-Za-z]+$/.test(operands[0]!.value)) operands.shift();
  const url = operands.shift();
  for (const socket of optionValues(parsed, '--unix-socket')) fx.network(site.program, `unix:${socket.value}`);
  for (const proxy of optionValues(parsed, '--proxy')) fx.network(site.program, proxy.value.replace(/^[a-z]+:(?=[a-z]+:\/\/)/i, ''));
  if (url) fx.network(site.program, url.value.startsWith(':') ? `localhost${url.value}` : url.value);
  for (const item of operands) {
    const at = /^(?:[^=:@]*(?::=@|=@|@))(.+)$|^@(.+)$/.exec(item.value);
    const written = (at?.[1] ?? at?.[2])?.replace(/;type=.*$/, '');
    if (written === undefined) continue;
    // HTTPie expands `~` itself (the shell does not, after `@`).
    const file = written.startsWith('~/') && fx.home !== null ? `${fx.home}${written.slice(1)}` : written;
    fx.read(site.program, { value: file, dynamic: item.dynamic, unknownAt: item.unknownAt === -1 ? -1 : 0 });
  }
  for (const file of optionValues(parsed, '--cert', '--cert-key')) fx.read(site.program, file);
  for (const session of optionValues(parsed, '--session', '--session-read-only')) {
    if (!session.value.includes('/')) continue; // a name: kept among HTTPie's own sessions
    fx.read(site.program, session);
    if (hasOption(parsed, '--session')) fx.write(site.program, session);
  }
  const outputs = optionValues(parsed, '-o', '--output');
  for (const output of outputs) fx.write(site.program, output);
  if (outputs.length === 0 && hasOption(parsed, '-d', '--download')) fx.write(site.program, filesIn(fx));
};

const firstOperandHost: ProgramHandler = (site, fx) => {
  if (onlyAsksVersion(site.args)) return;
  const parsed = parseArgv(site.args, { short: 'cwWiIstpqbfkmMnQSTlg', long: ['port', 'type', 'class', 'server'] });
  const host = operandsOf(parsed, site).find((arg) => !arg.value.startsWith('@') && !arg.value.startsWith('+') && !/^[A-Z]+$/.test(arg.value));
  if (host) fx.network(site.program, host.value.startsWith(':') ? `localhost${host.value}` : host.value);
};

const openssl: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args.slice(1), { long: [] });
  const sub = site.args[0]?.value;
  const valueOf = (name: string): Arg | undefined => {
    const index = site.args.findIndex((arg) => arg.value === name);
    return index === -1 ? undefined : site.args[index + 1];
  };
  if (sub === 's_client' || sub === 's_time') fx.network('openssl', valueOf('-connect')?.value ?? 'localhost:443');
  for (const name of ['-out', '-keyout', '-CAserial', '-rand', '-writerand']) {
    const out = valueOf(name);
    if (out && name !== '-rand') fx.write('openssl', out);
  }
  const input = valueOf('-in');
  if (input) fx.read('openssl', input);
  // An engine or a provider is a shared library openssl loads, by name from the system's folders
  // or by path (`-engine /tmp/e.so`, `engine dynamic -pre SO_PATH:/tmp/e.so`); a config file or a
  // provider path can point at one too.
  if (sub === 'engine' && site.args.some((arg) => arg.dynamic || arg.value.includes('/'))) fx.opaque('openssl engine loads an engine from a path, a library it runs', 'openssl');
  for (const name of ['-engine', '-provider', '-provider-path', '-config']) {
    const value = valueOf(name);
    const byPath = value !== undefined && (value.dynamic || value.value.includes('/') || name === '-provider-path' || name === '-config');
    if (value !== undefined && byPath && mayBeAgentsFile(fx, value)) fx.opaque(`openssl ${name} ${value.value} loads code of the caller's choosing`, 'openssl');
  }
  void parsed;
};

// ---------- signals ----------

function signalBy(target: Arg): 'pid' | 'job' {
  return target.value.startsWith('%') ? 'job' : 'pid';
}

const kill: ProgramHandler = (site, fx) => {
  const args = site.args;
  if (args.some((arg) => arg.value === '-l' || arg.value === '-L' || arg.value === '--list' || arg.value === '--table')) return;
  // Options come first; the first of them may name the signal (`-9`, `-KILL`, `-s TERM`). Once a
  // signal is named, a negative number is a target: a process group, or -1 for every process.
  let i = 0;
  let signalNamed = false;
  let signal: string | undefined;
  for (; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === '--') {
      i++;
      break;
    }
    if (args[i]!.dynamic || !value.startsWith('-') || value === '-') break;
    if (/^-\d+$/.test(value) && signalNamed) break;
    if (value === '-s' || value === '-n' || value === '--signal') signal = args[++i]?.dynamic === false ? args[i]!.value : '?';
    else signal = value.replace(/^--signal=/, '').replace(/^-/, '');
    signalNamed = true;
  }
  // Signal 0 (`kill -0 PID`, `kill -s 0`) is delivered to nobody: it only asks whether the process is there.
  if (signal !== undefined && /^(?:0|SIG0|ZERO|SIGZERO)$/i.test(signal)) return;
  const targets = args.slice(i);
  if (site.stdinArgs) targets.push({ value: '(pids supplied at run time)', dynamic: true, unknownAt: 0 });
  for (const target of targets) fx.signal(site.program, target.value, signalBy(target));
};

const pkill: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'gGPsStuUFOr', long: ['signal', 'pgroup', 'group', 'parent', 'session', 'terminal', 'euid', 'uid', 'pidfile', 'older', 'ns', 'nslist', 'runstates', 'cgroup', 'env'] });
  for (const pidfile of optionValues(parsed, '-F', '--pidfile')) {
    fx.read(site.program, pidfile);
    fx.signal(site.program, `pid in ${pidfile.value}`, 'pid');
  }
  const patterns = operandsOf(parsed, site);
  // `pkill -v bash`: every process the pattern does not match.
  if (hasOption(parsed, '-v', '--inverse')) fx.signal(site.program, '-1 (every process but those it names)', 'pid');
  for (const pattern of patterns) fx.signal(site.program, pattern.value, 'pattern');
  if (patterns.length > 0) return;
  // Without a pattern the options pick the processes: a process group or session by its number
  // (the daemon leads its own), every process of a user, or every child of a process.
  for (const group of optionValues(parsed, '-g', '--pgroup', '-s', '--session')) fx.signal(site.program, group.value, 'pid');
  for (const owner of optionValues(parsed, '-u', '-U', '--euid', '--uid')) fx.signal(site.program, `-1 (every process of ${owner.value})`, 'pid');
  for (const parent of optionValues(parsed, '-P', '--parent')) fx.signal(site.program, OWN_PIDS.has(parent.value) ? parent.value : `-1 (every child of ${parent.value})`, 'pid');
  // Selections by a property the daemon may share: its group, terminal, age, namespace, cgroup, state or environment (`--env HOME=…`).
  for (const option of parsed.options) {
    if (PKILL_WIDE_SELECTORS.has(option.name)) fx.signal(site.program, `-1 (every process with ${option.name} ${option.value?.value ?? ''})`, 'pid');
  }
};

const PKILL_WIDE_SELECTORS = new Set(['-G', '--group', '-t', '--terminal', '--older', '-O', '--ns', '--nslist', '--cgroup', '-r', '--runstates', '--env']);

/**
 * start-stop-daemon: `-K` stops the processes it matches (`-n NAME`, `-x PATH`, `-p PIDFILE`,
 * `-u USER`); `-S` starts `-x`/`-a` with the arguments after `--`.
 */
const startStopDaemon: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'nxpuaisrNkdgcR', long: ['name', 'exec', 'pidfile', 'user', 'startas', 'signal', 'retry', 'chuid', 'chroot', 'chdir', 'group', 'nicelevel', 'umask', 'output', 'procsched', 'iosched', 'make-pidfile', 'ppid'] });
  const rest = site.args.slice(site.args.findIndex((arg) => arg.value === '--') + 1 || site.args.length);
  if (hasOption(parsed, '-K', '--stop')) {
    for (const name of optionValues(parsed, '-n', '--name')) fx.signal(site.program, name.value, 'name');
    for (const program of optionValues(parsed, '-x', '--exec')) fx.signal(site.program, baseName(program.value), 'name');
    for (const pidfile of optionValues(parsed, '-p', '--pidfile')) {
      fx.read(site.program, pidfile);
      fx.signal(site.program, `pid in ${pidfile.value}`, 'pid');
    }
    for (const owner of optionValues(parsed, '-u', '--user')) fx.signal(site.program, `-1 (every process of ${owner.value})`, 'pid');
    for (const parent of optionValues(parsed, '--ppid')) fx.signal(site.program, `-1 (every child of ${parent.value})`, 'pid');
    return;
  }
  if (hasOption(parsed, '-S', '--start')) {
    const program = lastOptionValue(parsed, '-a', '--startas') ?? lastOptionValue(parsed, '-x', '--exec');
    if (program) fx.run([program, ...rest]);
    else fx.unknown('start-stop-daemon --start');
    return;
  }
  if (!hasOption(parsed, '-T', '--status', '-H', '--help', '-V', '--version')) fx.unknown(site.program);
};

/** Pids the shell knows of itself, as written: the shell, and the job it last started in the background. Never the daemon's. */
export const OWN_PIDS: ReadonlySet<string> = new Set(['$$', '${$}', '$BASHPID', '${BASHPID}', '$!', '${!}']);

const killall: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'sounyYZ', long: ['signal', 'user', 'older-than', 'younger-than', 'context'] });
  const by = hasOption(parsed, '-r', '--regexp') ? 'pattern' : 'name';
  const names = operandsOf(parsed, site);
  for (const name of names) fx.signal(site.program, name.value, by);
  // `killall -u dev`: every process of the user.
  if (names.length === 0) for (const user of optionValues(parsed, '-u', '--user')) fx.signal(site.program, `-1 (every process of ${user.value})`, 'pid');
};

/**
 * procps's `skill [-SIGNAL] [-t TTY] [-u USER] [-p PID] [-c NAME] [EXPRESSION…]` (and `snice`, which
 * renices): each operand is a terminal, user, pid or command name; a user is every process of it.
 */
const skill: ProgramHandler = (site, fx) => {
  const args = site.args;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const selector = /^-[tupc]$/.test(arg.value) ? arg.value : undefined;
    const target = selector === undefined ? arg : args[++i];
    // `-KILL`, `-9` name the signal; snice's `+5` the priority.
    if (target === undefined || (selector === undefined && /^[-+]/.test(arg.value))) continue;
    if (selector === '-u') fx.signal(site.program, `-1 (every process of ${target.value})`, 'pid');
    else if (selector === '-p' || /^\d+$/.test(target.value)) fx.signal(site.program, target.value, 'pid');
    else fx.signal(site.program, target.value, 'name');
  }
};

/** `killall5`: every process but the kernel's and its own session's. */
const killall5: ProgramHandler = (site, fx) => {
  fx.signal(site.program, '-1', 'pid');
};

const fuser: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'n', long: ['namespace'] });
  const kills = hasOption(parsed, '-k', '--kill') || site.args.some((arg) => /^-[a-zA-Z]*k/.test(arg.value));
  const namespace = lastOptionValue(parsed, '-n', '--namespace')?.value;
  const mounted = hasOption(parsed, '-m', '--mount', '-M', '--ismountpoint') || site.args.some((arg) => /^-[a-zA-Z]*[mM]/.test(arg.value));
  for (const target of operandsOf(parsed, site)) {
    if (/^-/.test(target.value)) continue;
    const port = /^(\d+)(?:,[^/]*)?\/(?:tcp|udp)$/.exec(target.value)?.[1] ?? (namespace && /^\d+$/.test(target.value) ? target.value : undefined);
    // A file or folder: whoever has it open, which outside the project may be the daemon (its
    // database, its log, its folder); with -m, every process on that file system.
    const anyone = kills && !port && (mounted || !isWithin(fx.path(target).path, fx.projectRoot) || fx.path(target).dynamic);
    if (anyone) fx.signal('fuser', `-1 (whoever uses ${target.value})`, 'pid');
    else if (kills) fx.signal('fuser', port ?? target.value, port ? 'port' : 'name');
    if (!port) fx.read('fuser', target);
  }
};

const killPort: ProgramHandler = (site, fx) => {
  for (const port of site.args.filter((arg) => !arg.value.startsWith('-'))) fx.signal(site.program, port.value, 'port');
};

const serviceManager: ProgramHandler = (site, fx) => {
  const words = site.args.filter((arg) => !arg.value.startsWith('-'));
  const verbIndex = site.program === 'service' ? 1 : 0;
  const verb = words[verbIndex]?.value ?? '';
  if (/^(?:stop|kill|restart|reload|try-restart|unload|bootout|remove|disable|mask|reload-or-restart|condrestart|force-reload|start|enable)$/.test(verb)) {
    const names = site.program === 'service' ? words.slice(0, 1) : words.slice(1);
    for (const name of names) fx.signal(site.program, name.value, 'name');
    if (names.length === 0) fx.unknown(`${site.program} ${verb}`);
  } else if (!/^(?:status|list|list-[a-z-]+|show|show-environment|get-default|is-active|is-enabled|is-failed|is-system-running|cat|print|help|--version)?$/.test(verb)) fx.unknown(`${site.program} ${verb}`);
};

export const NET_PROGRAMS: readonly [string, ProgramEntry][] = [
  ['curl', { handle: curl }],
  ['wget', { handle: wget }],
  ...entries(socketClient, 'nc', 'ncat', 'netcat', 'telnet'),
  ['socat', { handle: socat }],
  ['ssh', { handle: ssh }],
  ['mosh', { handle: ssh }],
  ['scp', { handle: scp }],
  ['sftp', { handle: sftp }],
  ['psql', { handle: databaseClient({ options: { short: 'cdfhpUvPFRTLo', long: ['command', 'dbname', 'file', 'host', 'port', 'username', 'set', 'variable', 'pset', 'field-separator', 'record-separator', 'table-attr', 'log-file', 'output'] }, sql: ['-c', '--command'], files: ['-f', '--file'], outputs: ['-o', '--output', '-L', '--log-file'], host: ['-h', '--host'], port: ['-p', '--port'], lists: ['-l', '--list'] }) }],
  ...entries(databaseClient({ options: { short: 'eDhPuSo', long: ['execute', 'database', 'host', 'port', 'user', 'socket', 'tee', 'defaults-file', 'defaults-extra-file', 'init-command', 'pager'] }, sql: ['-e', '--execute', '--init-command'], files: ['--defaults-file', '--defaults-extra-file'], outputs: ['--tee'], host: ['-h', '--host'], port: ['-P', '--port'], lists: [] }), 'mysql', 'mariadb'),
  ['redis-cli', { handle: redisCli }],
  ['lftp', { handle: lftp }],
  ['ftp', { handle: ftp }],
  ...entries(firstOperandHost, 'ping', 'ping6', 'dig', 'host', 'nslookup', 'traceroute', 'tracepath', 'mtr', 'whois', 'nmap', 'grpcurl', 'websocat', 'wscat'),
  ...entries(httpie, 'http', 'https', 'xh', 'xhs', 'httpie'),
  ['openssl', { handle: openssl }],
  ['kill', { handle: kill }],
  ...entries(pkill, 'pkill'),
  ['start-stop-daemon', { handle: startStopDaemon }],
  ...entries(killall, 'killall'),
  ['killall5', { handle: killall5 }],
  ...entries(skill, 'skill', 'snice'),
  ['fuser', { handle: fuser }],
  ['kill-port', { handle: killPort }],
  ...entries(serviceManager, 'systemctl', 'launchctl', 'service'),
];
