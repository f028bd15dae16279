// The error catalog and its documentation must agree: a code a user meets in a message
// must be explained in docs/errors.md with the same HTTP status.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../daemon/errors.js';

const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

describe('docs/errors.md', () => {
  it.each(Object.entries(ERROR_CATALOG))('documents %s with its HTTP status', (code, entry) => {
    expect(docs).toMatch(new RegExp(`\\| \`${code}\` \\| ${entry.status} \\|`));
  });
});
