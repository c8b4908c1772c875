// Lint rules that keep the rooms of DESIGN.md apart, each with a message saying why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { createRequire } from 'node:module';

const { driverPackagePatterns } = createRequire(import.meta.url)('./scripts/build/driverCatalog.cjs');

const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'readline',
  'stream',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];
// Derived from the driver catalog (src/drivers/catalog.ts), the single source of driver ids.
const DRIVER_PACKAGES = driverPackagePatterns();

const vscodeOnlyInExtension = {
  name: 'vscode',
  message: 'Only src/extension/ may import vscode: the engine runs the same in the CLI and the runner.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/e2e/.work/**', 'test-results/**', '**/*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [vscodeOnlyInExtension] }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/extension/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [vscodeOnlyInExtension],
          patterns: [
            {
              group: ['../drivers/*', '../drivers'],
              message: 'src/core knows no driver by name: take a DriverRegistry.',
            },
            {
              group: DRIVER_PACKAGES,
              message: 'src/core knows no driver by name: npm clients belong in src/drivers/.',
            },
            {
              group: ['../cli/*', '../extension/*', '../runner/*', '../report/*'],
              message: 'The engine depends on no caller or view.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/drivers/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [vscodeOnlyInExtension],
          patterns: [
            {
              group: ['../cli/*', '../extension/*', '../runner/*', '../report/*'],
              message: 'Drivers know nothing of the CLI, VS Code, the runner or reports.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/report/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            vscodeOnlyInExtension,
            ...NODE_BUILTINS.flatMap((m) => [
              { name: m, message: 'Formatters never do I/O: the caller prints or writes.' },
              { name: `node:${m}`, message: 'Formatters never do I/O: the caller prints or writes.' },
            ]),
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [vscodeOnlyInExtension],
          patterns: [
            {
              group: [
                '../core/*',
                '../drivers/*',
                '../cli/*',
                '../extension/*',
                '../runner/*',
                '../report/*',
              ],
              message: 'src/shared holds types that cross boundaries; it depends on nothing else in src.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['webview/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            vscodeOnlyInExtension,
            ...NODE_BUILTINS.flatMap((m) => [
              { name: m, message: 'The webview runs in a browser: no Node modules.' },
              { name: `node:${m}`, message: 'The webview runs in a browser: no Node modules.' },
            ]),
          ],
          patterns: [
            {
              regex: '^(\\.\\./)+src/(?!shared/)',
              message: 'The webview imports only types from src/shared.',
            },
            { group: ['node:*'], message: 'The webview runs in a browser: no Node modules.' },
          ],
        },
      ],
    },
  },
);
