// Words that point a program at gobby's daemon by its port, however the program takes an address:
// a URL or `host:port` in any option or setting (`kubectl --server http://127.1:7377`,
// `docker -H tcp://localhost:7377`, `git remote add g http://…:7377`, `DOCKER_HOST=…`,
// `ANTHROPIC_BASE_URL=…`), the port given to a port option (`nmap -p 7377`, `redis-cli -p 7377`,
// `openssl s_client -port 7377`), or beside a host of this machine (`telnet localhost 7377`).
// gobby cannot have an entry for every client's options; an address on the daemon's own port is
// what it looks for instead. Programs whose words are only text they print or search for
// (`grep -r localhost:7377 .`, `echo …`) and process listers are left out.
import type { ShellInvocation } from './shell/index.js';

/** Programs whose words are text they match or compare, or a listing's filter: never an address they open or a file an option of theirs writes. */
export const WORDS_ARE_TEXT: ReadonlySet<string> = new Set([
  'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'sed', 'cat', 'head', 'tail', 'wc', 'sort', 'uniq', 'cut', 'tr', 'column', 'test', '[', 'true', 'false', ':',
  'ps', 'pgrep', 'pidof', 'lsof', 'fuser', 'ss', 'netstat', 'sleep', 'cd', 'pwd', 'ls', 'which', 'type', 'command',
]);

/** Programs that print their words: text on the terminal, but what they write into a file or a pipe a client may read as its address (`echo registry=… > .npmrc`, `echo URL | wget -i -`). */
export const PRINTS_ITS_WORDS: ReadonlySet<string> = new Set(['echo', 'printf']);

const DASH = 45;

/** A port option's name: `-p`, `-P`, `--port`, `-port`, `--listen-port`, `--remote-port`. */
const PORT_OPTION = /^(?:-[pP]|-{1,2}(?:[\w-]*-)?port)$/i;
/** A port option with its value attached: `-p7377`, `-pT:7377`, `--port=7000-8000`. */
const PORT_OPTION_WITH_VALUE = /^(?:-[pP]|-{1,2}(?:[\w-]*-)?port=)(.+)$/i;

/**
 * The word of `invocation` (an argument or an assignment in its environment) that points it at
 * `port`, or undefined. Any host that looks like one counts for `host:port` (a dotted name or
 * address, `localhost`, `[::1]`, or a URL's): on the daemon's own port, public names resolve to
 * loopback too (`lvh.me`, as reachesTheDaemon says); a one-word name or a number before the colon
 * is most likely data (`user:7377`, `docker -p 8080:7377`). A port given apart counts as a port
 * option's value, in a list or range (`nmap -p 7000-8000`, `-pT:7377`), or beside a name of this machine.
 */
export function addressOfTheDaemon(invocation: ShellInvocation, port: number): string | undefined {
  if (WORDS_ARE_TEXT.has(invocation.program) || (PRINTS_ITS_WORDS.has(invocation.program) && invocation.outputShown === true)) return undefined;
  const digits = String(port);
  const words = invocation.environment === undefined ? invocation.args : [...invocation.args, ...invocation.environment];
  const args = invocation.args;
  // One pass over the words: a port option's value, and a range of ports (`nc -z localhost 7370-7380`), which counts beside a name of this machine.
  let range = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.charCodeAt(0) === DASH) {
      const attached = PORT_OPTION_WITH_VALUE.exec(arg)?.[1];
      if (attached !== undefined && portsHold(attached, port)) return arg;
    } else if (i > 0 && PORT_OPTION.test(args[i - 1]!) && portsHold(arg, port)) return `${args[i - 1]} ${arg}`;
    else if (/^\d+-\d+$/.test(arg) && portsHold(arg, port)) range = true;
  }
  if (range && args.some((arg) => LOOPBACK_NAME.test(arg))) return args.join(' ');
  // Most commands never write the port's digits: the pattern is made only when one does.
  if (!words.some((word) => word.includes(digits))) return undefined;
  const address = hostAndPortPattern(port);
  for (const word of words) if (address.test(word)) return word;
  if (args.includes(digits) && args.some((arg) => LOOPBACK_NAME.test(arg))) return args.join(' ');
  // An address whose port is made at run time from the digits the command writes (`--server "http://127.0.0.1:$(seq 7377 7377)"`).
  return words.find((word) => RUN_TIME_PORT_ADDRESS.test(word));
}

/** The last port's pattern: the daemon has one port, so it is made once. */
let madeFor: { readonly port: number; readonly pattern: RegExp } | undefined;

/** `host:port` on `port` (leading zeros too, `:07377`), where the host looks like one, also attached to a short option (`-s127.0.0.1:7377`). */
function hostAndPortPattern(port: number): RegExp {
  if (madeFor?.port === port) return madeFor.pattern;
  madeFor = { port, pattern: makeHostAndPortPattern(port) };
  return madeFor.pattern;
}

function makeHostAndPortPattern(port: number): RegExp {
  return new RegExp(`(?:^-[A-Za-z]|^|[\\s=/@,;'"(])(?:\\[[\\w:.%]*\\]|[A-Za-z0-9][\\w-]*(?:\\.[\\w-]+)+\\.?|localhost|[\\w-]+\\.localhost|(?<=\\/\\/|@)[A-Za-z0-9][\\w-]*):0*${port}(?!\\d)`, 'i');
}

/** `host:` followed by a part only known at run time. */
const RUN_TIME_PORT_ADDRESS = /(?:\/\/|^)(?:\[[\w:.%]*\]|[\w.-]+):[$`]/;

/** Whether a port option's value names `port`: a number, a list, a range, open ends (`-p-`, `-p 7000-`), nmap's `T:`/`U:` and `*`. */
function portsHold(value: string, port: number): boolean {
  return value.split(',').some((item) => {
    const range = /^(?:[TUS]:)?(\d*)(-?)(\d*)$/i.exec(item.trim());
    if (range === null) return item.trim() === '*';
    const [, from, dash, to] = range;
    if (dash === '') return from !== '' && Number(from) === port;
    return (from === '' || Number(from) <= port) && (to === '' || port <= Number(to));
  });
}

/**
 * An address on `port` anywhere in a command that exports variables (`X=http://…:7377; export X`,
 * `set -a; X=…`, `read -r X <<< …; export X`): read from the command's text, as the variable's own
 * value is on no program's words.
 */
export function exportedAddressOfTheDaemon(command: string, port: number): string | undefined {
  if (!command.includes(String(port)) || !EXPORTS.test(command)) return undefined;
  // Any word: the value may come by `NAME=…`, `read NAME <<< …`, `printf -v NAME …`.
  const address = hostAndPortPattern(port);
  return command.split(/[\s'"]+/).find((word) => address.test(word));
}

const EXPORTS = /\bexport\b|\bset\s+-[a-zA-Z]*a|\b(?:declare|typeset|local)\s+-[a-zA-Z]*x/;

/** Names of this machine written as a host on their own (`localhost`, `127.0.0.1`, `::1`, `0.0.0.0`), also as an option's value (`--host=127.1`). */
const LOOPBACK_NAME = /^(?:-{1,2}[\w-]*=)?(?:localhost\.?|[\w.-]+\.localhost\.?|127(?:\.\d{1,3}){1,3}|0\.0\.0\.0|\[?::1\]?|ip6-localhost|ip6-loopback)$/i;
