// Lint rules that hold the architecture (design §2): the engine stays pure, and the
// hooks/ adapter never reaches into the daemon.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The engine is pure by construction (issue #10): time, ids, file contents and the
// environment come in as arguments, so nothing in workflows/ may reach for them.
const PURE = 'workflows/ is the pure engine';

/** The packages workflows/ may import: parsing and validation only, no I/O. */
const ENGINE_PACKAGES = ['zod', 'yaml', 'jexl', 'unbash'];

/** jexl's private API is relied on in one place, so an upgrade has one place to check. */
const JEXL_ADAPTER = 'workflows/jexl-adapter.ts';

const ENGINE_GLOBALS = [
  ...['Date', 'performance'].map((name) => ({ name, message: `${PURE}: time comes in as ctx.now.` })),
  ...['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'clearTimeout', 'clearInterval', 'clearImmediate'].map(
    (name) => ({ name, message: `${PURE}: it is synchronous and schedules nothing; effects go out as data.` }),
  ),
  { name: 'console', message: `${PURE}: no logger; what happened goes out as effects or the decision's \`because\`.` },
  { name: 'process', message: `${PURE}: pass values in through the engine context.` },
  ...['globalThis', 'global', 'window'].map((name) => ({ name, message: `${PURE}: the global object is a back door to everything else forbidden here.` })),
  { name: 'fetch', message: `${PURE}: no network.` },
  { name: 'require', message: `${PURE}: import only itself and ${ENGINE_PACKAGES.join(', ')}.` },
  { name: 'crypto', message: `${PURE}: hashes and ids are computed outside (the catalog hashes definitions) and passed in.` },
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The import fence for files `depth` folders below the repository root: only relative
 * imports that stay inside workflows/ and the engine packages. ESLint cannot resolve a
 * relative path, so climbing out is spotted by counting `../` against the file's depth.
 */
function engineImportRules({ depth, allowJexl }) {
  const builtins = builtinModules.filter((name) => !name.startsWith('node:'));
  const alternatives = (names) => names.map(escape).join('|');
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          ...builtins.map((name) => ({ name, message: `${PURE}: no Node built-ins (no I/O, clock, process or crypto).` })),
          ...(allowJexl ? [] : [{ name: 'jexl', message: `only ${JEXL_ADAPTER} imports jexl: it owns jexl's private API.` }]),
        ],
        // One pattern per reason, written so that an import is reported once.
        patterns: [
          { regex: '^node:', message: `${PURE}: no Node built-ins (no I/O, clock, process or crypto).` },
          {
            regex: '^(\\.\\./)+(daemon|hooks)(/|$)',
            message: 'workflows/ imports only itself: the daemon and hooks depend on the engine, never the reverse.',
          },
          {
            regex: `^(\\.\\./){${depth}}(?!(\\.\\./)*(daemon|hooks)(/|$))`,
            message: 'workflows/ imports only itself: this relative import leaves the folder.',
          },
          {
            regex: `^(?!\\.{1,2}/|node:|(${alternatives([...builtins, ...ENGINE_PACKAGES])})(/|$))`,
            message: `${PURE}: it imports only itself and ${ENGINE_PACKAGES.join(', ')}.`,
          },
        ],
      },
    ],
  };
}

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
      'no-restricted-globals': ['error', ...ENGINE_GLOBALS],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: `${PURE}: ids and randomness come in as arguments.` },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression', message: `${PURE}: no dynamic import; it loads code at run time.` },
        { selector: 'TSImportEqualsDeclaration[moduleReference.type="TSExternalModuleReference"]', message: `${PURE}: use an ES import.` },
      ],
      'no-eval': 'error',
    },
  },
  // The import fence per folder depth; a deeper file gets the deepest rule, which may
  // refuse a legitimate `../../../` but never lets one out of workflows/.
  { files: ['workflows/*.ts'], rules: engineImportRules({ depth: 1, allowJexl: false }) },
  { files: ['workflows/*/*.ts'], rules: engineImportRules({ depth: 2, allowJexl: false }) },
  { files: ['workflows/*/*/**/*.ts'], rules: engineImportRules({ depth: 3, allowJexl: false }) },
  { files: [JEXL_ADAPTER], rules: engineImportRules({ depth: 1, allowJexl: true }) },
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
