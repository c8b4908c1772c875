/** The editor's projected figures: the CodeLens and the heartbeat, with dbprobe.appRttMs. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findHeartbeatProjection, projectHeartbeat } from '../../src/extension/heartbeat/heartbeatProjection';
import { describeHeartbeat } from '../../src/extension/heartbeat/heartbeatWindow';
import {
  lensTitles,
  pickFigures,
  withProjection,
  type LensRecord,
} from '../../src/extension/queries/lensText';
import { projectAt, projectTarget } from '../../src/shared/projection';
import { flat, PG, projectedRun } from '../helpers/projectionResult';

const NOW = Date.parse('2025-01-02T03:04:05.678Z');

function record(): LensRecord {
  const result = projectedRun([PG]);
  const figures = withProjection(pickFigures('pg', result.measurements)!, result.measurements);
  return { runId: result.id, at: result.startedAt, targets: [figures] };
}

test('CodeLens: the p50 here and the projection at the app RTT, equal to projectAt', () => {
  const r = record();
  // pg subsequent: p50 300 µs, floor 100 µs, 1 turn: local 200 µs; at 3 ms, 3.2 ms.
  assert.deepEqual(r.targets[0]?.projection, { localUs: 200, turns: 1 });
  const result = projectedRun([PG]);
  const parts = projectTarget(result.measurements, 'pg');
  assert.ok(!('reason' in parts) && parts.subsequent);
  assert.equal(projectAt(parts.subsequent, 3_000), 3_200);
  assert.deepEqual(lensTitles(r, NOW, 3), [
    'p50 0.3 ms here · ≈ 3.2 ms from your app (3 ms RTT) / p99 0.6 ms on pg, just now',
  ]);
  assert.deepEqual(lensTitles(r, NOW), ['p50 0.3 ms / p99 0.6 ms on pg, just now'], 'no setting: as before');
});

test('CodeLens: a run without counted round trips shows the measured figure only', () => {
  const result = projectedRun([
    { ...PG, initial: { samplesUs: flat(2_000) }, subsequent: { samplesUs: flat(300) } },
  ]);
  const figures = withProjection(pickFigures('pg', result.measurements)!, result.measurements);
  assert.equal(figures.projection, undefined);
  assert.deepEqual(lensTitles({ runId: 'x', at: result.startedAt, targets: [figures] }, NOW, 3), [
    'p50 0.3 ms / p99 0.6 ms on pg, just now',
  ]);
});

test('heartbeat: turns and floor from the newest local run that counted them; the text shows both figures', async () => {
  const counted = projectedRun([PG]);
  const bare = projectedRun([{ ...PG, subsequent: { samplesUs: flat(300) } }]);
  const runs = [
    {
      id: 'old',
      startedAt: '2025-01-01T00:00:00Z',
      locationKind: 'local' as const,
      targets: [{ name: 'pg' }],
    },
    {
      id: 'remote',
      startedAt: '2025-01-03T00:00:00Z',
      locationKind: 'runner' as const,
      targets: [{ name: 'pg' }],
    },
    { id: 'new', startedAt: '2025-01-02T00:00:00Z', targets: [{ name: 'pg' }] },
  ];
  const loaded: string[] = [];
  const found = await findHeartbeatProjection('pg', runs, async (id) => {
    loaded.push(id);
    return id === 'new' ? bare : counted;
  });
  assert.deepEqual(loaded, ['new', 'old'], 'newest local first; a runner is another path');
  assert.deepEqual(found, { turns: 1, floorUs: 100, runId: 'old' });
  // The heartbeat's own p50 (450 µs) projects with those: 450 - 100 + 1 x 3,000.
  const us = projectHeartbeat(450, found!, 3);
  assert.equal(us, 3_350);
  const { text, tooltip } = describeHeartbeat(
    { name: 'pg', driver: 'pg' },
    { count: 5, errors: 0, p50Us: 450, level: 'ok' },
    { intervalSeconds: 30, warnAboveMs: 100 },
    { projected: { us, appRttMs: 3, turns: 1, floorUs: 100 } },
  );
  // The app's RTT as the user set it (dbprobe.appRttMs = 3), beside the figure projected there.
  assert.equal(text, '$(pulse) pg 0.5 ms here · ≈ 3.4 ms from your app (3 ms RTT)');
  assert.match(tooltip, /At your app \(dbprobe\.appRttMs = 3 ms\): ≈ 3\.4 ms/);
});
