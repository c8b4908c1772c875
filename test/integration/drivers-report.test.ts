/**
 * One run, one Markdown report, like the reference blog's tables: pg vs neon-http vs neon-ws on the
 * same PostgreSQL, and planetscale vs mysql2 on the same MariaDB, every target in one table per kind.
 * The Neon HTTP stand-in runs in its own process so this process only measures.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { formatMarkdown } from '../../src/report/markdown';
import { describeErrors, probeTargets } from '../fixtures/probe';
import { spawnStandIn, type StandInProcess } from '../fixtures/standInProcess';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const ITERATIONS = 30;
const WARMUP = 3;

let neonHttp: StandInProcess;
before(async () => {
  neonHttp = await spawnStandIn('neon-http');
});
after(async () => neonHttp?.stop());

test('pg vs neon-http vs neon-ws, planetscale vs mysql2: one run, one Markdown report', async (t) => {
  const pgUrl = testbedEnv('DBPROBE_TEST_PG_URL');
  const targets = [
    { name: 'Postgres via pg', driver: 'pg', url: pgUrl },
    {
      name: 'Postgres via neon-http',
      driver: 'neon-http',
      url: pgUrl,
      options: { fetchEndpoint: neonHttp.endpoint },
    },
    {
      name: 'Postgres via neon-ws',
      driver: 'neon-ws',
      url: pgUrl,
      options: {
        wsProxy: `127.0.0.1:${testbedEnv('DBPROBE_TEST_WEBSOCKIFY_PORT')}/v1`,
        useSecureWebSocket: false,
        pipelineConnect: false,
      },
    },
    { name: 'MariaDB via planetscale', driver: 'planetscale', url: testbedEnv('DBPROBE_TEST_PS_URL') },
    { name: 'MariaDB via mysql2', driver: 'mysql2', url: testbedEnv('DBPROBE_TEST_MYSQL_URL') },
  ];
  const result = await probeTargets(targets, {
    kinds: ['initial', 'subsequent'],
    iterations: ITERATIONS,
    warmup: WARMUP,
    watchClient: true,
  });
  assert.equal(result.state, 'completed');
  for (const m of result.measurements) {
    assert.equal(m.stats.count, ITERATIONS, `${m.target} ${m.kind}: ${describeErrors(m)}`);
    assert.equal(m.stats.errors, 0);
  }

  const markdown = formatMarkdown(result);
  const expected: [string, string, string][] = [
    ['Postgres via pg', 'pg', 'tcp'],
    ['Postgres via neon-http', 'neon-http', 'http'],
    ['Postgres via neon-ws', 'neon-ws', 'ws'],
    ['MariaDB via planetscale', 'planetscale', 'http'],
    ['MariaDB via mysql2', 'mysql2', 'tcp'],
  ];
  for (const title of ['## Initial query', '## Subsequent query']) {
    const section = markdown.slice(markdown.indexOf(title));
    assert.ok(markdown.includes(title), `report has "${title}"`);
    const table = section.split('\n\n')[1] ?? '';
    for (const [name, driver, transport] of expected) {
      const row = table
        .split('\n')
        .find((line) => line.startsWith(`| ${name} | ${driver} | ${transport} | ${ITERATIONS} |`));
      assert.ok(row, `${title}: a row for ${name}\n${table}`);
      // avg, p50, p90, p95, max, stddev: numbers in ms; p99 of 30 samples withheld (n too small); errors 0.
      const cells = row
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean);
      assert.equal(cells.length, 12);
      for (const [i, cell] of cells.slice(4, 11).entries())
        assert.match(cell, i === 4 ? /^-†$/ : /^\d+(\.\d+)?$/, `${name}: ${cell}`);
      assert.equal(cells[11], '0');
    }
  }
  assert.match(markdown, /@neondatabase\/serverless 1\.2\.0/);
  assert.match(markdown, /@planetscale\/database \d/);
  assertNoSecret([markdown, JSON.stringify(result)]);

  const file = path.join(os.tmpdir(), 'dbprobe-drivers-report.md');
  writeFileSync(file, markdown);
  t.diagnostic(`report written to ${file}`);
});
