// Which processes an `lsof` lists, read from its options, for the guard that keeps pids found at
// run time away from gobby's daemon (`kill $(lsof -ti :3000)` lists a dev server; `kill $(lsof
// -ti @127.0.0.1)`, `lsof -t | xargs kill` and `lsof -ti :7000-8000` list the daemon too).

/** What the daemon is known by: its port, and the names its process goes by. */
export interface DaemonMarks {
  readonly port?: number | undefined;
  readonly names: readonly string[];
}

/** lsof's options that take a value, attached or in the next word. */
const TAKES_VALUE = new Set(['c', 'd', 'D', 'e', 'F', 'k', 'p', 'u', 'E']);
/** Options whose value, optional, may only be attached (`-g`, `-s`, `-T`…): never the next word. */
const TAKES_ATTACHED_VALUE = new Set(['g', 'o', 'r', 's', 'S', 'T', 'z', 'm']);
/** An `-i` address: `[46][protocol][@host][:ports]`, where ports are numbers, services and ranges, comma-separated. */
const INTERNET_ADDRESS = /^[46]?(?:tcp|udp)?(?:@(?:\[[^\]]*\]|[^:]*))?(?::([^\s]*))?$/i;
/** Services named for the ports most developers reach; any other name counts as any port. */
const SERVICE_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443, ssh: 22, ftp: 21, smtp: 25, domain: 53, 'http-alt': 8080, postgresql: 5432, mysql: 3306, redis: 6379, mongodb: 27017 };

/**
 * Whether the processes `lsof ARGS` lists may include the daemon: an `-i` address without a port
 * or with a port or range that holds the daemon's; a command name the daemon's starts with
 * (`-c no`, a `-c /regex/` that matches it); a user's processes (`-u dev`); or no selection at all,
 * which lists every process with a file open. Files given by name are judged elsewhere.
 */
export function lsofListsTheDaemon(args: readonly string[], daemon: DaemonMarks): boolean {
  let selects = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') return selects ? false : index + 1 >= args.length;
    if (!/^[-+]./.test(arg)) {
      selects = true;
      continue;
    }
    const letters = arg.slice(1);
    if (arg.startsWith('+')) {
      // `+d DIR`, `+D DIR` select by folder; `+c WIDTH` only widens the listing.
      if (/^[cdD]/.test(letters) && letters.length === 1) index++;
      if (/^[dD]/.test(letters)) selects = true;
      continue;
    }
    for (let at = 0; at < letters.length; at++) {
      const letter = letters[at]!;
      const attached = letters.slice(at + 1);
      if (letter === 'i') {
        selects = true;
        // lsof also takes the address from the next word (`-i :3000`) when that word is one.
        const next = args[index + 1];
        const address = attached !== '' ? attached : next !== undefined && next !== '' && INTERNET_ADDRESS.test(next) ? (index++, next) : '';
        if (addressReachesPort(address, daemon.port)) return true;
        break;
      }
      if (TAKES_VALUE.has(letter)) {
        const value = attached !== '' ? attached : (args[++index] ?? '');
        // `-d cwd`, `-d txt` pick which descriptors are shown, of every process: no selection of processes.
        if (letter === 'c' || letter === 'p' || letter === 'u' || letter === 'D') selects = true;
        if (letter === 'c' && commandSelectionFinds(value, daemon.names)) return true;
        // Every process of a user: the daemon runs as the user the agent does.
        if (letter === 'u' && !value.startsWith('^')) return true;
        break;
      }
      // `-g PGID`: by process group, and the daemon leads its own; like a group of 0, it narrows nothing gobby can tell.
      if (TAKES_ATTACHED_VALUE.has(letter)) break;
    }
  }
  return !selects;
}

function addressReachesPort(address: string, port: number | undefined): boolean {
  const match = INTERNET_ADDRESS.exec(address);
  // An address lsof would not read may select anything.
  if (match === null) return true;
  const ports = match[1];
  if (ports === undefined || ports === '') return true;
  if (port === undefined) return false;
  return ports.split(',').some((item) => {
    const range = /^(\d+)-(\d+)$/.exec(item);
    if (range) return Number(range[1]) <= port && port <= Number(range[2]);
    if (/^\d+$/.test(item)) return Number(item) === port;
    const known = SERVICE_PORTS[item.toLowerCase()];
    return known === undefined || known === port;
  });
}

/** `-c NAME` selects commands whose name starts with NAME (`^NAME` excludes them); `-c /RE/[x]` by a regular expression. */
function commandSelectionFinds(value: string, names: readonly string[]): boolean {
  if (value.startsWith('^')) return false;
  const regex = /^\/(.*)\/[bix]*$/.exec(value);
  if (regex === null) return names.some((name) => name.startsWith(value));
  try {
    const pattern = new RegExp(regex[1]!);
    return names.some((name) => pattern.test(name));
  } catch {
    return true;
  }
}
