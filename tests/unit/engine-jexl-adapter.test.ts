// gobby relies on parts of jexl that jexl does not document: the parsed tree behind
// `_getAst()` (every name a condition uses is checked against it at load time) and the lazy
// operands of a manual-eval operator (`and` short-circuits). workflows/jexl-adapter.ts is
// the one place that touches them. These tests pin what it relies on, so that an upgrade
// that changes it fails here, naming the jexl version, instead of letting typos through as
// `false` at run time.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExpressionLanguage, type ExpressionTree } from '../../workflows/jexl-adapter.js';
import { REPO_ROOT } from './engine-test-helpers.js';

const JEXL_VERSION = (createRequire(import.meta.url)('jexl/package.json') as { version: string }).version;
const BROKEN = (what: string): string =>
  `jexl ${JEXL_VERSION} no longer ${what}: workflows/jexl-adapter.ts was written against jexl 2.3 and must be updated with this upgrade`;

let touched = 0;
const language = createExpressionLanguage({
  functions: {
    f: () => 1,
    touch: () => {
      touched++;
      return 'touched';
    },
  },
  filters: { t: (value: unknown) => value },
  operators: [{ operator: 'in', precedence: 20, apply: () => 'replaced' }],
  shortCircuitOperators: [{ operator: '&&', precedence: 12, keepsLeft: (left) => !left }],
});

/** Parses what jexl 2.3 accepts; a throw here means the upgrade broke the adapter. */
function parse(source: string): ReturnType<typeof language.parse> {
  try {
    return language.parse(source);
  } catch (error) {
    throw new Error(`${BROKEN(`parses \`${source}\` the way the adapter reads it`)}: ${(error as Error).message}`);
  }
}

const name = (n: string): ExpressionTree => ({ kind: 'name', name: n });
const other = (...children: ExpressionTree[]): ExpressionTree => ({ kind: 'other', children });
const property = (of: ExpressionTree, n: string): ExpressionTree => ({ kind: 'property', of, name: n });
const call = (pool: 'function' | 'filter', n: string, ...args: ExpressionTree[]): ExpressionTree => ({ kind: 'call', pool, name: n, args });

describe(`the jexl adapter, on the installed jexl ${JEXL_VERSION}`, () => {
  it.each([
    ['a', name('a')],
    ['a.b.c', property(property(name('a'), 'b'), 'c')],
    ["a['b']", property(name('a'), 'b')],
    ['a[b]', other(name('a'), name('b'))],
    ["f(a, 'x')", call('function', 'f', name('a'), other())],
    ['f()', call('function', 'f')],
    ['a | t(b)', call('filter', 't', name('a'), name('b'))],
    ['[a, {k: b}]', other(name('a'), other(name('b')))],
    ['!a', other(name('a'))],
    ['a == b', other(name('a'), name('b'))],
    ['a ? b : c', other(name('a'), name('b'), name('c'))],
    ['a ?: c', other(name('a'), name('c'))],
    ['list[.x == y]', other(name('list'), other(other(), name('y')))],
    ['list[0]', other(name('list'), other())],
    ["'text'", other()],
  ] as const)('reads the parse tree of %j', (source, tree) => {
    expect(parse(source).tree, BROKEN(`produces the parse tree the adapter reads for \`${source}\``)).toEqual(tree);
  });

  it('folds an array literal of literals into one frozen value, evaluated once', () => {
    const folded = parse("[['Edit', 1], [true]]");
    expect(folded.tree).toEqual(other());
    const value = folded.evaluate({});
    expect(value).toEqual([['Edit', 1], [true]]);
    expect(Object.isFrozen(value) && Object.isFrozen((value as unknown[])[0])).toBe(true);
    expect(folded.evaluate({})).toBe(value);
    // An array with a name in it is evaluated each time, against the context.
    expect(parse("[a, 'x']").tree).toEqual(other(name('a'), other()));
    expect(parse("[a, 'x']").evaluate({ a: 1 })).toEqual([1, 'x']);
    expect(parse("f([1, 2]) | t(['y'])").tree).toEqual(call('filter', 't', call('function', 'f', other()), other()));
  });

  it('evaluates synchronously, against the context it is given', () => {
    expect(parse('a.b + 1').evaluate({ a: { b: 1 } }), BROKEN('evaluates synchronously')).toBe(2);
  });

  it('short-circuits an operator with lazy operands: the right side runs only when the left does not decide', () => {
    touched = 0;
    expect(parse('false && touch()').evaluate({}), BROKEN('hands lazy operands to a manual-eval operator')).toBe(false);
    expect(touched, BROKEN('hands lazy operands to a manual-eval operator')).toBe(0);
    expect(parse('1 && touch()').evaluate({})).toBe('touched');
    expect(touched).toBe(1);
  });

  it('replaces a built-in operator with the one it is given', () => {
    expect(parse("'a' in 'abc'").evaluate({}), BROKEN('lets an operator be replaced')).toBe('replaced');
  });

  it('reports a syntax error by throwing', () => {
    expect(() => language.parse('a =='), BROKEN('throws on a syntax error at compile time')).toThrow();
  });

  it('is the only module that imports jexl', () => {
    const importers = ['workflows', 'daemon', 'hooks'].flatMap((folder) => sourceFiles(join(REPO_ROOT, folder)))
      .filter((file) => /from\s+['"]jexl['"]|import\(\s*['"]jexl['"]\s*\)|require\(\s*['"]jexl['"]\s*\)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(REPO_ROOT, file));
    expect(importers).toEqual([join('workflows', 'jexl-adapter.ts')]);
  });
});

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
