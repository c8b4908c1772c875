/**
 * The network rows of the bad-input catalogue (test/catalogue/badInputs.ts): every network driver
 * against a closed port, a name under .invalid, [::1], a SYN-dropping port, TLS asked of a
 * plaintext server, wrong credentials and toxiproxy's reset_peer, timeout, slicer and bandwidth; and
 * a reset in the middle of a run, whose samples measured before the fault must stay in the report.
 * One CLI process per fault runs every driver; each row asserts its own line of it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BAD_INPUTS, NETWORK_FAULT_IDS, targetName, type BadInput } from '../catalogue/badInputs';
import { assertQuiet, assertRow } from '../catalogue/assertRow';
import { targetLines, type CatalogueRun } from '../catalogue/cliRun';
import { runFaultGroup } from '../catalogue/faultGroups';
import { createLanes } from '../catalogue/lanes';
import { startCatalogueServers, type CatalogueServers } from '../catalogue/variants';
import { assertNoSecret, sentinelPassword } from '../helpers/testbed';
import { CATALOGUE_TOKEN } from '../catalogue/variants';

let servers: CatalogueServers;
before(async () => {
  servers = await startCatalogueServers();
  // Start every group now; each row awaits its own.
  for (const fault of NETWORK_FAULT_IDS) void groupRun(fault).catch(() => undefined);
  void groupRun('reset-mid-run', 'json').catch(() => undefined);
});
after(async () => {
  await servers?.close();
});

const runs = new Map<string, Promise<CatalogueRun>>();
const groupRun = (fault: string, format: 'markdown' | 'json' = 'markdown') => {
  const key = `${fault}/${format}`;
  let run = runs.get(key);
  const lane = SLOW_GROUPS.includes(fault) ? slowLane : fastLane;
  if (!run) runs.set(key, (run = lane.run(() => runFaultGroup(fault, servers, { format }))));
  return run;
};
/**
 * Groups that wait on timeouts run in their own lane beside the quick ones: the file stays short and
 * the CPU uncrowded, so no quick fault turns into a timeout on a busy machine.
 */
const SLOW_GROUPS = ['unreachable', 'timeout', 'slicer', 'bandwidth', 'reset-mid-run'];
const fastLane = createLanes(1);
const slowLane = createLanes(1);

function checkRow(row: BadInput, run: CatalogueRun): void {
  const name = targetName(row.variant!);
  assertRow(row, run, targetLines(run, name));
  assertNoSecret(run.outputs, sentinelPassword());
  assertNoSecret(run.outputs, CATALOGUE_TOKEN);
}

for (const fault of NETWORK_FAULT_IDS) {
  describe(`network fault: ${fault}`, () => {
    for (const row of BAD_INPUTS.filter((r) => r.area === 'network' && r.id.endsWith(`.${fault}`))) {
      if (row.notTestable) {
        test.todo(`${row.id}: ${row.notTestable}`);
        continue;
      }
      test(row.id, async () => {
        const run = await groupRun(fault);
        checkRow(row, run);
        if (row.exit === 0) {
          // Measured, slowly: the report has the target's row with its one sample, and that sample
          // paid for the link. Toxiproxy lets 4 bytes through per ms, so what the server sent takes
          // bytes / 4 ms; half of that is the floor (a goodbye may come after the sample ended, and
          // toxiproxy rounds each chunk's wait down), still many times a loopback connect.
          const name = targetName(row.variant!);
          const line = new RegExp(
            `\\| ${name} \\| [\\w-]+ \\| \\w+ \\| 1 \\| [\\d.]+ \\| ([\\d.]+) \\|`,
          ).exec(run.stdout);
          assert.ok(line, `${name}: a row with one sample`);
          const bytes = run.serverBytes?.[name] ?? 0;
          assert.ok(bytes > 40, `${name}: the server sent ${bytes} bytes through the slow link`);
          const p50Ms = Number(line[1]);
          assert.ok(
            p50Ms >= (0.5 * bytes) / 4,
            `${name}: ${p50Ms} ms for ${bytes} bytes at 4 KB/s (at least ${(0.5 * bytes) / 4} ms)`,
          );
          console.log(`${name} through 4 KB/s: ${bytes} bytes from the server, p50 ${p50Ms} ms`);
        }
      });
    }
  });
}

describe('a server that closes connections mid-run: the samples before the fault are kept', () => {
  for (const row of BAD_INPUTS.filter((r) => r.area === 'mid-run')) {
    test(row.id, async () => {
      const run = await groupRun('reset-mid-run', 'json');
      checkRow(row, run);
      const result = JSON.parse(run.stdout) as {
        measurements: {
          target: string;
          stats: { count: number; errors: number };
          samples: { values: unknown[] };
        }[];
      };
      const m = result.measurements.find((x) => x.target === targetName(row.variant!));
      assert.ok(m, 'the target is in the report');
      assert.ok(m.stats.count > 0, `samples measured before the reset are kept: ${JSON.stringify(m.stats)}`);
      assert.ok(m.stats.errors > 0, 'the reset shows as failed samples');
      assert.ok(m.samples.values.length > 0, 'raw samples kept');
      assertQuiet(run);
    });
  }
});
