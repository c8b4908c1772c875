/** The lens's wording and memory, and the heartbeat's rolling window on a fake clock. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HeartbeatWindow, describeHeartbeat } from '../../src/extension/heartbeat/heartbeatWindow';
import {
  failureLine,
  lensTitles,
  pickFigures,
  shortMs,
  statementKey,
  timeAgo,
  trimRecords,
  type LensRecord,
} from '../../src/extension/queries/lensText';

describe('lens text', () => {
  const at = Date.parse('2025-01-01T12:00:00Z');
  test('"p50 0.9 ms / p99 2.1 ms on neon-http, 12 min ago", one line per target', () => {
    const record: LensRecord = {
      runId: 'r',
      at: new Date(at).toISOString(),
      targets: [
        { target: 'neon-http', kind: 'subsequent', p50Us: 900, p99Us: 2100, errors: 0 },
        {
          target: 'local-mysql',
          kind: 'initial',
          errors: 0,
          failure: { class: 'query', message: "Table 'app.pg_class' doesn't exist" },
        },
        {
          target: 'planetscale-http',
          kind: 'initial',
          errors: 5,
          failure: { class: 'refused', message: 'connect ECONNREFUSED 127.0.0.1:3900' },
        },
      ],
    };
    assert.deepEqual(lensTitles(record, at + 12 * 60_000 + 5_000), [
      'p50 0.9 ms / p99 2.1 ms on neon-http, 12 min ago',
      "query rejected on local-mysql: Table 'app.pg_class' doesn't exist, 12 min ago",
      'connection refused on planetscale-http: connect ECONNREFUSED 127.0.0.1:3900, 12 min ago',
    ]);
  });

  test('a failure never reads as a count of errors: what failed and why, its message cut short', () => {
    assert.equal(failureLine({ target: 'pg' }), 'no sample on pg');
    const long = `relation "x" ${'does not exist '.repeat(20)}`;
    const line = failureLine({ target: 'pg', failure: { class: 'query', message: long } });
    assert.equal(line.length, 'query rejected on pg: '.length + 100);
    assert.ok(line.endsWith('...'));
    assert.doesNotMatch(line, /errors\)/);
  });

  test("a query that failed in warm-up keeps its first error (the run's measured errors are 0)", () => {
    const failure = { class: 'query' as const, message: 'relation "pg_class" does not exist', hint: 'h' };
    const none = { count: 0, errors: 0, p50Us: 0, p99Us: 0 };
    const figures = pickFigures('local-mysql', [
      { target: 'local-mysql', kind: 'initial', stats: none, firstErrors: [failure] },
      { target: 'local-mysql', kind: 'subsequent', stats: none, firstErrors: [] },
    ]);
    assert.deepEqual(figures, {
      target: 'local-mysql',
      kind: 'initial',
      errors: 0,
      failure: { class: 'query', message: 'relation "pg_class" does not exist' },
    });
  });

  test('milliseconds and ages read naturally', () => {
    assert.equal(shortMs(41), '0.041 ms');
    assert.equal(shortMs(12_345), '12.3 ms');
    assert.equal(shortMs(140_400), '140 ms');
    assert.equal(timeAgo(30_000), 'just now');
    assert.equal(timeAgo(3 * 3600_000), '3 h ago');
    assert.equal(timeAgo(72 * 3600_000), '3 days ago');
    assert.equal(timeAgo(-5000), 'just now');
  });

  test('subsequent figures when measured, else the first kind with samples', () => {
    const stats = (count: number, p50Us: number) => ({ count, errors: 0, p50Us, p99Us: p50Us * 2 });
    const measurements = [
      { target: 'a', kind: 'initial' as const, stats: stats(10, 5000) },
      { target: 'a', kind: 'subsequent' as const, stats: stats(10, 400) },
      { target: 'b', kind: 'initial' as const, stats: stats(10, 7000) },
      { target: 'b', kind: 'subsequent' as const, stats: stats(0, 0) },
    ];
    assert.equal(pickFigures('a', measurements)?.p50Us, 400);
    assert.equal(pickFigures('b', measurements)?.kind, 'initial');
    assert.equal(pickFigures('c', measurements), undefined);
  });

  test('the key ignores whitespace and differs by family and text', () => {
    assert.equal(statementKey('sql', 'SELECT  1\n FROM t'), statementKey('sql', ' SELECT 1 FROM t '));
    assert.notEqual(statementKey('sql', 'SELECT 1'), statementKey('sql', 'SELECT 2'));
    assert.notEqual(statementKey('sql', 'GET a'), statementKey('redis', 'GET a'));
  });

  test('memory keeps the newest records', () => {
    const record = (at: string): LensRecord => ({ runId: at, at, targets: [] });
    const kept = trimRecords(
      { a: record('2025-01-01'), b: record('2025-03-01'), c: record('2025-02-01') },
      2,
    );
    assert.deepEqual(Object.keys(kept).sort(), ['b', 'c']);
  });
});

describe('heartbeat window', () => {
  test('p50 over the last minute only, on a fake clock', () => {
    const window = new HeartbeatWindow(60_000);
    let now = 0;
    for (const us of [900, 1100, 1000]) {
      now += 20_000;
      window.add({ atMs: now, us });
    }
    assert.deepEqual(window.summary(now, 5000), { count: 3, errors: 0, p50Us: 1000, level: 'ok' });
    // Two minutes later with three slow samples: the fast ones have left the window.
    for (const us of [9000, 8000, 10_000]) {
      now += 40_000;
      window.add({ atMs: now, us });
    }
    const later = window.summary(now, 5000);
    assert.equal(later.count, 2, 'samples at t-40 s and t; the one at t-80 s is out');
    assert.equal(later.p50Us, 8000);
    assert.equal(later.level, 'warning', 'past the 5 ms threshold');
  });

  test('no threshold never warns; no sample is idle; only errors is failing', () => {
    const window = new HeartbeatWindow(60_000);
    assert.equal(window.summary(0, undefined).level, 'idle');
    window.add({ atMs: 1000, us: 50_000 });
    assert.equal(window.summary(1000, undefined).level, 'ok');
    assert.equal(window.summary(1000, 0).level, 'ok');
    window.clear();
    window.add({ atMs: 2000 });
    assert.deepEqual(window.summary(2000, 1000), { count: 0, errors: 1, level: 'failing' });
    window.add({ atMs: 3000, us: 10 });
    window.add({ atMs: 4000 });
    assert.equal(window.summary(4000, 1000).level, 'warning', 'more errors than successes');
  });

  test('holds at most maxSamples', () => {
    const window = new HeartbeatWindow(1e12, 10);
    for (let i = 0; i < 100; i++) window.add({ atMs: i, us: i });
    assert.equal(window.summary(100, undefined).count, 10);
    assert.equal(window.summary(100, undefined).p50Us, 94);
  });
});

describe('heartbeat status text', () => {
  const settings = { intervalSeconds: 30, warnAboveMs: 5 };
  test('the target, its p50 over the last minute and the threshold', () => {
    const { text, tooltip } = describeHeartbeat(
      { name: 'neon', driver: 'neon-http' },
      { count: 2, errors: 1, p50Us: 8000, level: 'warning' },
      settings,
      { lastError: 'timeout: the query took longer than 10000 ms' },
    );
    assert.equal(text, '$(warning) neon 8.0 ms');
    assert.match(tooltip, /heartbeat on neon \(neon-http\): one query on a warm connection every 30 s/);
    assert.match(tooltip, /p50 over the last minute: 8\.0 ms \(2 samples, 1 failed\)/);
    assert.match(tooltip, /warning above 5 ms/);
    assert.match(tooltip, /Last error: timeout/);
  });

  test('before the first sample, and when every sample fails', () => {
    assert.equal(
      describeHeartbeat({ name: 'pg', driver: 'pg' }, { count: 0, errors: 0, level: 'idle' }, settings).text,
      '$(sync~spin) pg …',
    );
    assert.equal(
      describeHeartbeat({ name: 'pg', driver: 'pg' }, { count: 0, errors: 3, level: 'failing' }, settings, {
        lastError: 'x',
      }).text,
      '$(error) pg failing',
    );
  });
});
