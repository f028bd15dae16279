// The Host header must name this daemon exactly: a loopback name and the port it listens
// on. A web page that rebinds a name of its own to 127.0.0.1, or a request for another
// port, is refused before any route runs.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { isOwnHost } from '../../daemon/http/security.js';
import { TestDaemon } from './test-daemon.js';

let t: TestDaemon;
afterEach(async () => t?.dispose());

function getWithHost(port: number, host: string): Promise<{ status: number; code?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/health', headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, code: (JSON.parse(text) as { error?: { code: string } }).error?.code }));
    });
    req.on('error', reject).end();
  });
}

describe('the Host check on a listening daemon', () => {
  it('accepts the loopback names with its own port and refuses everything else', async () => {
    t = TestDaemon.create();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await getWithHost(port, host)).status, host).toBe(200);
    }
    for (const host of [`127.0.0.1:${port + 1}`, 'localhost', '127.0.0.1', `localhost:${port}@evil.example`, `127.0.0.1.evil.example:${port}`, `evil.example:${port}`, `127.0.0.2:${port}`, `localhost:0${port}x`]) {
      expect(await getWithHost(port, host), host).toEqual({ status: 403, code: 'GOBBY_ERR_HTTP_FORBIDDEN' });
    }
  });
});

describe('isOwnHost', () => {
  it.each([
    ['127.0.0.1:7377', 7377, true],
    ['localhost:7377', 7377, true],
    ['[::1]:7377', 7377, true],
    ['localhost', 80, true],
    ['localhost', 7377, false],
    ['127.0.0.1:7378', 7377, false],
    ['127.0.0.1:7378', undefined, true],
    [' 127.0.0.1:7377', 7377, false],
    [undefined, 7377, false],
  ] as const)('%j on port %s: %s', (host, port, expected) => {
    expect(isOwnHost(host, port)).toBe(expected);
  });
});
