/**
 * The catalogue's `hang-ups` rows (test/catalogue/hangUpRows.ts), one built-CLI run each. Each row
 * checks its exit code, its one line, no stack trace and no process warning, and, where a report
 * must survive, what it holds.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { RunResult } from '../../src/shared/result';
import { assertRow } from '../catalogue/assertRow';
import { BAD_INPUTS } from '../catalogue/badInputs';
import { configDir, runCli, type CliRun } from '../helpers/cli';
import { runCliOnClosingTerminal } from '../helpers/closingTerminal';

interface Case {
  /** `run` unless said. */
  command?: string;
  args: (dir: string) => string[];
  /** Merged over the base config (one libSQL file target "lite", one initial sample). */
  config?: Record<string, unknown>;
  env?: () => Record<string, string>;
  /** Progress on stderr (no -q). */
  loud?: boolean;
  /** stdin and stdout on a terminal that closes once stderr matches this. */
  hangUpWhen?: RegExp;
  check?: (run: CliRun, dir: string) => void;
}

const CASES: Record<string, () => Case> = {
  'hang-ups.terminal-closed': () => ({
    args: () => ['--kinds', 'subsequent', '--iterations', '1000000', '--format', 'json'],
    loud: true,
    hangUpWhen: /^probing lite \(subsequent\)/m,
    check: (run) => {
      const file = /wrote it to (\S+) instead/.exec(run.stderr)?.[1];
      assert.ok(file, run.stderr);
      const result = JSON.parse(readFileSync(file, 'utf8')) as RunResult;
      rmSync(file);
      assert.equal(result.state, 'cancelled', 'the report says the run was cut');
      assert.ok((result.measurements[0]?.stats.count ?? 0) > 0, 'it holds what was measured');
    },
  }),
};

const ROWS = BAD_INPUTS.filter((r) => r.area === 'hang-ups');

async function runCase(c: Case, cwd: string, env: Record<string, string>): Promise<CliRun> {
  const command = c.command ?? 'run';
  const quiet = command === 'run' && !c.loud ? ['-q'] : [];
  const args = [command, ...quiet, ...c.args(cwd)];
  const when = c.hangUpWhen;
  if (!when) return runCli(args, { cwd, env, timeoutMs: 60_000 });
  let hungUp = false;
  const run = await runCliOnClosingTerminal(args, {
    cwd,
    env,
    onStderr: (seen, hangUp) => {
      if (hungUp || !when.test(seen)) return;
      hungUp = true;
      setTimeout(hangUp, 300);
    },
  });
  assert.ok(hungUp, `the run got under way before the terminal closed:\n${run.stderr}`);
  return run;
}

test('the hang-ups table: one set-up per row, one row per set-up', () => {
  assert.deepEqual(
    ROWS.map((r) => r.id).filter((id) => !CASES[id]),
    [],
    'rows without a set-up',
  );
  assert.deepEqual(
    Object.keys(CASES).filter((id) => !ROWS.some((r) => r.id === id)),
    [],
    'set-ups without a row',
  );
});

describe('hang-ups rows', () => {
  for (const row of ROWS) {
    test(row.id, async () => {
      const make = CASES[row.id];
      assert.ok(make, `a set-up for ${row.id}`);
      const c = make();
      const base = { targets: [{ name: 'lite', driver: 'libsql', connection: 'env:LITE' }] };
      const cwd = configDir({ ...base, kinds: ['initial'], iterations: 1, warmup: 0, ...c.config });
      const run = await runCase(c, cwd, { LITE: `file:${path.join(cwd, 'lite.db')}`, ...c.env?.() });
      const lines = run.stderr
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      assertRow(row, run, lines);
      c.check?.(run, cwd);
    });
  }
});
