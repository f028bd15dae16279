// Words that point a program at gobby's daemon by its port, however the program takes an address:
// a URL or `host:port` in any option or setting (`kubectl --server http://127.1:7377`,
// `docker -H tcp://localhost:7377`, `git remote add g http://…:7377`, `DOCKER_HOST=…`,
// `ANTHROPIC_BASE_URL=…`), the port given to a port option (`nmap -p 7377`, `redis-cli -p 7377`,
// `openssl s_client -port 7377`), or beside a host of this machine (`telnet localhost 7377`).
// gobby cannot have an entry for every client's options; an address on the daemon's own port is
// what it looks for instead. Programs whose words are only text they print or search for
// (`grep -r localhost:7377 .`, `echo …`) and process listers are left out.
import type { ShellInvocation } from './shell/index.js';

/** Programs whose words are text they print, match or compare, or a listing's filter: never an address they open or a file an option of theirs writes. */
export const WORDS_ARE_TEXT: ReadonlySet<string> = new Set([
  'echo', 'printf', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'sed', 'cat', 'head', 'tail', 'wc', 'sort', 'uniq', 'cut', 'tr', 'column', 'test', '[', 'true', 'false', ':',
  'ps', 'pgrep', 'pidof', 'lsof', 'fuser', 'ss', 'netstat', 'sleep', 'cd', 'pwd', 'ls', 'which', 'type', 'command',
]);

/** A port option's name: `-p`, `-P`, `--port`, `-port`, `--listen-port`, `--remote-port`. */
const PORT_OPTION = /^(?:-[pP]|-{1,2}(?:[\w-]*-)?port)$/i;

/**
 * The word of `invocation` (an argument or an assignment in its environment) that points it at
 * `port`, or undefined. Any host counts for `host:port`: on the daemon's own port, public names
 * resolve to loopback too (`lvh.me`, as reachesTheDaemon says); a port given apart counts as a port
 * option's value, or beside a name of this machine.
 */
export function addressOfTheDaemon(invocation: ShellInvocation, port: number): string | undefined {
  if (WORDS_ARE_TEXT.has(invocation.program)) return undefined;
  const digits = String(port);
  const words = invocation.environment === undefined ? invocation.args : [...invocation.args, ...invocation.environment];
  // Most commands never write the port's digits: the patterns are made only when one does.
  if (!words.some((word) => word.includes(digits))) return undefined;
  const hostAndPort = new RegExp(`(?:^|[\\s=/@,;'"(])(?:\\[[\\w:.%]*\\]|[A-Za-z0-9][\\w.-]*):${digits}(?!\\d)`);
  const optionValue = new RegExp(`^(?:-{1,2}(?:[\\w-]*-)?port=|-[pP])${digits}$`, 'i');
  const args = invocation.args;
  const besideThisMachine = (): boolean => args.some((arg) => LOOPBACK_NAME.test(arg));
  for (const word of words) if (hostAndPort.test(word)) return word;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (optionValue.test(arg)) return arg;
    if (arg !== digits) continue;
    if (PORT_OPTION.test(args[i - 1] ?? '') || besideThisMachine()) return `${args[i - 1] ?? ''} ${arg}`.trim();
  }
  return undefined;
}

/** Names of this machine written as a host on their own (`localhost`, `127.0.0.1`, `::1`, `0.0.0.0`), also as an option's value (`--host=127.1`). */
const LOOPBACK_NAME = /^(?:-{1,2}[\w-]*=)?(?:localhost\.?|[\w.-]+\.localhost\.?|127(?:\.\d{1,3}){1,3}|0\.0\.0\.0|\[?::1\]?|ip6-localhost|ip6-loopback)$/i;
