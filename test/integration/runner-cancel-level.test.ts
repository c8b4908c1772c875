/**
 * Ctrl-C during a `dbprobe run --runner` load level keeps the level the runner measured: the CLI asks
 * the runner to cancel (its cancel route), the runner ends its stream with `done` and its own partial
 * result, and the result the CLI saves (`--out`) holds that result's level figures, unchanged. The
 * runner's own result is read off the wire by a recording HTTP pass-through between the CLI and the
 * runner (a separate process on 127.0.0.1), so the check does not trust the CLI's reading of it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunResult } from '../../src/shared/result';
import { RUNNER_ROUTES } from '../../src/shared/runnerApi';
import { configDir, runCli } from '../helpers/cli';
import { startRunnerProcess, type RunnerProcess } from '../helpers/runnerProcess';
import { assertMatchesSchema } from '../helpers/schema';
import { testbedEnv } from '../helpers/testbed';

const TOKEN = 'cancel-level-token-' + 'q'.repeat(24);
/** Sent this long after level 1's last progress line: level 2 is then under way, far from its end. */
const INTO_LEVEL_TWO_MS = 800;
const DURATION_S = 3;

interface Exchange {
  method: string;
  path: string;
  status: number;
  body: string;
}

/** An HTTP pass-through to `upstream` that records every exchange (bounded: a run's stream is small). */
async function recordingProxy(
  upstream: string,
): Promise<{ url: string; exchanges: Exchange[]; server: Server }> {
  const target = new URL(upstream);
  const exchanges: Exchange[] = [];
  const server = createServer((req, res) => {
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          res.write(chunk);
        });
        answer.on('end', () => {
          exchanges.push({
            method: req.method ?? '',
            path: req.url ?? '',
            status: answer.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          });
          res.end();
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exchanges, server };
}

describe('Ctrl-C during a --runner load level', () => {
  let runner: RunnerProcess;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  before(async () => {
    runner = await startRunnerProcess({ DBPROBE_TOKEN: TOKEN, PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') });
    proxy = await recordingProxy(runner.url);
  });
  after(async () => {
    proxy.server.closeAllConnections();
    await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    await runner.stop();
  });

  test("the saved result holds the runner's own figures of both levels, the cut one included", async () => {
    const cwd = configDir({ targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG_URL' }] });
    let pid: number | undefined;
    let sent = false;
    const run = await runCli(
      [
        'run',
        '--runner',
        proxy.url,
        '--kinds',
        'load',
        '--sweep',
        '1,2',
        '--duration',
        String(DURATION_S),
        '--format',
        'json',
        '--out',
        'result.json',
      ],
      {
        cwd,
        env: { DBPROBE_TOKEN: TOKEN },
        timeoutMs: 60_000,
        onSpawn: (p) => (pid = p),
        onStderr: (chunk) => {
          if (sent || !/level 1\/2 \([\d.]+\): .*, done/.test(chunk)) return;
          sent = true;
          setTimeout(() => pid !== undefined && process.kill(pid, 'SIGINT'), INTO_LEVEL_TWO_MS);
        },
      },
    );
    assert.equal(run.code, 130, run.stderr);
    assert.ok(sent, 'level 1 ended and the Ctrl-C was sent during level 2');

    // The runner's side: the run's stream, ended by `done` with the runner's own result.
    const stream = proxy.exchanges.find((e) => e.method === 'POST' && e.path === RUNNER_ROUTES.runs);
    assert.ok(stream, JSON.stringify(proxy.exchanges.map((e) => [e.method, e.path])));
    const lines = stream.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; runId?: string; result?: RunResult });
    const runId = lines.find((l) => l.type === 'start')?.runId;
    assert.ok(runId);
    const done = lines.at(-1);
    assert.equal(done?.type, 'done', 'the runner finished its stream after the cancel');
    const own = done.result;
    assert.ok(own);
    // It was asked, once, through its cancel route, and took it.
    const cancels = proxy.exchanges.filter((e) => e.path.endsWith('/cancel'));
    assert.deepEqual(
      cancels.map((e) => [e.method, e.path, e.status]),
      [['POST', RUNNER_ROUTES.cancel(runId), 202]],
    );

    // The CLI's side: the saved result is the runner's, level for level.
    const saved = JSON.parse(readFileSync(path.join(cwd, 'result.json'), 'utf8')) as RunResult;
    assertMatchesSchema('result', saved);
    assert.equal(saved.state, 'cancelled');
    assert.equal(saved.id, own.id);
    const ownLevels = own.measurements[0]?.load?.levels ?? [];
    assert.equal(ownLevels.length, 2, 'the runner measured both levels, the one under way included');
    assert.equal(ownLevels[1]?.cut, true, 'and marked the second one cut');
    assert.ok((ownLevels[1]?.durationUs ?? Infinity) < DURATION_S * 1e6);
    assert.ok((ownLevels[1]?.stats.count ?? 0) > 0, 'the cut level had answered queries');
    assert.deepEqual(saved.measurements[0]?.load?.levels, ownLevels);
    assert.deepEqual(saved.measurements[0]?.stats, own.measurements[0]?.stats);
    assert.ok(!run.stdout.includes(TOKEN) && !run.stderr.includes(TOKEN));
  });
});
