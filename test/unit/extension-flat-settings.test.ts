/**
 * The editor's flat settings and "Probe This Query" under the cursor: a flat setting the user set
 * wins over an object in the old form, which still works; an empty field leaves the kind's default;
 * the statement under a cursor is the one whose range holds it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildPlan, sectionValue } from '../../src/extension/config/planSettings';
import { statementAt } from '../../src/extension/editorContext/statementAt';
import { findStatements } from '../../src/extension/queries/statements';

const targets = [{ name: 'a', driver: 'pg', connection: 'env:A' }];

test("a section: VS Code's value (defaults, an old-style object merged in), then explicit flat fields", () => {
  // What VS Code answers for `dbprobe.timeouts` with the flat defaults and an object in settings.json.
  const configured = { connectMs: 5_000, queryMs: 10_000, runMs: 900_000 };
  assert.deepEqual(sectionValue(configured, {}), configured, 'the old object form still sets it');
  assert.deepEqual(sectionValue(configured, { connectMs: 2_000 }), { ...configured, connectMs: 2_000 });
  // Empty (null) flat fields are left out, so the kind's own defaults apply.
  const load = { model: null, levels: null, durationS: 5, connections: null, maxErrorRate: null };
  assert.deepEqual(sectionValue(load, {}), { durationS: 5 });
  assert.deepEqual(sectionValue(undefined, {}), {});
  assert.deepEqual(sectionValue('not an object', { model: 'open' }), { model: 'open' });
});

test('an all-empty load section leaves the plan without load settings; one field reaches it', () => {
  const empty = sectionValue({ model: null, levels: null, durationS: null }, {});
  const plain = buildPlan(targets, ['initial'], { load: empty }, undefined, ['pg']);
  assert.ok(plain.ok);
  assert.equal(plain.plan.load, undefined);
  const open = buildPlan(
    targets,
    ['load'],
    { load: sectionValue({ model: null }, { model: 'open' }) },
    undefined,
    ['pg'],
  );
  assert.ok(open.ok);
  assert.equal(open.plan.load?.model, 'open');
  assert.deepEqual(open.plan.load?.levels, [10, 100, 1000], "the open model's own levels");
});

test('the statement under the cursor, as the CodeLens finds them', () => {
  const text = 'SELECT 1;\n\nSELECT name FROM users WHERE id = 1;\n';
  const { statements } = findStatements(text, 'sql');
  assert.equal(statements.length, 2);
  const second = text.indexOf('name');
  assert.equal(statementAt(statements, second)?.text, statements[1]!.text);
  assert.equal(statementAt(statements, 0)?.text, statements[0]!.text);
  // Between the two statements (the blank line) there is none.
  assert.equal(statementAt(statements, text.indexOf('\n\n') + 1), undefined);
  assert.equal(statementAt([], 3), undefined);
});
