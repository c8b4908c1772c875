// Lint rules that keep the rooms of docs/architecture.md apart, each with a message saying why.
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

// Rooms are matched with `**` so the depth of a file inside its room changes nothing: a file in
// src/core/a/b/ is held to the same rules as one in src/core/ (test/unit/lint-rooms.test.ts checks).
const room = (names) => names.flatMap((name) => [`**/${name}`, `**/${name}/**`]);
const nodeBuiltins = (message) =>
  NODE_BUILTINS.flatMap((m) => [
    { name: m, message },
    { name: `node:${m}`, message },
  ]);

/** One no-restricted-imports block per room (the TypeScript variant, so type-only imports can be allowed). */
function roomRule(files, { paths = [vscodeOnlyInExtension], patterns = [] }) {
  return {
    files,
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }],
    },
  };
}

const CALLERS_AND_VIEWS = {
  group: room(['cli', 'extension', 'runner', 'places', 'report']),
  message: 'The engine depends on no caller or view: they depend on it.',
};

export default tseslint.config(
  { ignores: ['**/dist/**', 'node_modules/**', 'test/e2e/.work/**', 'test-results/**', '**/*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A promise nobody awaits loses its error (an unhandled rejection ends the CLI, hides a failed
      // save in the extension); a promise where a boolean or void callback is expected never runs.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test collects these itself and reports their failures.
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'todo'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      'no-restricted-imports': ['error', { paths: [vscodeOnlyInExtension] }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  // The engine: pure, knows no driver, caller or view; sockets belong to drivers (types only here).
  roomRule(['src/core/**'], {
    paths: [
      vscodeOnlyInExtension,
      ...['net', 'tls', 'node:net', 'node:tls'].map((name) => ({
        name,
        allowTypeImports: true,
        message: 'No sockets in the engine: drivers open them (the engine may name the Socket type).',
      })),
    ],
    patterns: [
      { group: room(['drivers']), message: 'src/core knows no driver by name: take a DriverRegistry.' },
      {
        group: DRIVER_PACKAGES,
        message: 'src/core knows no driver by name: npm clients belong in src/drivers/.',
      },
      CALLERS_AND_VIEWS,
    ],
  }),
  roomRule(['src/drivers/**'], {
    patterns: [
      {
        group: room(['cli', 'extension', 'runner', 'places', 'report']),
        message: 'Drivers know nothing of the CLI, VS Code, the runner or reports.',
      },
    ],
  }),
  // Reporters are pure formatters of shared types: no I/O, no engine, no driver.
  roomRule(['src/report/**'], {
    paths: [vscodeOnlyInExtension, ...nodeBuiltins('Formatters never do I/O: the caller prints or writes.')],
    patterns: [
      {
        group: room(['core', 'drivers', 'cli', 'extension', 'runner', 'places']),
        message: 'Formatters are pure: they import only src/shared (and each other).',
      },
      {
        group: DRIVER_PACKAGES,
        message: 'Formatters are pure: they import only src/shared (and each other).',
      },
      { group: ['node:*'], message: 'Formatters never do I/O: the caller prints or writes.' },
    ],
  }),
  roomRule(['src/shared/**'], {
    patterns: [
      {
        group: room(['core', 'drivers', 'cli', 'extension', 'runner', 'places', 'report']),
        message: 'src/shared holds types that cross boundaries; it depends on nothing else in src.',
      },
    ],
  }),
  // Callers: the CLI, the runner and the shared "places" run without VS Code and apart from each other.
  roomRule(['src/cli/**'], {
    patterns: [{ group: room(['extension']), message: 'The CLI runs without VS Code.' }],
  }),
  roomRule(['src/runner/**'], {
    patterns: [{ group: room(['extension', 'cli']), message: 'The runner runs alone: no VS Code, no CLI.' }],
  }),
  roomRule(['src/places/**'], {
    patterns: [
      {
        group: room(['extension', 'cli', 'runner', 'drivers', 'report']),
        message:
          'Places serve both the CLI and the extension: they take a DriverRegistry and import no caller, driver, server or view.',
      },
    ],
  }),
  // The probe thread: the engine and the drivers in a worker the extension starts; no VS Code (there is
  // none in a worker thread), no other caller.
  roomRule(['src/probeThread/**'], {
    patterns: [
      {
        group: room(['extension', 'cli', 'runner', 'report']),
        message:
          'The probe thread runs the engine with its drivers and answers in messages (src/shared/probeThreadMessages.ts): it imports no caller or view.',
      },
    ],
  }),
  // Making a database cold (Neon's API, an idle wait, a command): used by the CLI, the probe thread
  // and the extension alike, so it builds on the engine only.
  roomRule(['src/cold/**'], {
    patterns: [
      {
        group: room(['extension', 'cli', 'runner', 'places', 'report', 'drivers', 'probeThread']),
        message:
          'src/cold makes a database cold for the CLI, the probe thread and the extension: it imports only src/core and src/shared.',
      },
      {
        group: DRIVER_PACKAGES,
        message: 'src/cold knows no driver: it reaches a provider by its API or a command.',
      },
    ],
  }),
  // The extension may import vscode, but not the CLI (both are callers of the engine).
  roomRule(['src/extension/**'], {
    paths: [],
    patterns: [
      { group: room(['cli']), message: 'The extension and the CLI are separate callers of the engine.' },
    ],
  }),
  // ... except its pure folders, which are tested without VS Code.
  roomRule(['src/extension/model/**'], {
    paths: [
      {
        name: 'vscode',
        message: 'src/extension/model/ is pure (view models built from results, tested without VS Code).',
      },
    ],
    patterns: [
      { group: room(['cli']), message: 'The extension and the CLI are separate callers of the engine.' },
    ],
  }),
  {
    files: ['webview/**'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: {
        projectService: false,
        project: ['webview/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [vscodeOnlyInExtension, ...nodeBuiltins('The webview runs in a browser: no Node modules.')],
          patterns: [
            {
              regex: '^(\\.\\./)+src/(?!shared/)',
              message: 'The webview imports only types and pure helpers from src/shared.',
            },
            { group: ['node:*'], message: 'The webview runs in a browser: no Node modules.' },
          ],
        },
      ],
    },
  },
);
