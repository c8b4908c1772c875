/** docs/bad-inputs.md and the catalogue's data table (test/catalogue/badInputs.ts) name the same rows. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { BAD_INPUTS } from '../catalogue/badInputs';

const DOC = path.resolve(__dirname, '../../docs/bad-inputs.md');

function docIds(): string[] {
  const text = readFileSync(DOC, 'utf8');
  return text
    .split('\n')
    .map((line) => /^\| `([a-z0-9.-]+)`\s*\|/.exec(line)?.[1])
    .filter((id): id is string => id !== undefined);
}

test('every row of docs/bad-inputs.md is in the data table, and every table row is in the doc', () => {
  const inDoc = docIds();
  const inTable = BAD_INPUTS.map((r) => r.id);
  assert.ok(inDoc.length > 100, `the doc lists the catalogue (${inDoc.length} rows)`);
  assert.deepEqual(
    inDoc.filter((id) => !inTable.includes(id)),
    [],
    'doc rows missing from the table',
  );
  assert.deepEqual(
    inTable.filter((id) => !inDoc.includes(id)),
    [],
    'table rows missing from the doc: run node --import tsx test/catalogue/writeDoc.ts',
  );
});

test('row ids are unique and every row says what to do', () => {
  const ids = BAD_INPUTS.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'unique ids');
  for (const row of BAD_INPUTS) assert.ok(row.todo.trim().length > 10, `${row.id} says what to do`);
});
