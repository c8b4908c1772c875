/**
 * Wire figures from the samples to every view: the per-kind medians and most frequent
 * TLS values (wireFigures.ts), a sample with no socket naming why nothing was counted (through the
 * real engine with fake drivers), and the rows the Markdown report and the panel's view model show,
 * the client's share of a connect included.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { WireRecorder } from '../../src/core/wireFigures';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { formatMarkdown } from '../../src/report/markdown';
import type { RunResult } from '../../src/shared/result';
import { wireRows } from '../../src/shared/wireRows';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

test('per kind: the lower median of each count, the most frequent TLS values, the first reason', () => {
  const recorder = new WireRecorder();
  assert.deepEqual(recorder.figures(), {}, 'nothing recorded: no wire figures at all');
  const tls13 = { tlsVersion: 'TLSv1.3', tlsCipher: 'TLS_AES_256_GCM_SHA384', alpn: 'http/1.1' };
  recorder.record(
    { roundTrips: 6, bytesSent: 700, bytesReceived: 1_600, clientCpuUs: 900, ...tls13 },
    undefined,
  );
  recorder.record(
    { roundTrips: 7, bytesSent: 720, bytesReceived: 1_700, clientCpuUs: 1_100, ...tls13 },
    {
      clientCpu: 'first reason',
    },
  );
  recorder.record(
    { roundTrips: 6, bytesSent: 710, bytesReceived: 1_650, clientCpuUs: 1_000, tlsVersion: 'TLSv1.2' },
    { clientCpu: 'second reason' },
  );
  recorder.record(
    { roundTrips: 8, bytesSent: 730, bytesReceived: 1_690, clientCpuUs: 1_200, ...tls13 },
    undefined,
  );
  assert.deepEqual(recorder.figures().wire, {
    roundTrips: 6,
    bytesSent: 710,
    bytesReceived: 1_650,
    clientCpuUs: 1_000,
    tlsVersion: 'TLSv1.3',
    tlsCipher: 'TLS_AES_256_GCM_SHA384',
    alpn: 'http/1.1',
    unmeasured: { clientCpu: 'first reason' },
  });
});

async function fakeRun(): Promise<RunResult> {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('db', clock, { connectUs: [4_000], queryUs: [1_000] }, new FakeDriverStats()),
  ]);
  return runPlan(plan([target('db')], { kinds: ['initial', 'subsequent'], iterations: 5 }), {
    registry,
    resolveConnection: async () => 'fake://u:p@h/db',
    tool: TOOL,
    clock,
    watchClient: false,
  });
}

test('a driver that opens no socket: client CPU only, every wire count named as not counted, with why', async () => {
  const result = await fakeRun();
  const initial = result.measurements.find((m) => m.kind === 'initial')!;
  assert.ok(initial.wire?.clientCpuUs !== undefined, JSON.stringify(initial.wire));
  assert.equal(initial.wire?.roundTrips, undefined, 'never a zero in place of a count');
  assert.match(initial.wire?.unmeasured?.roundTrips ?? '', /no socket/);
  assert.match(initial.wire?.unmeasured?.bytes ?? '', /no socket/);
  const subsequent = result.measurements.find((m) => m.kind === 'subsequent')!;
  assert.match(subsequent.wire?.unmeasured?.roundTrips ?? '', /no socket/);
  const markdown = formatMarkdown(result);
  assert.match(markdown, /### What crosses the wire/);
  assert.match(markdown, /\| db \| initial \| not counted\[\^phase-\d+\] \|/);
  assert.match(markdown, /db \(initial\): round trips: the sample opened no socket/);
});

test('counted figures: the same rows in the Markdown and the view model, with the client share', async () => {
  const result = await fakeRun();
  const initial = result.measurements.find((m) => m.kind === 'initial')!;
  initial.phases = { ...initial.phases!, connect: { ...initial.phases!.connect, p50Us: 4_000 } };
  initial.wire = {
    roundTrips: 6,
    tcpHandshakes: 1,
    bytesSent: 1_146,
    bytesReceived: 1_732,
    tlsVersion: 'TLSv1.3',
    tlsCipher: 'TLS_AES_256_GCM_SHA384',
    clientCpuUs: 1_000,
  };
  const rows = wireRows(result.measurements);
  const row = rows.find((r) => r.kind === 'initial')!;
  assert.equal(row.clientShare, 0.25, 'client CPU over the connect p50');
  assert.equal(row.tls, 'TLSv1.3 TLS_AES_256_GCM_SHA384');
  const markdown = formatMarkdown(result);
  assert.match(
    markdown,
    /\| db \| initial \| 6 \| 1 \| 1\.1 KB \| 1\.7 KB \| TLSv1\.3 TLS_AES_256_GCM_SHA384 \| - \| 1\.000 \| 25% \|/,
  );
  assert.match(
    markdown,
    /db \(initial\): the client's own work is 25% of a connect \(1\.000 ms of CPU in a 4\.000 ms/,
  );
  const model = buildRunViewModel(result);
  assert.deepEqual(model.wire, rows, 'the panel gets the rows the report prints');
});
