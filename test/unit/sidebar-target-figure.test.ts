/**
 * The Targets view's figure at 270 px: it names its kind, and with where the app runs set it comes
 * first at the app (the projection every view uses), then here; appRttMs 0 is here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { locationOfRtt } from '../../src/extension/queries/appLocation';
import { targetFigure } from '../../src/extension/views/targetFigure';
import { projectAt } from '../../src/shared/projection';

const WARM = { kind: 'subsequent' as const, p50Us: 410, projection: { localUs: 200, turns: 1 } };

test('the kind is named, and the figure at the app comes first when its RTT is set', () => {
  const at = targetFigure(WARM, { kind: 'rtt', rttMs: 30 });
  assert.equal(projectAt(WARM.projection, 30_000), 30_200);
  assert.equal(at.short, 'warm ≈ 30.2 ms from app · 0.410 ms here');
  assert.equal(
    at.long,
    'warm query p50 ≈ 30.2 ms from your app (30 ms RTT, 1 round trip), 0.410 ms measured here',
  );
  const initial = targetFigure(
    { kind: 'initial', p50Us: 2_500, projection: { localUs: 900, turns: 4 } },
    {
      kind: 'rtt',
      rttMs: 10,
    },
  );
  assert.equal(initial.short, 'connect ≈ 40.9 ms from app · 2.50 ms here');
});

test('no location, no counted turns, here: the figure measured here, and why there is no projection', () => {
  assert.equal(targetFigure(WARM, undefined).short, 'warm 0.410 ms here');
  assert.match(targetFigure(WARM, undefined).long, /set where your app runs/);
  const uncounted = targetFigure({ kind: 'subsequent', p50Us: 410 }, { kind: 'rtt', rttMs: 30 });
  assert.equal(uncounted.short, 'warm 0.410 ms here');
  assert.match(uncounted.long, /did not count its round trips/);
  // appRttMs 0: the app runs here, never a "0 ms RTT" figure below the measured one.
  assert.equal(targetFigure(WARM, locationOfRtt(0)).short, 'warm 0.410 ms (app runs here)');
});
