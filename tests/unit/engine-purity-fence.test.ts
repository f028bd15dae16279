// The engine is pure by construction: eslint refuses, in workflows/, every way to reach the
// clock, timers, the console, the process, the global object, the network, crypto and
// Node's built-in modules, and every import that leaves the folder. Each snippet is linted
// as if it were a file in workflows/, through the project's own eslint.config.js.
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './engine-test-helpers.js';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: REPO_ROOT });
});

async function lint(code: string, filePath = 'workflows/x.ts'): Promise<{ rule: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath });
  if (!result) throw new Error('eslint returned no result');
  return result.messages.filter((message) => message.severity === 2).map((message) => ({ rule: message.ruleId, message: message.message }));
}

const FORBIDDEN: readonly (readonly [snippet: string, rule: string])[] = [
  // the clock
  ['export const at = new Date();', 'no-restricted-globals'],
  ['export const at = Date.now();', 'no-restricted-globals'],
  ['export const at = Date();', 'no-restricted-globals'],
  ['export const at = performance.now();', 'no-restricted-globals'],
  // timers
  ['setTimeout(() => undefined, 1);', 'no-restricted-globals'],
  ['setInterval(() => undefined, 1);', 'no-restricted-globals'],
  ['setImmediate(() => undefined);', 'no-restricted-globals'],
  ['queueMicrotask(() => undefined);', 'no-restricted-globals'],
  // the logger, the process, the global object
  ["console.log('decided');", 'no-restricted-globals'],
  ['export const home = process.env.HOME;', 'no-restricted-globals'],
  ['export const home = globalThis.process.env.HOME;', 'no-restricted-globals'],
  ['export const g = global;', 'no-restricted-globals'],
  ['export const w = window;', 'no-restricted-globals'],
  // randomness, the network, CommonJS, Web Crypto
  ['export const id = Math.random();', 'no-restricted-properties'],
  ["export const page = fetch('http://127.0.0.1');", 'no-restricted-globals'],
  ["export const fs = require('node:fs');", 'no-restricted-globals'],
  ['export const id = crypto.randomUUID();', 'no-restricted-globals'],
  ["export const run = eval('1');", 'no-eval'],
  // Node built-ins, bare and with the node: prefix, static, dynamic and TypeScript's require
  ["import { createHash } from 'node:crypto';\nexport const h = createHash;", 'no-restricted-imports'],
  ["import { readFileSync } from 'fs';\nexport const r = readFileSync;", 'no-restricted-imports'],
  ["import { readFile } from 'fs/promises';\nexport const r = readFile;", 'no-restricted-imports'],
  ["import { join } from 'path';\nexport const j = join;", 'no-restricted-imports'],
  ["import { test } from 'node:test';\nexport const t = test;", 'no-restricted-imports'],
  ["import { hrtime } from 'node:process';\nexport const t = hrtime;", 'no-restricted-imports'],
  ["export { hrtime } from 'process';", 'no-restricted-imports'],
  ["export const load = () => import('node:fs');", 'no-restricted-syntax'],
  ["import fs = require('fs');\nexport const f = fs;", 'no-restricted-syntax'],
  // the layers above the engine, and anything else outside workflows/
  ["import { openDatabase } from '../daemon/store/database.js';\nexport const o = openDatabase;", 'no-restricted-imports'],
  ["import type { HookPayload } from '../hooks/payloads.js';\nexport type P = HookPayload;", 'no-restricted-imports'],
  ["export * from '../daemon/errors.js';", 'no-restricted-imports'],
  ["import { T0 } from '../tests/unit/engine-test-helpers.js';\nexport const t = T0;", 'no-restricted-imports'],
  // packages that do I/O, and jexl outside its adapter
  ["import pino from 'pino';\nexport const p = pino;", 'no-restricted-imports'],
  ["import fastify from 'fastify';\nexport const f = fastify;", 'no-restricted-imports'],
  ["import jexl from 'jexl';\nexport const j = jexl;", 'no-restricted-imports'],
];

describe('the workflows/ purity fence', () => {
  it.each(FORBIDDEN)('refuses %j', async (snippet, rule) => {
    const errors = await lint(snippet);
    expect(errors.map((error) => error.rule), JSON.stringify(errors)).toContain(rule);
  });

  it('lets a pure module through: itself, zod, yaml and unbash, the standard library', async () => {
    const clean = [
      "import { z } from 'zod';",
      "import { parseDocument } from 'yaml';",
      "import { parse } from 'unbash';",
      "import { canonicalToolName } from './tool-names.js';",
      'export const schema = z.object({ at: z.number() });',
      'export const read = (text: string) => parseDocument(text).toJS();',
      'export const words = (command: string) => parse(command);',
      'export const name = (tool: string) => canonicalToolName(tool);',
      'export const elapsed = (now: number, since: number) => Math.max(0, Math.floor((now - since) / 1000));',
      "export const when = (at: number) => new Intl.NumberFormat('en').format(at);",
      'export const entries = (map: ReadonlyMap<string, number>) => JSON.stringify([...map.entries()]);',
    ].join('\n');
    expect(await lint(clean)).toEqual([]);
  });

  it('lets the jexl adapter, and only it, import jexl', async () => {
    const snippet = "import jexlModule from 'jexl';\nexport const jexl = new jexlModule.Jexl();";
    expect(await lint(snippet, 'workflows/jexl-adapter.ts')).toEqual([]);
    expect(await lint(snippet, 'workflows/expressions.ts')).not.toEqual([]);
    expect(await lint(snippet, 'workflows/shell/parse.ts')).not.toEqual([]);
  });

  it('holds in sub-folders: a relative import may move within workflows/ but not out of it', async () => {
    const file = 'workflows/shell/classify.ts';
    expect(await lint("import { canonicalToolName } from '../tool-names.js';\nexport const c = canonicalToolName;", file)).toEqual([]);
    expect(await lint("import { parse } from 'unbash';\nexport const p = parse;", file)).toEqual([]);
    for (const outside of ['../../daemon/errors.js', '../../hooks/render.js', '../../tests/unit/engine-test-helpers.js']) {
      const errors = await lint(`import { x } from '${outside}';\nexport const y = x;`, file);
      expect(errors.map((error) => error.rule), outside).toContain('no-restricted-imports');
    }
    expect((await lint('export const at = Date.now();', file)).map((error) => error.rule)).toContain('no-restricted-globals');
  });

  it('applies to the engine only: the daemon may read the clock', async () => {
    expect(await lint('export const at = Date.now();', 'daemon/clock.ts')).toEqual([]);
  });
});
