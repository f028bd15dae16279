// Messages are built in layers: the daemon's refusal inside the CLI's line, a failed start's
// stderr inside "the daemon did not start: …". Each layer may have been written to stand
// alone, `gobby: ` included; the user reads `gobby: ` once.
import { describe, expect, it } from 'vitest';
import { describeError, gobbyMessage, withoutGobbyPrefix } from '../../hooks/describe-error.js';

describe('gobbyMessage', () => {
  it.each([
    ['the daemon did not start: gobby: port 7377 is in use', 'gobby: the daemon did not start: port 7377 is in use'],
    ['gobby: `phase` is a human-only override', 'gobby: `phase` is a human-only override'],
    ['gobby: gobby: twice at the start', 'gobby: twice at the start'],
    ['no daemon answers (gobby: refused); gobby: could not start', 'gobby: no daemon answers (refused); could not start'],
    ['first line\ngobby: second line', 'gobby: first line\nsecond line'],
    ['plain', 'gobby: plain'],
  ])('%j → %j', (message, shown) => {
    expect(gobbyMessage(message)).toBe(shown);
  });

  it('leaves `gobby:` alone where it is not a prefix', () => {
    expect(withoutGobbyPrefix('run `gobby: status`? no: gobby:x stays')).toBe('run `gobby: status`? no: gobby:x stays');
  });
});

describe('describeError', () => {
  it('quotes the cause without its prefix, ready to sit inside another message', () => {
    expect(describeError(new Error('fetch failed', { cause: new Error('gobby: connect ECONNREFUSED') }))).toBe('connect ECONNREFUSED');
    expect(describeError(new Error('gobby: boom'))).toBe('boom');
  });
});
