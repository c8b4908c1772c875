/**
 * The runner's health route is asked through the one client (src/places/runnerClient.ts), which
 * checks the answer's shape for every caller: a 200 that is an HTML page, or JSON that is no health
 * report, is "not a dbprobe runner" in the CLI's preflight and in the editor's runner check alike.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { checkRunners } from '../../src/cli/runnerPreflight';
import { checkRunnerHealth } from '../../src/extension/runners/health';
import { fetchRunnerHealth, NOT_A_RUNNER, type RunnerClientError } from '../../src/places/runnerClient';
import { RUNNER_ROUTES, type RunnerHealth } from '../../src/shared/runnerApi';
import { Redactor } from '../../src/shared/redact';

const HEALTH: RunnerHealth = {
  version: '1.0.0',
  runtime: 'node v20',
  region: 'test-1',
  drivers: ['pg'],
  acceptsClientConnections: false,
  limits: {
    maxBodyBytes: 1,
    maxIterations: 1,
    maxWarmup: 1,
    maxTargets: 1,
    maxDurationMs: 1,
    maxConcurrentRuns: 1,
  },
};

/** Answers the health route by the first path segment: /runner, /html or /json. */
const BODIES: Record<string, { type: string; body: string }> = {
  runner: { type: 'application/json', body: JSON.stringify(HEALTH) },
  html: { type: 'text/html', body: '<html><body>Welcome to nginx!</body></html>' },
  json: { type: 'application/json', body: JSON.stringify({ status: 'ok', drivers: 'pg' }) },
};

describe("the runner client's health check", () => {
  let server: Server;
  let base = '';
  const paths: string[] = [];
  before(async () => {
    server = createServer((request, response) => {
      paths.push(request.url ?? '');
      const kind = (request.url ?? '').split('/')[1] ?? '';
      const answer = BODIES[kind];
      if (!answer) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': answer.type }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a runner: its report, from the one health route', async () => {
    assert.deepEqual(await fetchRunnerHealth(`${base}/runner`, 't'), HEALTH);
    assert.equal(paths.at(-1), `/runner${RUNNER_ROUTES.health}`);
    assert.deepEqual(await checkRunnerHealth(`${base}/runner`, 't'), { ok: true, health: HEALTH });
  });

  for (const kind of ['html', 'json']) {
    test(`${kind}: not a runner, for the client, the editor and the CLI alike`, async () => {
      const url = `${base}/${kind}`;
      await assert.rejects(fetchRunnerHealth(url, 't'), (error: RunnerClientError) => {
        assert.equal(error.code, NOT_A_RUNNER);
        assert.match(error.message, /not a dbprobe health report/);
        return true;
      });
      const editor = await checkRunnerHealth(url, 't');
      assert.deepEqual(editor, {
        ok: false,
        problem: `${url} answered, but not like a DB Probe runner (no health report at ${RUNNER_ROUTES.health}): check the URL`,
      });
      await assert.rejects(
        checkRunners([url], 't', { targets: [] }, new Redactor(), new AbortController().signal),
        /^CliError: runner .* answered its health check with something that is not a dbprobe health report.*the fan-out did not start/,
      );
    });
  }
});
