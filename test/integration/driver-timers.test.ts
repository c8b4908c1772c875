/**
 * A driver's own connect timer never speaks before the engine's deadline. The engine ends a connect
 * at its deadline with the words every driver shares ("connect timed out after N ms"); drivers whose
 * clients have a connect timeout of their own (undici for the HTTP drivers, mysql2, ioredis) get a
 * later one (src/drivers/abort.ts), kept as a backstop. Set to the same length, the two timers raced,
 * and on a loaded host undici's won now and then: the bad-input catalogue's `http.unreachable` row
 * read "Connect Timeout Error ... timeout: 1000ms" instead of the shared wording.
 *
 * Each driver connects, outside the engine, to a port that drops SYNs (the connect hangs) with a
 * timeout of TIMEOUT_MS and a signal nobody aborts: the driver's own timer must not end it sooner
 * than a second after TIMEOUT_MS. A lower bound on elapsed time only: timers never fire early.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { DriverConnection } from '../../src/core/driver';
import { createRegistry } from '../../src/drivers/registry';
import { synDropPort, type SynDropPort } from '../catalogue/endpoints';

const TIMEOUT_MS = 300;
/** The backstop is a second later; a little less leaves room for clock granularity. */
const AT_LEAST_MS = TIMEOUT_MS + 900;
/** Bounds the test if a driver never gives up: its signal is aborted then. */
const GIVE_UP_MS = 5_000;

let drop: SynDropPort;
before(async () => {
  drop = await synDropPort();
});
after(async () => drop?.close());

const urls: Record<string, (port: number) => string> = {
  http: (port) => `http://127.0.0.1:${port}/`,
  mysql2: (port) => `mysql://probe:secret@127.0.0.1:${port}/probe`,
  ioredis: (port) => `redis://127.0.0.1:${port}`,
};

for (const [driverId, url] of Object.entries(urls)) {
  test(`${driverId}: its own connect timer fires after the engine's deadline, not with it`, async () => {
    const driver = await createRegistry().load(driverId);
    const signal = AbortSignal.timeout(GIVE_UP_MS);
    const started = performance.now();
    let conn: DriverConnection | undefined;
    const outcome = await (async () => {
      conn = await driver.connect({ url: url(drop.port), timeoutMs: TIMEOUT_MS, signal, options: {} });
      // HTTP drivers open their connection with the first request.
      await conn.query('SELECT 1');
    })().then(
      () => 'answered',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    const elapsedMs = performance.now() - started;
    conn?.destroy();
    console.log(`${driverId}: ended after ${elapsedMs.toFixed(0)} ms: ${outcome.slice(0, 160)}`);
    assert.notEqual(outcome, 'answered', 'a port that drops SYNs cannot answer');
    assert.ok(
      elapsedMs >= AT_LEAST_MS,
      `${driverId} gave up after ${elapsedMs.toFixed(0)} ms, within the engine's ${TIMEOUT_MS} ms deadline's reach`,
    );
  });
}
