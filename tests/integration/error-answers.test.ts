// Every class of error the daemon answers, as a client meets it: fastify's own (a body it
// cannot read, no route, too large, a media type it does not parse, a bad URL), the token
// check, and the service's refusals. Each is `{ error: { code, message } }` with a catalog
// code and that code's HTTP status, and carries gobby's version header.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GOBBY_VERSION_HEADER } from '../../daemon/contracts/control-api.js';
import { ERROR_CATALOG, type HttpErrorCode } from '../../hooks/errors.js';
import { AUTH, TestDaemon } from './test-daemon.js';

let t: TestDaemon;
beforeEach(() => {
  t = TestDaemon.create({ bodyLimitBytes: 64 * 1024 });
});
afterEach(async () => {
  await t.dispose();
});

const host = { host: '127.0.0.1:4517' };

async function expectErrorAnswer(request: InjectOptions, code: HttpErrorCode): Promise<string> {
  const response = await t.app.inject(request);
  expect(response.statusCode).toBe(ERROR_CATALOG[code].status);
  expect(response.json()).toEqual({ error: { code, message: expect.any(String) } });
  expect(response.headers[GOBBY_VERSION_HEADER]).toMatch(/^\d+\.\d+\.\d+/);
  return (response.json() as { error: { message: string } }).error.message;
}

describe("fastify's own errors", () => {
  it('answers a body that is not JSON with 400 GOBBY_ERR_HTTP_BAD_REQUEST', async () => {
    const message = await expectErrorAnswer(
      { method: 'POST', url: '/hooks/PreToolUse', headers: { ...host, 'content-type': 'application/json' }, payload: '{"session_id": ' },
      'GOBBY_ERR_HTTP_BAD_REQUEST',
    );
    expect(message).toMatch(/JSON/);
  });

  it('answers an empty JSON body with 400 GOBBY_ERR_HTTP_BAD_REQUEST', async () => {
    const message = await expectErrorAnswer(
      { method: 'POST', url: '/api/sessions/phase', headers: { ...host, ...AUTH, 'content-type': 'application/json' }, payload: '' },
      'GOBBY_ERR_HTTP_BAD_REQUEST',
    );
    expect(message).toMatch(/empty/);
  });

  it('answers a route that does not exist with 404 GOBBY_ERR_HTTP_NOT_FOUND', async () => {
    const message = await expectErrorAnswer({ method: 'GET', url: '/api/nothing', headers: { ...host, ...AUTH } }, 'GOBBY_ERR_HTTP_NOT_FOUND');
    expect(message).toContain('/api/nothing');
  });

  it('answers a body over the limit with 413 GOBBY_ERR_HTTP_TOO_LARGE', async () => {
    const message = await expectErrorAnswer(
      { method: 'POST', url: '/hooks/PreToolUse', headers: { ...host, 'content-type': 'application/json' }, payload: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }) },
      'GOBBY_ERR_HTTP_TOO_LARGE',
    );
    expect(message).toContain(String(64 * 1024));
  });

  it('answers a workflow name over 100 characters with 414 GOBBY_ERR_HTTP_URI_TOO_LONG', async () => {
    await expectErrorAnswer(
      { method: 'GET', url: `/api/workflows/${'w'.repeat(101)}?cwd=${encodeURIComponent(t.project)}`, headers: { ...host, ...AUTH } },
      'GOBBY_ERR_HTTP_URI_TOO_LONG',
    );
  });

  it('answers a body of a media type it does not parse with 415 GOBBY_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE', async () => {
    const message = await expectErrorAnswer(
      { method: 'POST', url: '/hooks/PreToolUse', headers: { ...host, 'content-type': 'application/xml' }, payload: '<event/>' },
      'GOBBY_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE',
    );
    expect(message).toContain('application/xml');
    expect(message).toContain('application/json');
  });

  it('answers a malformed percent-encoding in the path with 400 GOBBY_ERR_HTTP_BAD_REQUEST', async () => {
    await expectErrorAnswer({ method: 'GET', url: '/api/workflows/%E0%A4%A?cwd=x', headers: { ...host, ...AUTH } }, 'GOBBY_ERR_HTTP_BAD_REQUEST');
  });
});

describe("what node's HTTP parser refuses before fastify sees it, on a real socket", () => {
  /** The raw answer to `request` written on a TCP connection to the listening daemon. */
  async function rawAnswer(request: string): Promise<{ status: number; headers: string; body: string }> {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const text = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = connect(port, '127.0.0.1', () => socket.end(request));
      socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      socket.on('close', () => resolve(received)).on('error', reject);
    });
    const [head = '', body = ''] = text.split('\r\n\r\n');
    return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body };
  }

  it.each<[string, string, HttpErrorCode]>([
    ['a URL with a 100 KB query', `GET /hooks/Stop?${'a'.repeat(100_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, 'GOBBY_ERR_HTTP_HEADERS_TOO_LARGE'],
    ['bytes that are no HTTP', 'HELLO gobby\r\n\r\n', 'GOBBY_ERR_HTTP_BAD_REQUEST'],
  ])('answers %s in the daemon\'s shape, with its version header', async (_what, request, code) => {
    const answer = await rawAnswer(request);
    expect(answer.status).toBe(ERROR_CATALOG[code].status);
    expect(JSON.parse(answer.body)).toEqual({ error: { code, message: expect.any(String) } });
    expect(answer.headers).toContain(`${GOBBY_VERSION_HEADER}: `);
  });
});

describe('a body over the limit, from a client that is still sending it', () => {
  // 32 MB: far more than the socket buffers hold, so the client is still writing when the daemon
  // decides; a daemon that answered and closed at once would reset it before it read the answer.
  const BODY_BYTES = 32 * 1024 * 1024;

  async function listeningPort(): Promise<number> {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    return (t.app.server.address() as AddressInfo).port;
  }

  /** POSTs the body in 1 MB chunks as node's http client streams it; `chunked`: without a Content-Length. */
  function streamBody(port: number, chunked: boolean): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/hooks/PreToolUse',
        headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': BODY_BYTES }) },
      });
      request.on('response', (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      let left = BODY_BYTES / chunk.length;
      const writeMore = (): void => {
        while (left > 0) {
          left -= 1;
          if (!request.write(chunk)) {
            request.once('drain', writeMore);
            return;
          }
        }
        request.end();
      };
      writeMore();
    });
  }

  it.each([
    ['with a Content-Length', false],
    ['chunked', true],
  ])('gets the 413 JSON, naming body_limit_mb, %s', async (_how, chunked) => {
    const port = await listeningPort();
    const answer = await streamBody(port, chunked);
    expect(answer.status).toBe(413);
    const { error } = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(error.code).toBe('GOBBY_ERR_HTTP_TOO_LARGE');
    expect(error.message).toContain('body_limit_mb');
    expect(error.message).toContain(String(64 * 1024));
  });

  it("gets it through node's fetch too, as Claude Code's http hooks post", async () => {
    const port = await listeningPort();
    const response = await fetch(`http://127.0.0.1:${port}/hooks/PreToolUse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(BODY_BYTES, 'x'),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('GOBBY_ERR_HTTP_TOO_LARGE');
    // The daemon still serves the next request.
    const identity = await fetch(`http://127.0.0.1:${port}/api/identity`);
    expect(identity.status).toBe(200);
  });
});

describe("gobby's own refusals", () => {
  it('answers the control API without the token with 403 GOBBY_ERR_HTTP_FORBIDDEN', async () => {
    const message = await expectErrorAnswer({ method: 'GET', url: '/api/daemon', headers: host }, 'GOBBY_ERR_HTTP_FORBIDDEN');
    expect(message).toContain('token');
  });

  it('answers a move the definition does not allow with 409 GOBBY_ERR_PHASE_NOT_ALLOWED', async () => {
    await t.setWorkflow('plan-execute');
    await t.sessionStart(t.newSessionId());
    await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'execute', force: true, reason: 'test' });
    const message = await expectErrorAnswer(
      { method: 'POST', url: '/api/sessions/phase', headers: { ...host, ...AUTH }, payload: { cwd: t.project, phase: 'plan' } },
      'GOBBY_ERR_PHASE_NOT_ALLOWED',
    );
    expect(message).toContain('--force');
  });

  it('answers a query the control API cannot use with 400 GOBBY_ERR_HTTP_BAD_REQUEST naming the field', async () => {
    const message = await expectErrorAnswer({ method: 'GET', url: '/api/status', headers: { ...host, ...AUTH } }, 'GOBBY_ERR_HTTP_BAD_REQUEST');
    expect(message).toContain('cwd');
  });
});
