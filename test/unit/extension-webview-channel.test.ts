/**
 * One dispatcher per webview (src/extension/panel/webviewChannel.ts): every message type reaches its
 * handler, a message that fails the guard is logged and dropped, and a channel handed over answers
 * with the new handlers only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Log } from '../../src/extension/log';
import { WebviewChannel, type WebviewHandlers } from '../../src/extension/panel/webviewChannel';

const RUN_ID = '11111111-2222-4333-8444-555555555555';

function recorder(name: string, calls: string[]): WebviewHandlers {
  return {
    ready: () => calls.push(`${name}:ready`),
    cancel: () => calls.push(`${name}:cancel`),
    painted: (m) => calls.push(`${name}:painted:${m.view}`),
    progressPainted: () => calls.push(`${name}:progressPainted`),
    intent: (m) => calls.push(`${name}:intent:${m.type}`),
  };
}

function fakeWebview() {
  let receive: (message: unknown) => void = () => undefined;
  let listeners = 0;
  const webview = {
    onDidReceiveMessage: (listener: (message: unknown) => void) => {
      receive = listener;
      listeners += 1;
      return { dispose: () => ((receive = () => undefined), (listeners -= 1)) };
    },
  } as unknown as ConstructorParameters<typeof WebviewChannel>[0];
  return { webview, send: (m: unknown) => receive(m), listeners: () => listeners };
}

test('each webview message reaches its handler; unknown ones are logged and dropped', () => {
  const calls: string[] = [];
  const warnings: string[] = [];
  const log = { warn: (line: string) => warnings.push(line) } as unknown as Log;
  const fake = fakeWebview();
  const channel = new WebviewChannel(fake.webview, recorder('a', calls), log);
  fake.send({ type: 'ready' });
  fake.send({ type: 'cancel' });
  fake.send({ type: 'painted', view: 'run', ms: 1, drawMs: 1, loadMs: 1, targets: 1, sections: 1 });
  fake.send({ type: 'progressPainted' });
  fake.send({ type: 'export', format: 'markdown' });
  fake.send({ type: 'copyMarkdown' });
  fake.send({ type: 'openRun', runId: RUN_ID });
  fake.send({ type: 'openRun', runId: '../../etc/passwd' });
  fake.send({ type: 'nope' });
  assert.deepEqual(calls, [
    'a:ready',
    'a:cancel',
    'a:painted:run',
    'a:progressPainted',
    'a:intent:export',
    'a:intent:copyMarkdown',
    'a:intent:openRun',
  ]);
  assert.equal(warnings.length, 2, 'the bad run id and the unknown type are logged');
  channel.dispose();
  assert.equal(fake.listeners(), 0, 'disposed: nobody listens');
});

test('a channel handed over answers with the new handlers only, one subscription throughout', () => {
  const calls: string[] = [];
  const log = { warn: () => undefined } as unknown as Log;
  const fake = fakeWebview();
  const channel = new WebviewChannel(fake.webview, recorder('live', calls), log);
  fake.send({ type: 'cancel' });
  channel.handTo(undefined);
  fake.send({ type: 'cancel' });
  channel.handTo(recorder('manager', calls));
  fake.send({ type: 'ready' });
  fake.send({ type: 'cancel' });
  assert.deepEqual(calls, ['live:cancel', 'manager:ready', 'manager:cancel']);
  assert.equal(fake.listeners(), 1);
});
