/**
 * The runner rows of the bad-input catalogue: `dbprobe run --runner` against the real Node runner
 * process (wrong token, a refused target, killed mid-run), a closed port, and a small HTTP server on
 * 127.0.0.1 for the answers a runner never gives (a proxy's 502 page, a 200 that is not NDJSON); and
 * the runner's own JSON error for a bad plan. One line each, no stack trace, no secret.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { badInput, type BadInput } from '../catalogue/badInputs';
import { assertRow } from '../catalogue/assertRow';
import { envName, runCatalogueCli, type CatalogueRun, type NamedTarget } from '../catalogue/cliRun';
import { startByteWatch } from '../catalogue/byteWatch';
import { closedPort } from '../catalogue/endpoints';
import { startRunnerProcess, type RunnerProcess } from '../helpers/runnerProcess';
import { assertNoSecret, sentinelPassword, testbedEnv } from '../helpers/testbed';

const TOKEN = `runtok-${randomBytes(12).toString('hex')}`;
const pgTarget = (url = testbedEnv('DBPROBE_TEST_PG_URL')): NamedTarget => ({
  name: 'cat pg',
  driver: 'pg',
  url,
});
const lines = (run: CatalogueRun) => run.stderr.split('\n').filter((l) => l.startsWith('dbprobe:'));

async function viaRunner(
  url: string,
  options: {
    token?: string;
    target?: NamedTarget;
    iterations?: number;
    kinds?: string[];
    onSpawn?: (pid: number) => void;
  } = {},
) {
  return runCatalogueCli([options.target ?? pgTarget()], {
    format: 'json',
    extraArgs: ['--runner', url],
    ...(options.iterations ? { iterations: options.iterations } : {}),
    ...(options.kinds ? { kinds: options.kinds } : {}),
    env: options.token === undefined ? {} : { DBPROBE_TOKEN: options.token },
  });
}

async function withRunner<T>(
  env: Record<string, string>,
  use: (runner: RunnerProcess) => Promise<T>,
): Promise<T> {
  const runner = await startRunnerProcess({ DBPROBE_TOKEN: TOKEN, ...env });
  try {
    return await use(runner);
  } finally {
    await runner.stop('SIGKILL');
  }
}

async function fakeServer(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function check(row: BadInput, run: CatalogueRun, extra: string[] = []): void {
  assertRow(row, run, lines(run));
  for (const secret of [sentinelPassword(), TOKEN]) assertNoSecret([...run.outputs, ...extra], secret);
}

describe('runner rows', () => {
  test('runner.unauthorized', async () => {
    await withRunner({ [envName('cat pg')]: testbedEnv('DBPROBE_TEST_PG_URL') }, async (runner) => {
      const run = await viaRunner(runner.url, { token: `wrong-${TOKEN}` });
      check(badInput('runner.unauthorized'), run, [runner.stderr()]);
    });
  });

  test('runner.missing-token', async () => {
    const run = await viaRunner('http://127.0.0.1:1');
    check(badInput('runner.missing-token'), run);
  });

  test('runner.unreachable', async () => {
    const run = await viaRunner(`http://127.0.0.1:${await closedPort()}`, { token: TOKEN });
    check(badInput('runner.unreachable'), run);
  });

  test('runner.server-error', async () => {
    const { url, server } = await fakeServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(
        '<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n</body>\n</html>\n',
      );
    });
    try {
      check(badInput('runner.server-error'), await viaRunner(url, { token: TOKEN }));
    } finally {
      server.close();
    }
  });

  test('runner.not-ndjson', async () => {
    const { url, server } = await fakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html>\n<html><body>Welcome to nginx!</body></html>\n');
    });
    try {
      check(badInput('runner.not-ndjson'), await viaRunner(url, { token: TOKEN }));
    } finally {
      server.close();
    }
  });

  test('runner.target-refused', async () => {
    const url = new URL(testbedEnv('DBPROBE_TEST_PG_URL'));
    url.port = String(await closedPort());
    await withRunner({ [envName('cat pg')]: url.toString() }, async (runner) => {
      const run = await viaRunner(runner.url, { token: TOKEN, target: pgTarget(url.toString()) });
      check(badInput('runner.target-refused'), run, [runner.stderr()]);
    });
  });

  test('runner.cut-mid-run: the samples that arrived are kept', async () => {
    const pg = new URL(testbedEnv('DBPROBE_TEST_PG_URL'));
    const watch = await startByteWatch(pg.hostname, Number(pg.port));
    const viaWatch = new URL(pg);
    viaWatch.port = String(watch.port);
    try {
      await withRunner({ [envName('cat pg')]: viaWatch.toString() }, async (runner) => {
        // Killed once PostgreSQL has answered the handshake and a good number of queries.
        const struck = Promise.race([
          watch.after(4_000),
          new Promise((_resolve, reject) =>
            setTimeout(() => reject(new Error('the runner never queried PostgreSQL')), 20_000).unref(),
          ),
        ]);
        const killed = struck.then(async () => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          await runner.stop('SIGKILL');
        });
        const run = await viaRunner(runner.url, {
          token: TOKEN,
          target: pgTarget(viaWatch.toString()),
          kinds: ['subsequent'],
          iterations: 10_000,
        });
        await killed;
        check(badInput('runner.cut-mid-run'), run, [runner.stderr()]);
        const result = JSON.parse(run.stdout) as { measurements: { stats: { count: number } }[] };
        assert.ok(
          (result.measurements[0]?.stats.count ?? 0) > 0,
          `the partial report shows the samples: ${run.stdout.slice(0, 300)}`,
        );
      });
    } finally {
      await watch.close();
    }
  });

  test('runner.bad-plan: the runner answers one JSON error line; the CLI refuses the same plan', async () => {
    const row = badInput('runner.bad-plan');
    await withRunner({}, async (runner) => {
      const response = await fetch(`${runner.url}/v1/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          plan: { targets: [{ name: 'a', driver: 'pg', connection: 'env:CAT_PG' }], iterations: 0 },
        }),
      });
      const body = (await response.json()) as { error: { code: string; message: string } };
      const line = `${response.status} ${body.error.code}: ${body.error.message}`;
      assert.match(line, row.line);
      assert.doesNotMatch(line, /\n|^\s+at /m);
      assertNoSecret([line, runner.stderr()], TOKEN);
    });
    const run = await runCatalogueCli([pgTarget()], {
      extraConfig: { iterations: 0 },
      extraArgs: ['--runner', 'http://127.0.0.1:1'],
      env: { DBPROBE_TOKEN: TOKEN },
    });
    assert.equal(run.code, row.exit, run.stderr);
    assert.match(run.stderr, /iterations: must be a whole number from 1 to 1000000 \(got 0\)/);
  });
});
