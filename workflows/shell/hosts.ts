// Whether a host name is surely another machine. Used for the daemon's port (guards.ts) and for
// what `ssh HOST CMD` runs: on a host that may be this machine, CMD most likely runs here.

/**
 * A dotted DNS name under a real top-level domain (`example.com`) is most likely another machine.
 * Loopback has too many spellings to list (`127.1`, `0x7f000001`, `2130706433`,
 * `[::ffff:127.0.0.1]`, `localhost.`, `anything.localhost`, a one-word host name), so everything
 * else counts as this one. Used for a port only known at run time and for ssh's host; on the
 * daemon's own port no name is taken as another machine's (guards.ts, reachesTheDaemon).
 */
export function isPublicName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const labels = name.split('.');
  const top = labels[labels.length - 1]!;
  return labels.length >= 2 && /^[a-z][a-z0-9-]*[a-z0-9]$/.test(top) && top !== 'localhost' && labels.every((label) => /^[a-z0-9-]+$/.test(label));
}

/** The host of an ssh destination: `user@host`, `ssh://user@host:2222`, `[::1]`. */
export function sshHost(destination: string): string {
  const withoutScheme = destination.replace(/^ssh:\/\//i, '');
  const host = withoutScheme.slice(withoutScheme.lastIndexOf('@') + 1);
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') === -1 ? undefined : host.indexOf(']'));
  return destination.length !== withoutScheme.length ? host.replace(/:\d*$/, '') : host;
}
