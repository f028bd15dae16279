// Lint rules that hold the architecture (design §2): the engine stays pure, and the
// hooks/ adapter never reaches into the daemon.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const IMPURE_MODULES = [
  'fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'path', 'node:path', 'child_process', 'node:child_process',
  'http', 'node:http', 'net', 'node:net', 'os', 'node:os', 'process', 'node:process',
  'better-sqlite3', 'fastify', 'pino', 'chokidar',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: IMPURE_MODULES.map((name) => ({ name, message: 'workflows/ is the pure engine: no I/O, no clock, no process.' })),
          patterns: [{ group: ['../daemon/*', '../hooks/*', '../../*'], message: 'workflows/ imports only itself.' }],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'workflows/ is pure: pass values in.' },
        { name: 'fetch', message: 'workflows/ is pure: no network.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'workflows/ is pure: time comes in as ctx.now.' },
        { object: 'Math', property: 'random', message: 'workflows/ is pure: ids and randomness come in as arguments.' },
      ],
    },
  },
  {
    files: ['hooks/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../daemon/*'], message: 'hooks/ may import workflows/ types only, never daemon/.' }] },
      ],
    },
  },
);
