/**
 * `dbprobe watch`'s exposition: label values escaped per the Prometheus text format, cumulative
 * buckets that never decrease and end at _count, every label through the redactor, and a state that
 * stays the same size however many runs it has seen.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WATCH_BUCKETS_US, WatchMetrics } from '../../src/report/watchMetrics';
import type { ProbeEvent } from '../../src/shared/events';
import { Redactor } from '../../src/shared/redact';
import { fakeResult } from '../helpers/extensionRunResult';

test('label values escape backslash, double quote and line feed, and nothing else', async () => {
  const metrics = new WatchMetrics();
  metrics.onEvent(sample('a\\b"c\nd é{}=,', 'subsequent', 300));
  const text = await metrics.render();
  assert.match(text, /^# TYPE dbprobe_probe_seconds histogram$/m);
  assert.ok(
    text.includes(
      'dbprobe_probe_seconds_count{target="a\\\\b\\"c\\nd é{}=,",driver="unknown",kind="subsequent"} 1\n',
    ),
    text,
  );
});

function sample(
  target: string,
  kind: 'initial' | 'subsequent',
  us: number,
  phase: 'warmup' | 'measure' = 'measure',
): ProbeEvent {
  return { type: 'sample', target, kind, phase, index: 0, atUs: 0, us };
}

function bucketsOf(text: string, kind: string): { le: string; value: number }[] {
  const re = /^dbprobe_probe_seconds_bucket\{([^}]*)\} (\S+)$/gm;
  return [...text.matchAll(re)]
    .filter((m) => m[1]!.includes(`kind="${kind}"`))
    .map((m) => ({ le: /le="([^"]+)"/.exec(m[1]!)![1]!, value: Number(m[2]) }));
}

test('buckets are cumulative, monotonic, span 50 µs to 30 s and end at _count', async () => {
  const metrics = new WatchMetrics();
  const latencies = [10, 50, 51, 900, 1_000, 40_000, 2_000_000, 29_000_000, 31_000_000, 120_000_000];
  for (const us of latencies) metrics.onEvent(sample('pg', 'subsequent', us));
  metrics.onEvent(sample('pg', 'subsequent', 5, 'warmup'));
  const text = await metrics.render();
  const buckets = bucketsOf(text, 'subsequent');
  assert.equal(buckets.length, WATCH_BUCKETS_US.length + 1);
  assert.equal(buckets[0]!.le, '0.00005');
  assert.equal(buckets.at(-2)!.le, '30');
  assert.equal(buckets.at(-1)!.le, '+Inf');
  for (let i = 1; i < buckets.length; i++)
    assert.ok(buckets[i]!.value >= buckets[i - 1]!.value, `bucket ${i} decreased`);
  // 10 and 50 µs fall in le=0.00005 (le is inclusive); the warm-up sample is not counted.
  assert.equal(buckets[0]!.value, 2);
  assert.equal(buckets.find((b) => b.le === '0.001')!.value, 5);
  assert.equal(buckets.find((b) => b.le === '30')!.value, 8);
  assert.equal(buckets.at(-1)!.value, latencies.length);
  assert.match(text, /dbprobe_probe_seconds_count\{target="pg",driver="unknown",kind="subsequent"\} 10\n/);
  const sum = latencies.reduce((a, b) => a + b, 0) / 1e6;
  const served = Number(/^dbprobe_probe_seconds_sum\{[^}]*\} (\S+)$/m.exec(text)?.[1]);
  assert.ok(Math.abs(served - sum) < 1e-9, `_sum ${served}, expected ${sum}`);
});

test('gauges and errors come from the run result; every label passes the redactor; the state stays fixed', async () => {
  const secret = 'sentinel-Pw-123';
  const redactor = new Redactor().addSecret(`postgres://u:${secret}@127.0.0.1/db`);
  const metrics = new WatchMetrics(undefined, { redact: (t) => redactor.redact(t) });
  const run = () => {
    metrics.onEvent(sample(`pg ${secret}`, 'subsequent', 300));
    metrics.onResult(
      fakeResult(
        [{ name: `pg ${secret}`, driver: 'pg', transport: 'tcp' }],
        [{ target: `pg ${secret}`, kind: 'subsequent', p50Us: 250, errors: 2 }],
      ),
    );
  };
  run();
  const first = await metrics.render();
  assert.ok(!first.includes(secret), first);
  assert.match(
    first,
    /dbprobe_probe_quantile_seconds\{target="pg \*\*\*\*",driver="pg",kind="subsequent",quantile="0\.5"\} 0\.00025\n/,
  );
  assert.match(
    first,
    /dbprobe_probe_errors_total\{target="pg \*\*\*\*",kind="subsequent",class="timeout"\} 2\n/,
  );
  for (let i = 0; i < 999; i++) run();
  const later = await metrics.render();
  assert.equal(later.split('\n').length, first.split('\n').length, 'the exposition grew with the runs');
  assert.match(later, /class="timeout"\} 2000\n/);
  assert.match(later, /dbprobe_watch_runs_total 1000\n/);
});

/** The labels of one quantile's series: the series' own, then `quantile`. */
function quantile(labels: string, q: string): string {
  return `${labels},quantile="${q}"`;
}

/** The value of `name{labels}` in the exposition, or undefined when the series is absent. */
function valueOf(text: string, name: string, labels: string): number | undefined {
  const series = labels === '' ? name : `${name}{${labels}}`;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const TARGETS = [
  { name: 'pg', driver: 'pg', transport: 'tcp' },
  { name: 'redis', driver: 'ioredis', transport: 'tcp' },
];

test('a run that measured nothing: success 0, p50/p99 absent (not stale), errors still counted', async () => {
  const metrics = new WatchMetrics();
  const at = (startedAt: string) => ({ startedAt, durationUs: 500_000 });
  metrics.onResult(
    fakeResult(
      TARGETS,
      [
        { target: 'pg', kind: 'subsequent', p50Us: 250 },
        { target: 'redis', kind: 'subsequent', p50Us: 120 },
      ],
      at('2026-11-27T18:02:10.000Z'),
    ),
  );
  const healthy = await metrics.render();
  const pg = 'target="pg",driver="pg",kind="subsequent"';
  assert.equal(valueOf(healthy, 'dbprobe_probe_quantile_seconds', quantile(pg, '0.5')), 0.00025);
  assert.equal(valueOf(healthy, 'dbprobe_probe_quantile_seconds', quantile(pg, '0.99')), 0.000501);
  assert.equal(valueOf(healthy, 'dbprobe_probe_success', 'target="pg",kind="subsequent"'), 1);
  const healthyAt = Date.parse('2026-11-27T18:02:10.500Z') / 1_000;
  assert.equal(
    valueOf(healthy, 'dbprobe_probe_last_success_timestamp_seconds', 'target="pg",kind="subsequent"'),
    healthyAt,
  );

  // pg answers nothing (10 failed samples), redis still answers.
  for (const startedAt of ['2026-11-27T18:02:40.000Z', '2026-11-27T18:03:10.000Z']) {
    const health = metrics.onResult(
      fakeResult(
        TARGETS,
        [
          { target: 'pg', kind: 'subsequent', p50Us: 0, samplesUs: [], errors: 10 },
          { target: 'redis', kind: 'subsequent', p50Us: 130 },
        ],
        at(startedAt),
      ),
    );
    assert.equal(
      health[0]?.sentence,
      'pg is down: the last run measured nothing (timeout: query timed out); last success 2026-11-27T18:02:10Z',
    );
  }
  const down = await metrics.render();
  assert.equal(valueOf(down, 'dbprobe_probe_quantile_seconds', quantile(pg, '0.5')), undefined, down);
  assert.equal(valueOf(down, 'dbprobe_probe_quantile_seconds', quantile(pg, '0.99')), undefined, down);
  assert.equal(valueOf(down, 'dbprobe_probe_success', 'target="pg",kind="subsequent"'), 0);
  assert.equal(
    valueOf(down, 'dbprobe_probe_last_success_timestamp_seconds', 'target="pg",kind="subsequent"'),
    healthyAt,
  );
  assert.equal(
    valueOf(down, 'dbprobe_probe_errors_total', 'target="pg",kind="subsequent",class="timeout"'),
    20,
  );
  // The histogram keeps its cumulative series; redis is untouched by pg's outage.
  assert.match(down, /dbprobe_probe_seconds_count\{target="pg",driver="pg",kind="subsequent"\} \d+\n/);
  assert.equal(
    valueOf(
      down,
      'dbprobe_probe_quantile_seconds',
      quantile('target="redis",driver="ioredis",kind="subsequent"', '0.5'),
    ),
    0.00013,
  );
  assert.equal(valueOf(down, 'dbprobe_probe_success', 'target="redis",kind="subsequent"'), 1);

  // Back: the gauges return with the new run's figures.
  metrics.onResult(
    fakeResult(
      TARGETS,
      [
        { target: 'pg', kind: 'subsequent', p50Us: 300 },
        { target: 'redis', kind: 'subsequent', p50Us: 120 },
      ],
      at('2026-11-27T18:03:40.000Z'),
    ),
  );
  const back = await metrics.render();
  assert.equal(valueOf(back, 'dbprobe_probe_quantile_seconds', quantile(pg, '0.5')), 0.0003);
  assert.equal(valueOf(back, 'dbprobe_probe_success', 'target="pg",kind="subsequent"'), 1);
  assert.equal(
    valueOf(back, 'dbprobe_probe_last_success_timestamp_seconds', 'target="pg",kind="subsequent"'),
    Date.parse('2026-11-27T18:03:40.500Z') / 1_000,
  );
});

test('a kind the run never reached is down too; a run with no result downs every planned series', async () => {
  const metrics = new WatchMetrics({
    targets: [{ name: 'pg', driver: 'pg' }],
    kinds: ['initial', 'subsequent'],
  });
  // Before any run: no health is claimed either way.
  assert.doesNotMatch(await metrics.render(), /dbprobe_probe_success\{/);
  metrics.onRunFailed('the engine threw', new Date('2026-11-27T18:02:10.000Z'));
  const failed = await metrics.render();
  assert.equal(valueOf(failed, 'dbprobe_probe_success', 'target="pg",kind="initial"'), 0);
  assert.equal(valueOf(failed, 'dbprobe_probe_success', 'target="pg",kind="subsequent"'), 0);
  assert.doesNotMatch(failed, /dbprobe_probe_last_success_timestamp_seconds\{/);
  assert.match(failed, /dbprobe_watch_runs_total 1\n/);

  const both = fakeResult(TARGETS.slice(0, 1), [
    { target: 'pg', kind: 'initial', p50Us: 900 },
    { target: 'pg', kind: 'subsequent', p50Us: 90 },
  ]);
  metrics.onResult(both);
  const initialOnly = fakeResult(TARGETS.slice(0, 1), [{ target: 'pg', kind: 'initial', p50Us: 950 }], {
    plan: both.plan,
  });
  const [pg] = metrics.onResult(initialOnly, 'the stream was cut');
  assert.match(pg?.sentence ?? '', /measured nothing for subsequent \(the run failed: the stream was cut\)/);
  const cut = await metrics.render();
  assert.equal(
    valueOf(cut, 'dbprobe_probe_quantile_seconds', quantile('target="pg",driver="pg",kind="initial"', '0.5')),
    0.00095,
  );
  assert.equal(
    valueOf(
      cut,
      'dbprobe_probe_quantile_seconds',
      quantile('target="pg",driver="pg",kind="subsequent"', '0.5'),
    ),
    undefined,
  );
  assert.equal(valueOf(cut, 'dbprobe_probe_success', 'target="pg",kind="subsequent"'), 0);
  assert.equal(valueOf(cut, 'dbprobe_probe_success', 'target="pg",kind="initial"'), 1);
});

test('build info, the last run as a timestamp and a duration, one series per quantile', async () => {
  const metrics = new WatchMetrics(undefined, { build: { version: '9.8.7', node: 'v20.99.0' } });
  const before = await metrics.render();
  assert.match(before, /^dbprobe_build_info\{version="9\.8\.7",node="v20\.99\.0"\} 1$/m);
  assert.doesNotMatch(before, /^dbprobe_watch_last_run_(timestamp|duration)_seconds /m);
  metrics.onResult(
    fakeResult(TARGETS.slice(0, 1), [{ target: 'pg', kind: 'subsequent', p50Us: 250 }], {
      startedAt: '2026-11-27T18:02:10.000Z',
      durationUs: 1_500_000,
    }),
  );
  const after = await metrics.render();
  assert.equal(
    valueOf(after, 'dbprobe_watch_last_run_timestamp_seconds', ''),
    Date.parse('2026-11-27T18:02:11.500Z') / 1_000,
  );
  assert.equal(valueOf(after, 'dbprobe_watch_last_run_duration_seconds', ''), 1.5);
  const quantiles = after
    .split('\n')
    .filter((l) => l.startsWith('dbprobe_probe_quantile_seconds{'))
    .map((l) => /quantile="([^"]+)"/.exec(l)?.[1]);
  assert.deepEqual(quantiles, ['0.5', '0.99']);
  // A failed run moves the timestamp to its end and leaves the duration of the last one that ran.
  metrics.onRunFailed('the engine threw', new Date('2026-11-27T18:03:00.000Z'));
  const failed = await metrics.render();
  assert.equal(
    valueOf(failed, 'dbprobe_watch_last_run_timestamp_seconds', ''),
    Date.parse('2026-11-27T18:03:00.000Z') / 1_000,
  );
  assert.equal(valueOf(failed, 'dbprobe_watch_last_run_duration_seconds', ''), 1.5);
});

test('a target whose certificate was not checked reads 0 in dbprobe_target_tls_verified, others 1', async () => {
  const metrics = new WatchMetrics();
  const result = fakeResult(
    [
      { name: 'open', driver: 'pg', transport: 'tcp' },
      { name: 'checked', driver: 'pg', transport: 'tcp' },
    ],
    [
      { target: 'open', kind: 'subsequent', p50Us: 250 },
      { target: 'checked', kind: 'subsequent', p50Us: 250 },
    ],
  );
  result.targets[0]!.tls = { insecure: true, insecureBy: "the connection string's sslmode=no-verify" };
  metrics.onResult(result);
  const text = await metrics.render();
  assert.match(text, /^dbprobe_target_tls_verified\{target="open"\} 0$/m);
  assert.match(text, /^dbprobe_target_tls_verified\{target="checked"\} 1$/m);
});
