/**
 * libsql over HTTP (Hrana pipeline) and WebSocket (Hrana subprotocols) through the engine, against
 * the Hrana stand-in backed by a real SQLite file (test/fixtures/hranaStandIn.ts), with a token.
 * Two targets on one database, as the issue asks: one per transport. The stand-in counts TCP
 * connections and WebSocket upgrades.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '../fixtures/connections';
import { startHranaStandIn, type HranaStandIn } from '../fixtures/hranaStandIn';
import { describeErrors, measurement, probeTargets } from '../fixtures/probe';
import { assertNoSecret } from '../helpers/testbed';
import { tempDir } from '../helpers/tempDir';

const ITERATIONS = 12;
const WARMUP = 2;
const SAMPLES = ITERATIONS + WARMUP;
const TOKEN = `hrana-${randomBytes(12).toString('hex')}`;

describe('libsql against the Hrana stand-in', () => {
  let standIn: HranaStandIn;
  before(async () => {
    const dir = tempDir('hrana');
    standIn = await startHranaStandIn({ file: path.join(dir, 'probe.db'), token: TOKEN });
  });
  after(async () => standIn?.close());

  const url = (transport: 'http' | 'ws') =>
    `${transport === 'http' ? standIn.httpUrl : standIn.wsUrl}?authToken=${TOKEN}`;

  for (const transport of ['http', 'ws'] as const) {
    test(`${transport} initial: a new connection per sample`, async () => {
      const before = standIn.stats();
      const result = await probeTargets(
        [{ name: `turso ${transport}`, driver: 'libsql', url: url(transport), query: 'SELECT 1' }],
        {
          kinds: ['initial'],
          iterations: ITERATIONS,
          warmup: WARMUP,
        },
      );
      const m = measurement(result, `turso ${transport}`, 'initial');
      assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
      assert.equal(m.stats.errors, 0);
      assert.equal(result.targets[0]?.transport, transport);
      const after = await waitFor(
        () => standIn.stats(),
        (s) => s.open === 0,
      );
      assert.equal(after.accepted - before.accepted, SAMPLES, 'one TCP connection per sample');
      if (transport === 'ws')
        assert.equal(after.upgrades - before.upgrades, SAMPLES, 'one WebSocket per sample');
      else assert.equal(after.requests - before.requests, SAMPLES, 'one pipeline request per sample');
      assert.equal(after.open, 0);
      assert.equal(standIn.openStreams(), 0, 'every Hrana stream closed');
      assertNoSecret([JSON.stringify(result)], TOKEN);
    });

    test(`${transport} subsequent: one connection in all`, async () => {
      const before = standIn.stats();
      const result = await probeTargets(
        [
          {
            name: `turso ${transport}`,
            driver: 'libsql',
            url: url(transport),
            query: "SELECT 1, 'x', 2.5, NULL",
          },
        ],
        { kinds: ['subsequent'], iterations: ITERATIONS, warmup: WARMUP },
      );
      const m = measurement(result, `turso ${transport}`, 'subsequent');
      assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
      assert.equal(m.stats.errors, 0);
      const after = await waitFor(
        () => standIn.stats(),
        (s) => s.open === 0,
      );
      assert.equal(after.accepted - before.accepted, 1);
      if (transport === 'ws') assert.equal(after.upgrades - before.upgrades, 1);
      else assert.equal(after.requests - before.requests, SAMPLES);
      assert.equal(after.open, 0);
    });
  }

  test('a SQL error is a query error and leaves the warm connection in use', async () => {
    const before = standIn.stats();
    const result = await probeTargets(
      [{ name: 'bad sql', driver: 'libsql', url: url('ws'), query: 'SELEC 1' }],
      { kinds: ['subsequent'], iterations: 3, warmup: 0 },
    );
    const m = measurement(result, 'bad sql', 'subsequent');
    assert.equal(m.stats.count, 0);
    assert.equal(m.errorsByClass.query, 3);
    assert.match(m.firstErrors[0]?.message ?? '', /syntax error/);
    const after = await waitFor(
      () => standIn.stats(),
      (s) => s.open === 0,
    );
    assert.equal(after.upgrades - before.upgrades, 1, 'a rejected statement does not cost a reconnect');
  });
});
