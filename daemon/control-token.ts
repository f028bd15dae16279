// The control API's token: random, created once, readable by the user only (0600).
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';

export function ensureControlToken(path: string): string {
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (existing.length >= 32) {
      chmodSync(path, 0o600);
      return existing;
    }
  } catch {
    // not there yet
  }
  const token = randomBytes(32).toString('hex');
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}

export function readControlToken(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim() || null;
  } catch {
    return null;
  }
}
