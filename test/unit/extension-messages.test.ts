import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isHostMessage, isPanelState, isRunId, isWebviewMessage } from '../../src/shared/messages';

const RUN_ID = '11111111-2222-4333-8444-555555555555';

test('webview messages the host accepts', () => {
  assert.equal(isWebviewMessage({ type: 'ready' }), true);
  assert.equal(isWebviewMessage({ type: 'copyMarkdown' }), true);
  for (const format of ['markdown', 'json', 'csv'])
    assert.equal(isWebviewMessage({ type: 'export', format }), true);
  assert.equal(isWebviewMessage({ type: 'openRun', runId: RUN_ID }), true);
  assert.equal(
    isWebviewMessage({
      type: 'painted',
      view: 'run',
      ms: 41.2,
      drawMs: 30,
      loadMs: 80,
      targets: 10,
      sections: 7,
    }),
    true,
  );
});

test('webview messages the host refuses', () => {
  for (const bad of [
    null,
    undefined,
    'ready',
    [],
    {},
    { type: 'nope' },
    { type: 'export', format: 'pdf' },
    { type: 'export' },
    // A run id becomes a file name: no paths.
    { type: 'openRun', runId: '../../etc/passwd' },
    { type: 'openRun', runId: 42 },
    { type: 'painted', view: 'run', ms: -1, drawMs: 0, loadMs: 0, targets: 1, sections: 1 },
    { type: 'painted', view: 'run', ms: 1, loadMs: 1, targets: 1, sections: 1 },
    { type: 'painted', view: 'run', ms: 1, drawMs: 1, targets: 1, sections: 1 },
    { type: 'painted', view: 'run', ms: Number.NaN, drawMs: 0, loadMs: 0, targets: 1, sections: 1 },
    { type: 'painted', view: 'elsewhere', ms: 1, drawMs: 0, loadMs: 0, targets: 1, sections: 1 },
    { type: 'painted', view: 'run', ms: '12', drawMs: 0, loadMs: 0, targets: 1, sections: 1 },
  ]) {
    assert.equal(isWebviewMessage(bad), false, JSON.stringify(bad));
  }
});

test('host messages the webview accepts and refuses', () => {
  assert.equal(isHostMessage({ type: 'showRun', model: { runId: RUN_ID } }), true);
  assert.equal(isHostMessage({ type: 'showCompare', model: { a: {}, b: {}, rows: [] } }), true);
  assert.equal(isHostMessage({ type: 'missing', message: 'gone' }), true);
  assert.equal(isHostMessage({ type: 'showRun' }), false);
  assert.equal(isHostMessage({ type: 'showCompare', model: { a: {} } }), false);
  assert.equal(isHostMessage({ type: 'ready' }), false);
});

test('panel state guards what a restored panel may ask for', () => {
  assert.equal(isPanelState({ view: 'run', runId: RUN_ID }), true);
  assert.equal(isPanelState({ view: 'compare', runIds: [RUN_ID, RUN_ID] }), true);
  assert.equal(isPanelState({ view: 'compare', runIds: [RUN_ID] }), false);
  assert.equal(isPanelState({ view: 'run', runId: 'x' }), false);
  assert.equal(isPanelState(undefined), false);
  // Kept while a run was under way: the restored panel waits for its partial result.
  assert.equal(isPanelState({ view: 'run', runId: RUN_ID, running: true }), true);
  assert.equal(isPanelState({ view: 'group', groupId: RUN_ID, running: true }), true);
  assert.equal(isPanelState({ view: 'run', runId: RUN_ID, running: 'yes' }), false);
  assert.equal(isPanelState({ view: 'group', groupId: RUN_ID, running: false }), false);
  assert.equal(isRunId(RUN_ID.toUpperCase()), true);
});
