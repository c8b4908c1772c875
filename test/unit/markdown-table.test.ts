import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { formatMarkdown } from '../../src/report/markdown';
import { inlineText, markdownTable, type Column } from '../../src/report/markdownTable';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

interface Row {
  name: string;
  us: number;
}

const COLUMNS: Column<Row>[] = [
  { header: 'Name', cell: (row) => row.name },
  { header: 'µs | raw', align: 'right', cell: (row) => row.us },
];

test('a table is its columns: header, alignment and every cell, each escaped once', () => {
  assert.deepEqual(
    markdownTable(COLUMNS, [
      { name: 'plain', us: 12 },
      { name: 'a|b\r\nc', us: 3 },
    ]),
    ['| Name | µs \\| raw |', '| --- | ---: |', '| plain | 12 |', '| a\\|b c | 3 |'],
  );
  assert.deepEqual(markdownTable(COLUMNS, []), ['| Name | µs \\| raw |', '| --- | ---: |']);
  assert.equal(inlineText('x|y\nz'), 'x\\|y z');
});

/** A table row's cells: split on the pipes that are not escaped. */
function cellCount(line: string): number {
  return line.split(/(?<!\\)\|/).length - 2;
}

test('every table of a report has as many cells in each row as in its header, whatever the names', async () => {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('tcp', clock, { connectUs: [20_000], queryUs: [1_000] }, new FakeDriverStats()),
    fakeDriver('http', clock, { connectUs: [0], queryUs: [8_000] }, new FakeDriverStats()),
  ]);
  const result = await runPlan(
    plan([target('a|b\nc', 'tcp'), target('http')], { iterations: 10, warmup: 1 }),
    { registry, resolveConnection: async () => 'fake://u:p@h/db', tool: TOOL, clock, watchClient: false },
  );
  const lines = formatMarkdown(result).split('\n');
  const tables: string[][] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('|')) return;
    if (!lines[i - 1]?.startsWith('|')) tables.push([]);
    tables.at(-1)!.push(line);
  });
  assert.ok(
    tables.length >= 4,
    `the report has its statistics, phases and expected-latency tables (${tables.length})`,
  );
  for (const table of tables) {
    const header = cellCount(table[0]!);
    for (const row of table) assert.equal(cellCount(row), header, `${row}\nunder\n${table[0]}`);
  }
  assert.ok(
    lines.some((l) => l.startsWith('| a\\|b c | tcp | tcp | 10 |')),
    'the statistics table escapes the name',
  );
});
