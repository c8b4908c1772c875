/** A catalogue table and its set-ups agree: every row has a set-up and every set-up a row. */
import assert from 'node:assert/strict';

export function assertRowsHaveCases(
  rows: readonly { id: string }[],
  cases: Readonly<Record<string, unknown>>,
): void {
  assert.deepEqual(
    rows.map((r) => r.id).filter((id) => !cases[id]),
    [],
    'rows without a set-up',
  );
  assert.deepEqual(
    Object.keys(cases).filter((id) => !rows.some((r) => r.id === id)),
    [],
    'set-ups without a row',
  );
}
