/**
 * The leak scan: the testbed password and a token of our own are planted in every target of the
 * catalogue; every failing network case runs again with each export written by `--out` (JSON, CSV;
 * the Markdown on stdout is scanned by bad-inputs-network.test.ts), then a run through the Node
 * runner process (a refused target, a wrong token) and a config holding a literal connection string.
 * Every output is scanned for each secret raw, percent-encoded and base64 (also of `user:secret`):
 * stdout, stderr, the exported file, the runner's responses and its stderr log.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { NETWORK_FAULT_IDS } from '../catalogue/badInputs';
import { envName, runCatalogueCli } from '../catalogue/cliRun';
import { closedPort } from '../catalogue/endpoints';
import { runFaultGroup } from '../catalogue/faultGroups';
import { createLanes } from '../catalogue/lanes';
import { CATALOGUE_TOKEN, startCatalogueServers, type CatalogueServers } from '../catalogue/variants';
import { configDir, runCli } from '../helpers/cli';
import { startRunnerProcess } from '../helpers/runnerProcess';
import { assertNoSecret, sentinelPassword, testbedEnv } from '../helpers/testbed';

const RUNNER_TOKEN = `leaktok-${randomBytes(12).toString('hex')}`;
let servers: CatalogueServers;
before(async () => {
  servers = await startCatalogueServers();
});
after(async () => {
  await servers?.close();
});

test('no secret in any output of any failing case', async () => {
  const outputs: { what: string; text: string }[] = [];
  const lanes = createLanes(2);
  const failing = [...NETWORK_FAULT_IDS.filter((f) => f !== 'bandwidth'), 'reset-mid-run'];
  await Promise.all(
    failing.flatMap((fault) =>
      (['json', 'csv'] as const).map((format) =>
        lanes.run(async () => {
          const run = await runFaultGroup(fault, servers, { format, out: true });
          assert.ok(run.exported, `${fault}: the ${format} export was written`);
          run.outputs.forEach((text, i) => outputs.push({ what: `${fault} ${format} #${i}`, text }));
        }),
      ),
    ),
  );

  // Through the runner: a refused target (the secret is in the runner's env), then a wrong token.
  const refused = new URL(testbedEnv('DBPROBE_TEST_PG_URL'));
  refused.port = String(await closedPort());
  const runner = await startRunnerProcess({
    DBPROBE_TOKEN: RUNNER_TOKEN,
    [envName('cat pg')]: refused.toString(),
  });
  try {
    for (const token of [RUNNER_TOKEN, `${RUNNER_TOKEN}-wrong`]) {
      const run = await runCatalogueCli([{ name: 'cat pg', driver: 'pg', url: refused.toString() }], {
        extraArgs: ['--runner', runner.url],
        format: 'json',
        out: true,
        env: { DBPROBE_TOKEN: token },
      });
      assert.equal(run.code, 1, run.stderr);
      run.outputs.forEach((text, i) => outputs.push({ what: `runner #${i}`, text }));
    }
    const response = await fetch(`${runner.url}/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${RUNNER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        plan: {
          targets: [{ name: 'cat pg', driver: 'pg', connection: `env:${envName('cat pg')}` }],
          iterations: 1,
          warmup: 0,
          kinds: ['initial'],
        },
      }),
    });
    outputs.push({ what: 'runner response', text: await response.text() });
  } finally {
    await runner.stop();
  }
  outputs.push({ what: 'runner log', text: runner.stderr() });

  // A literal connection string in the config file.
  const cwd = configDir({
    targets: [{ name: 'a', driver: 'pg', connection: testbedEnv('DBPROBE_TEST_PG_URL') }],
  });
  const literal = await runCli(['run'], { cwd });
  assert.equal(literal.code, 2, literal.stderr);
  outputs.push({ what: 'literal config', text: literal.stdout + literal.stderr });

  assert.ok(outputs.length > 40, `scanned ${outputs.length} outputs`);
  for (const { what, text } of outputs) {
    for (const secret of [sentinelPassword(), CATALOGUE_TOKEN, RUNNER_TOKEN]) {
      assert.doesNotThrow(() => assertNoSecret([text], secret), `${what} leaks a secret`);
    }
  }
});
