import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { assertNever } from '../../src/shared/assertNever';
import type { HostMessage } from '../../src/shared/messages';
import { acceptHostMessages } from '../../webview/hostMessages';

const RUN_ID = '11111111-2222-4333-8444-555555555555';
const SENTINEL = 'hunter2-sentinel';

function door() {
  const handled: HostMessage[] = [];
  const warnings: string[] = [];
  const receive = acceptHostMessages(
    (message) => handled.push(message),
    (line) => warnings.push(line),
  );
  return { handled, warnings, receive };
}

test('the panel draws a message that passes the guard', () => {
  const { handled, warnings, receive } = door();
  const message = { type: 'missing', message: 'gone' };
  assert.equal(receive(message), true);
  assert.deepEqual(handled, [message]);
  assert.deepEqual(warnings, []);
});

test('the panel drops malformed host messages without throwing, and says so once', () => {
  const { handled, warnings, receive } = door();
  const malformed: unknown[] = [
    null,
    undefined,
    'showRun',
    42,
    [],
    {},
    { type: 'showRun' },
    { type: 'showRun', model: { runId: 7 } },
    { type: 'showCompare', model: { a: {} } },
    { type: 'showGroup', model: { groupId: RUN_ID, places: [], rows: 'x', details: [] } },
    { type: 'missing', message: { secret: SENTINEL } },
    { type: 'showChart', password: SENTINEL },
    { type: 'ready' },
  ];
  for (const data of malformed) assert.equal(receive(data), false, JSON.stringify(data));
  assert.deepEqual(handled, [], 'nothing malformed reached the drawing code');
  assert.equal(warnings.length, 1, 'one console line, not one per message');
  assert.match(warnings[0] ?? '', /does not understand/);
  // A valid message after the drops is still drawn.
  assert.equal(receive({ type: 'showRun', model: { runId: RUN_ID } }), true);
  assert.equal(handled.length, 1);
});

test('the console line names only the message type, bounded, never its contents', () => {
  const { warnings, receive } = door();
  receive({ type: `x${'y'.repeat(500)}`, model: { connection: `postgres://u:${SENTINEL}@h/db` } });
  assert.equal(warnings.length, 1);
  assert.ok(!warnings[0]?.includes(SENTINEL));
  assert.ok((warnings[0]?.length ?? 0) < 200, warnings[0]);
});

test('the panel script sends every window message through the guard', () => {
  const main = readFileSync(path.join(__dirname, '../../webview/main.ts'), 'utf8');
  assert.match(main, /acceptHostMessages\(show\)/);
  assert.doesNotMatch(main, /as HostMessage/, 'no cast around the guard');
});

/** Every host message type has a case: the compiler proves it through assertNever. */
function describeAll(message: HostMessage): string {
  switch (message.type) {
    case 'showRun':
      return message.model.runId;
    case 'evidence':
      return message.runId;
    case 'showCompare':
      return 'compare';
    case 'showGroup':
      return message.model.groupId;
    case 'missing':
      return message.message;
    case 'progress':
      return message.model.title;
    default:
      return assertNever(message, 'host message');
  }
}

/** 'missing' has no case: `message` is not `never` at the default, which `npm run check` must reject. */
function describeSome(message: HostMessage): string {
  switch (message.type) {
    case 'showRun':
    case 'showCompare':
    case 'showGroup':
      return message.type;
    default:
      // @ts-expect-error -- a missing case is a type error; remove this line and typecheck fails
      return assertNever(message, 'host message');
  }
}

test('assertNever: exhaustive switches compile, and a value outside the union throws', () => {
  assert.equal(describeAll({ type: 'missing', message: 'gone' }), 'gone');
  assert.throws(() => describeSome({ type: 'missing', message: 'gone' }), /unexpected host message/);
  const forged = { type: 'newerHostType' } as unknown as HostMessage;
  assert.throws(() => describeAll(forged), /unexpected host message: \{"type":"newerHostType"\}/);
});
