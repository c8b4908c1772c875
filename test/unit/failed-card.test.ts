/**
 * A target with no successful sample explains itself on its panel card (error
 * class, first message as the engine redacted it, hint), as the Markdown's Errors list already does.
 * Through the view model: webview/targetCard.ts renders exactly `kinds[].failure`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { formatMarkdown } from '../../src/report/markdown';
import { Redactor } from '../../src/shared/redact';
import { fakeResult } from '../helpers/extensionRunResult';

const SECRET = 'postgres://probe:hunter2-secret@127.0.0.1:1/app';

function failedRun() {
  const result = fakeResult(
    [
      { name: 'pg', driver: 'pg', transport: 'tcp' },
      { name: 'down', driver: 'pg', transport: 'tcp' },
    ],
    [
      { target: 'pg', kind: 'initial', p50Us: 4000 },
      { target: 'down', kind: 'initial', p50Us: 0, samplesUs: [], errors: 3 },
    ],
  );
  // The engine keeps each failure's message redacted (one path: src/shared/redact.ts).
  const redactor = new Redactor().addSecret(SECRET);
  const down = result.measurements.find((m) => m.target === 'down');
  assert.ok(down);
  down.firstErrors = [
    {
      class: 'refused',
      message: redactor.redact(`connect ECONNREFUSED 127.0.0.1:1 (${SECRET})`),
      hint: 'Is the server running and listening on that port?',
    },
    { class: 'timeout', message: 'a later, different failure', hint: 'not the first' },
  ];
  return result;
}

test('a card with no successful sample shows its first error class, redacted message and hint', () => {
  const result = failedRun();
  const card = buildRunViewModel(result).cards.find((c) => c.target === 'down');
  const kind = card?.kinds.find((k) => k.kind === 'initial');
  assert.equal(kind?.count, 0);
  assert.ok(kind?.failure, 'the failed kind carries a failure for the card to render');
  assert.equal(kind.failure.errorClass, 'refused');
  assert.match(kind.failure.message, /^connect ECONNREFUSED 127\.0\.0\.1:1 /);
  assert.doesNotMatch(kind.failure.message, /hunter2/);
  assert.equal(kind.failure.hint, 'Is the server running and listening on that port?');
  // The same first error as the Markdown's Errors list names.
  const markdown = formatMarkdown(result);
  assert.ok(markdown.includes(`${kind.failure.errorClass}: ${kind.failure.message}`), markdown);
  assert.ok(markdown.includes(kind.failure.hint));
});

test('a card whose kind has successful samples carries no failure note', () => {
  const card = buildRunViewModel(failedRun()).cards.find((c) => c.target === 'pg');
  assert.equal(card?.kinds[0]?.failure, undefined);
});
