// The agent's regular expressions are run inside the daemon (a pkill pattern, a rename
// substitution) only when they cannot backtrack for long: `((.*))*z` took 31 s on 28 characters.
import { describe, expect, it } from 'vitest';
import { mayBacktrackBadly } from '../../workflows/shell/regex-safety.js';

describe('a pattern the daemon may run', () => {
  it.each(['((.*))*z', '(a+)+', '(?:(.+))+z', '([^z]+)+z', '(\\w+\\s?)+$', '(a|ab)*c', '(a?)*', 'x(y(a+)b)*', '(a){2,}(b+){2,}', '(a)\\1', '.*.*.*.*.*', 'a'.repeat(300)])('is refused when it may take exponential or high-polynomial time: %j', (pattern) => {
    expect(mayBacktrackBadly(pattern, 4)).toBe(true);
  });

  it.each(['node.*gobby', '^(?:gobby|node)$', 'daemon/main\\.js', '(ab)+', '(a){3}', '\\.bak$', '^(.*)\\.txt$', '[(+|)]+x', '\\(a+\\)+', 'vite|webpack'])('is run when its work stays small: %j', (pattern) => {
    expect(mayBacktrackBadly(pattern, 4)).toBe(false);
  });
});
