// What a request says about the process that sent it, for the checks in daemon/provenance/.
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { CLIENT_PID_HEADER } from '../../hooks/daemon-locator.js';
import type { Peer } from '../provenance/event-provenance.js';

/** The far end of the request's loopback connection; undefined for an in-process `inject()`. */
export function peerOf(socket: Socket): Peer | undefined {
  const { remotePort, localPort, remoteAddress } = socket;
  if (typeof remotePort !== 'number' || typeof localPort !== 'number' || !remoteAddress) return undefined;
  return { peerPort: remotePort, localPort };
}

/** The pid the client says it runs as: believed only once /proc shows that process holds the connection. */
export function claimedClientPid(request: FastifyRequest): number | undefined {
  const header = request.headers[CLIENT_PID_HEADER];
  const pid = typeof header === 'string' && /^\d{1,10}$/.test(header) ? Number(header) : undefined;
  return pid !== undefined && pid > 0 ? pid : undefined;
}
