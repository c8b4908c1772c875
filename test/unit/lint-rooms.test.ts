/**
 * The rooms' boundaries are enforced by the linter, at any depth inside a room: throw-away files that
 * cross a boundary must fail lint with the rule's message, and the rooms as they are must pass.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const root = path.resolve(__dirname, '..', '..');

interface Crossing {
  file: string;
  source: string;
  message: RegExp;
}

const CROSSINGS: Crossing[] = [
  {
    file: 'src/core/deep/x.ts',
    source: "import { pgDriver } from '../../drivers/pg';\nexport const x = pgDriver;\n",
    message: /src\/core knows no driver by name/,
  },
  {
    file: 'src/core/deep/y.ts',
    source: "import { connect } from 'node:net';\nexport const y = connect;\n",
    message: /No sockets in the engine/,
  },
  {
    file: 'src/report/x.ts',
    source: "import { runPlan } from '../core/engine';\nexport const x = runPlan;\n",
    message: /Formatters are pure/,
  },
  {
    file: 'src/cli/x.ts',
    source: "import * as vscode from 'vscode';\nexport const x = vscode.version;\n",
    message: /Only src\/extension\/ may import vscode/,
  },
  {
    file: 'src/runner/x.ts',
    source: "import * as vscode from 'vscode';\nexport const x = vscode.version;\n",
    message: /Only src\/extension\/ may import vscode/,
  },
  {
    file: 'src/probeThread/deep/x.ts',
    source: "import { Log } from '../../extension/log';\nexport const x = Log;\n",
    message: /The probe thread runs the engine with its drivers/,
  },
  {
    file: 'src/probeThread/y.ts',
    source: "import * as vscode from 'vscode';\nexport const y = vscode.version;\n",
    message: /Only src\/extension\/ may import vscode/,
  },
  {
    file: 'src/cold/deep/x.ts',
    source: "import { Log } from '../../extension/log';\nexport const x = Log;\n",
    message: /src\/cold makes a database cold/,
  },
  {
    file: 'src/cold/y.ts',
    source: "import { pgDriver } from '../drivers/pg';\nexport const y = pgDriver;\n",
    message: /src\/cold makes a database cold/,
  },
  {
    file: 'src/cold/z.ts',
    source: "import * as vscode from 'vscode';\nexport const z = vscode.version;\n",
    message: /Only src\/extension\/ may import vscode/,
  },
  {
    file: 'src/extension/model/x.ts',
    source: "import * as vscode from 'vscode';\nexport const x = vscode.version;\n",
    message: /src\/extension\/model\/ is pure/,
  },
];

/**
 * Linted as text at the crossing's path (the rooms' rules match by path), so nothing is written into
 * src/ where a test running beside this one (unique base names, import cycles) would see it. Type
 * information is left out: the room rules are `no-restricted-imports`, which needs none, and building
 * the typed program for every room took most of this test's time (`npm run lint` keeps the typed rules).
 */
const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });

test('a file that crosses a room boundary fails lint with the rule message', async () => {
  for (const crossing of CROSSINGS) {
    const [result] = await eslint.lintText(crossing.source, { filePath: path.join(root, crossing.file) });
    assert.ok(result, `${crossing.file} was linted`);
    const messages = result.messages.map((m) => `${m.ruleId ?? ''}: ${m.message}`);
    assert.ok(
      messages.some((m) => /no-restricted-imports/.test(m) && crossing.message.test(m)),
      `${crossing.file} must fail with ${crossing.message}; got ${JSON.stringify(messages)}`,
    );
  }
});

test('the rooms as they are pass lint: the rules do not catch what they allow', async () => {
  const clean = await eslint.lintFiles([
    'src/core',
    'src/report',
    'src/cli',
    'src/runner',
    'src/probeThread',
    'src/cold',
    'src/extension/model',
  ]);
  const errors = clean.flatMap((r) =>
    r.messages.map((m) => `${path.relative(root, r.filePath)}: ${m.ruleId ?? ''}: ${m.message}`),
  );
  assert.deepEqual(errors, [], 'the rooms pass lint');
});
