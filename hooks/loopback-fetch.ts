// A minimal fetch over node:http for the hook client and the CLI. Global fetch loads undici
// on first use, which costs about 150 ms of every SessionStart here; node:http is loaded.
import { request } from 'node:http';

import { describeError } from './describe-error.js';

export interface FetchLikeInit {
  method: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface FetchLikeResponse {
  status: number;
  /** A response header by lower-case name; repeated headers are joined with ", ". */
  header(name: string): string | undefined;
  text(): Promise<string>;
}

export type FetchLike = (url: string, init: FetchLikeInit) => Promise<FetchLikeResponse>;

export const loopbackFetch: FetchLike = (url, init) =>
  new Promise((resolve, reject) => {
    const outgoing = request(url, { method: init.method, headers: init.headers, signal: init.signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const header = (name: string) => {
          const value = response.headers[name];
          return Array.isArray(value) ? value.join(', ') : value;
        };
        resolve({ status: response.statusCode ?? 0, header, text: async () => text });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });

export type DeadlineResult =
  | { kind: 'response'; status: number; text: string; header(name: string): string | undefined }
  | { kind: 'timeout'; ms: number }
  | { kind: 'error'; why: string };

/**
 * A request whose deadline also covers reading the body, with the outcome as a value: the
 * hook client must always produce an answer, so nothing here throws.
 */
export async function fetchWithDeadline(fetchImpl: FetchLike, url: string, init: FetchLikeInit, ms: number): Promise<DeadlineResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const response = await fetchImpl(url, { ...init, signal: controller.signal });
    const text = await response.text();
    return { kind: 'response', status: response.status, text, header: (name) => response.header(name) };
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'timeout', ms };
    return { kind: 'error', why: describeError(error) };
  } finally {
    clearTimeout(timer);
  }
}
