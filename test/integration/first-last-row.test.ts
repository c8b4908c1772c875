/**
 * Time to the first row and to the last, against independent truths on the testbed. Per server, one
 * run of two targets interleaved (`subsequent`): through toxiproxy (plain), and through toxiproxy
 * with 10 ms of downstream latency (delayed), on a statement of many rows:
 * - pg and MariaDB: 2,000 small rows, the last one held 30 ms by a sleep in the server, so the
 *   first rows (a full send buffer's worth) leave at once and the last only after the sleep;
 * - MongoDB (FerretDB): the find-250 preset, whose cursor answers in two batches (the find's first
 *   batch, then a getMore).
 * Checked: the row count is the one a client of the test's own reads; the bytes received are what
 * that client's rows weigh on the wire by the protocol's own framing (pg DataRow, MySQL row packet,
 * BSON array elements) plus the few framing messages around them; on the plain path the last row
 * comes the server's own sleep (its clock) after the first (pg, MariaDB); and the delay moves the
 * first row by one turn and the last by the counted turns (one, or two for the cursor's getMore).
 * Timing bounds are judged on intervals of the run's own samples, two runs of three.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { BSON, MongoClient } from 'mongodb';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Measurement, RunResult } from '../../src/shared/result';
import { echoRttUs } from '../fixtures/echoRtt';
import { describeErrors, measurement, probeTargets, type ProbeTarget } from '../fixtures/probe';
import { createToxiProxy, type ToxiProxy } from '../fixtures/toxiproxy';
import { formatInterval, outsideBand, p50Difference, p50PartDifference } from '../helpers/noiseInterval';
import { testbedEnv, withUrl } from '../helpers/testbed';

const DELAY_MS = 10;
const SLEEP_MS = 30;
const ROWS = 2_000;
const ITERATIONS = 20;

/** A client of the test's own: the statement's rows as it reads them, and their bytes on the wire. */
interface Truth {
  rows: number;
  /** The rows' bytes by the protocol's framing (row messages only). */
  rowBytes: number;
  /** The most the framing around the rows may add (column descriptions, completion, cursor replies). */
  framing: number;
  /** The server's own clock for the sleep that holds the last row (µs), several runs; none for mongo. */
  sleepUs: number[];
}

interface Case {
  name: string;
  driver: string;
  env: string;
  target: Pick<ProbeTarget, 'query' | 'workload' | 'allowWrites'>;
  /** Turns the delay adds before the first row arrives. */
  firstTurns: number;
  truth: () => Promise<Truth>;
}

/** The server's clock over `runs` runs of `once`. */
async function clockRuns(once: () => Promise<number>, runs = 5): Promise<number[]> {
  const us: number[] = [];
  for (let i = 0; i < runs; i++) us.push(await once());
  return us;
}

const CASES: Case[] = [
  {
    name: 'pg',
    driver: 'pg',
    env: 'DBPROBE_TEST_PG_URL',
    target: {
      query: `SELECT g, CASE WHEN g = ${ROWS} THEN pg_sleep(${SLEEP_MS / 1000})::text ELSE 'row' END AS s FROM generate_series(1, ${ROWS}) g`,
    },
    firstTurns: 1,
    truth: async () => {
      const client = new pg.Client({ connectionString: testbedEnv('DBPROBE_TEST_PG_URL') });
      await client.connect();
      try {
        const { rows } = await client.query<{ g: number; s: string }>(
          `SELECT g, CASE WHEN g = ${ROWS} THEN pg_sleep(0)::text ELSE 'row' END AS s FROM generate_series(1, ${ROWS}) g`,
        );
        // DataRow: 'D', its length (4), the column count (2), then per column its length (4) and text.
        const rowBytes = rows.reduce(
          (sum, r) => sum + 1 + 4 + 2 + 4 + Buffer.byteLength(String(r.g)) + 4 + Buffer.byteLength(r.s),
          0,
        );
        const sleepUs = await clockRuns(async () => {
          const { rows: t } = await client.query<{ us: number }>(
            `SELECT (extract(epoch FROM clock_timestamp()) - extract(epoch FROM statement_timestamp())) * 1e6 AS us FROM pg_sleep(${SLEEP_MS / 1000})`,
          );
          return Number(t[0]?.us);
        });
        // RowDescription (two columns), CommandComplete, ReadyForQuery: under 100 bytes.
        return { rows: rows.length, rowBytes, framing: 100, sleepUs };
      } finally {
        await client.end();
      }
    },
  },
  {
    name: 'mariadb',
    driver: 'mysql2',
    env: 'DBPROBE_TEST_MYSQL_URL',
    target: {
      query: `SELECT seq, IF(seq = ${ROWS}, SLEEP(${SLEEP_MS / 1000}), 'row') AS s FROM seq_1_to_${ROWS}`,
    },
    firstTurns: 1,
    truth: async () => {
      const conn = await mysql.createConnection(testbedEnv('DBPROBE_TEST_MYSQL_URL'));
      try {
        const [rows] = await conn.query(
          `SELECT seq, IF(seq = ${ROWS}, SLEEP(0), 'row') AS s FROM seq_1_to_${ROWS}`,
        );
        const list = rows as { seq: number; s: string | number }[];
        // A text-protocol row packet: a 4-byte header, then per column a length byte (< 251) and text.
        const rowBytes = list.reduce(
          (sum, r) => sum + 4 + 1 + Buffer.byteLength(String(r.seq)) + 1 + Buffer.byteLength(String(r.s)),
          0,
        );
        const sleepUs = await clockRuns(async () => {
          const [t] = await conn.query(
            `SELECT SLEEP(${SLEEP_MS / 1000}) AS s, TIMESTAMPDIFF(MICROSECOND, NOW(6), SYSDATE(6)) AS us`,
          );
          return Number((t as { us: number }[])[0]?.us);
        });
        // Column count, two column definitions, their EOF and the closing EOF/OK: under 200 bytes.
        return { rows: list.length, rowBytes, framing: 200, sleepUs };
      } finally {
        await conn.end();
      }
    },
  },
  {
    name: 'mongodb',
    driver: 'mongodb',
    env: 'DBPROBE_TEST_MONGO_URL',
    target: { workload: 'find-250', allowWrites: true },
    firstTurns: 1,
    truth: async () => {
      // The preset's documents (src/core/workloads.ts), read back as the server stores them.
      const client = new MongoClient(testbedEnv('DBPROBE_TEST_MONGO_URL'));
      await client.connect();
      const collection = client.db().collection(`dbprobe_truth_${process.pid}`);
      try {
        await collection.insertMany(
          Array.from(
            { length: 250 },
            (_, i) => ({ _id: i + 1, n: i % 100, payload: 'x'.repeat(100) }) as never,
          ),
        );
        const docs = await collection.find({}).limit(250).toArray();
        // A document in a batch array (the first batch of 101, the driver's default, then the rest): its
        // type byte, its index as a C string, then the document.
        const rowBytes = docs.reduce(
          (sum, doc, i) =>
            sum + 1 + Buffer.byteLength(String(i < 101 ? i : i - 101)) + 1 + BSON.calculateObjectSize(doc),
          0,
        );
        // Two OP_MSG replies (find, getMore), each a cursor document around its batch: under 400 bytes.
        return { rows: docs.length, rowBytes, framing: 400, sleepUs: [] };
      } finally {
        await collection.drop().catch(() => undefined);
        await client.close();
      }
    },
  },
];

const proxies: ToxiProxy[] = [];
after(async () => {
  for (const proxy of proxies) await proxy.remove();
});

async function runThrough(c: Case): Promise<RunResult> {
  const api = testbedEnv('DBPROBE_TEST_TOXIPROXY_URL');
  const url = testbedEnv(c.env);
  const upstream = `${new URL(url).hostname}:${new URL(url).port}`;
  const plain = await createToxiProxy(api, upstream, `rows_${c.name}_plain`);
  const delayed = await createToxiProxy(api, upstream, `rows_${c.name}_delayed`);
  proxies.push(plain, delayed);
  await delayed.addToxic('latency', { latency: DELAY_MS, jitter: 0 }, 'downstream');
  const via = (port: number) => withUrl(url, (u) => (u.port = String(port)));
  return probeTargets(
    [
      { name: 'plain', driver: c.driver, url: via(plain.port), ...c.target },
      { name: 'delayed', driver: c.driver, url: via(delayed.port), ...c.target },
    ],
    { kinds: ['subsequent'], iterations: ITERATIONS, warmup: 2 },
  );
}

const msText = (us: number) => `${(us / 1000).toFixed(2)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const firstRows = (m: Measurement) =>
  m.samples.values.flatMap((s) => (s.firstRowUs !== undefined ? [s.firstRowUs] : []));
const lastRows = (m: Measurement) =>
  m.samples.values.flatMap((s) => (s.firstRowUs !== undefined && s.us !== undefined ? [s.us] : []));

/** One run: the deterministic facts asserted, the timing bounds returned as misses. */
async function misses(c: Case, truth: Truth): Promise<string[]> {
  const found: string[] = [];
  const excess = (await echoRttUs(testbedEnv('DBPROBE_TEST_TOXIPROXY_URL'), DELAY_MS, 20)) - DELAY_MS * 1000;
  const result = await runThrough(c);
  const plain = measurement(result, 'plain', 'subsequent');
  const delayed = measurement(result, 'delayed', 'subsequent');
  for (const m of [plain, delayed]) {
    assert.equal(m.stats.errors, 0, describeErrors(m));
    const rows = m.rows;
    assert.ok(rows && rows.firstRowP50Us !== undefined, `${m.target}: ${JSON.stringify(rows)}`);
    assert.equal(rows.count, truth.rows, `${m.target}: the rows a client of the test's own read`);
    assert.equal(rows.first, c.driver === 'mongodb' ? 'batch' : 'row');
    assert.equal(rows.samples, ITERATIONS, 'the first answer, a warm-up one, chose the streamed path');
    assert.equal(firstRows(m).length, ITERATIONS);
    const bytes = m.wire?.bytesReceived ?? NaN;
    assert.ok(
      bytes >= truth.rowBytes && bytes <= truth.rowBytes + truth.framing,
      `${c.name} ${m.target}: ${bytes} bytes received; the rows weigh ${truth.rowBytes} on the wire, framing up to ${truth.framing} more`,
    );
  }
  const turns = delayed.wire?.roundTrips;
  assert.ok(turns !== undefined && turns >= 1, `${c.name}: round trips not counted`);
  const line = `${c.name}: plain first ${msText(plain.rows!.firstRowP50Us!)}, last ${msText(plain.rows!.lastRowP50Us!)}; delayed first ${msText(delayed.rows!.firstRowP50Us!)}, last ${msText(delayed.rows!.lastRowP50Us!)}; ${turns} round trips; toxiproxy excess ${msText(excess)}`;
  console.log(line);
  // The delay moves the first row by the turns before it, the last by every counted turn.
  const band = (n: number): [number, number] => [
    0.95 * n * DELAY_MS * 1000,
    1.05 * n * (DELAY_MS * 1000 + Math.max(0, excess)),
  ];
  const firstMoved = p50PartDifference(plain, delayed, (s) => s.firstRowUs, `${c.name}-first`);
  const lastMoved = p50PartDifference(
    plain,
    delayed,
    (s) => (s.firstRowUs !== undefined ? s.us : undefined),
    `${c.name}-last`,
  );
  const [firstLow, firstHigh] = band(c.firstTurns);
  if (outsideBand(firstMoved, firstLow, firstHigh))
    found.push(
      `${line}; the delay moved the first row ${formatInterval(firstMoved)}, not ${c.firstTurns} turn(s) in [${msText(firstLow)}, ${msText(firstHigh)}]`,
    );
  const [lastLow, lastHigh] = band(turns);
  if (outsideBand(lastMoved, lastLow, lastHigh))
    found.push(
      `${line}; the delay moved the last row ${formatInterval(lastMoved)}, not ${turns} turn(s) in [${msText(lastLow)}, ${msText(lastHigh)}]`,
    );
  // Plain: the last row leaves the server its own sleep after the first rows (pg, MariaDB), and the
  // rest of the answer (under a send buffer of small rows) follows within a millisecond or two.
  if (truth.sleepUs.length > 0) {
    const sleep = median(truth.sleepUs);
    const spread = Math.max(...truth.sleepUs) - Math.min(...truth.sleepUs);
    const apart = p50Difference(firstRows(plain), lastRows(plain), `${c.name}-apart`);
    const low = sleep - 1_000;
    const high = sleep + 3_000 + spread;
    if (outsideBand(apart, low, high))
      found.push(
        `${line}; first to last row ${formatInterval(apart)}, the server slept ${msText(sleep)}: not in [${msText(low)}, ${msText(high)}]`,
      );
  }
  return found;
}

describe('first row and last row against the rows a client reads and the delay injected', () => {
  for (const c of CASES) {
    test(`${c.name}: ${c.target.query ?? c.target.workload}`, async () => {
      const truth = await c.truth();
      const first = await misses(c, truth);
      if (first.length === 0) return;
      console.log(`${c.name}: missed in the first run, measuring twice more:\n${first.join('\n')}`);
      for (let again = 0; again < 2; again++) {
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        assert.deepEqual(
          await misses(c, truth),
          [],
          `${c.name}: missed in the first run and in run ${again + 2}`,
        );
      }
    });
  }
});
