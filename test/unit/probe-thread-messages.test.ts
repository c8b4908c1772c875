/** The probe thread protocol's guards: each side trusts only messages of the shapes it knows. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLAN_DEFAULTS } from '../../src/shared/plan';
import { isFromProbeThread, isToProbeThread } from '../../src/shared/probeThreadMessages';

const plan = { ...PLAN_DEFAULTS, targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG' }] };
const start = {
  type: 'start',
  plan,
  connections: {
    pg: { url: 'postgres://127.0.0.1/db' },
    other: { error: { class: 'config', message: 'no' } },
  },
  secrets: [],
  location: { kind: 'local', label: 'this machine' },
};

test('the thread accepts a start and a cancel, and nothing else', () => {
  assert.equal(isToProbeThread(start), true);
  assert.equal(
    isToProbeThread({ ...start, cold: { neonApiKeys: { 'env:K': 'k' }, allowCommands: false } }),
    true,
  );
  assert.equal(isToProbeThread({ type: 'cancel' }), true);
  for (const bad of [
    null,
    'start',
    { type: 'stop' },
    { ...start, plan: undefined },
    { ...start, connections: { pg: { url: 42 } } },
    { ...start, connections: { pg: {} } },
    { ...start, secrets: [1] },
    { ...start, location: {} },
    { ...start, cold: { neonApiKeys: { k: 1 }, allowCommands: true } },
  ])
    assert.equal(isToProbeThread(bad), false, JSON.stringify(bad));
});

test('the editor accepts events, a result and a failure, and nothing else', () => {
  assert.equal(isFromProbeThread({ type: 'events', events: [{ type: 'sample' }, { type: 'done' }] }), true);
  assert.equal(
    isFromProbeThread({ type: 'result', result: { id: 'r', state: 'completed', measurements: [] } }),
    true,
  );
  assert.equal(isFromProbeThread({ type: 'failed', message: 'boom' }), true);
  for (const bad of [
    undefined,
    [],
    { type: 'events', events: [null] },
    { type: 'events', events: {} },
    { type: 'result', result: { id: 'r', state: 'completed' } },
    { type: 'failed' },
    { type: 'log', message: 'x' },
  ])
    assert.equal(isFromProbeThread(bad), false, JSON.stringify(bad));
});
