/** The checks every catalogue row makes on a CLI run: its exit code, its one line, nothing else loud. */
import assert from 'node:assert/strict';
import type { CliRun } from '../helpers/cli';
import type { BadInput } from './badInputs';

/** No stack trace, no unhandled rejection, no "unexpected error" catch-all, in any output. */
export function assertQuiet(run: CliRun): void {
  for (const text of [run.stdout, run.stderr]) {
    assert.doesNotMatch(text, /^\s+at /m, `a stack trace:\n${text}`);
    assert.doesNotMatch(text, /unhandled|UnhandledPromiseRejection|unexpected error/i, text);
  }
}

/** The row's line, exactly once among the CLI's `dbprobe:` lines, or none when the row expects none. */
export function assertRowLine(row: BadInput, run: CliRun, lines: string[]): void {
  if (row.line.source === '^$') {
    assert.deepEqual(lines, [], `no line expected for ${row.id}:\n${run.stderr}`);
    return;
  }
  const matching = lines.filter((line) => row.line.test(line));
  assert.equal(
    matching.length,
    1,
    `${row.id}: one line matching ${row.line}\nlines:\n${lines.join('\n')}\nstderr:\n${run.stderr}`,
  );
}

export function assertRow(row: BadInput, run: CliRun, lines: string[]): void {
  assert.equal(run.code, row.exit, `${row.id}: exit code\n${run.stderr}`);
  assertRowLine(row, run, lines);
  assertQuiet(run);
}
