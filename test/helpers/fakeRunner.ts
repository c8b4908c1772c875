/**
 * A stand-in runner on 127.0.0.1 for the places tests: it answers POST /v1/runs with a `start` and
 * three samples of target "pg" (1000, 1001, 1002 us), then does what `mode` says: `die` resets the
 * socket (a runner killed mid-run), `hang` holds the connection open and sends nothing more (a hung
 * runner), `refuse` answers 403 with a runner error body before any event. Its cancel route answers
 * 404 (another instance runs it: the caller hangs up) except in `cancellable` mode, which hangs like
 * `hang` until the cancel, then ends the run's stream with `done` and a cancelled result that holds
 * FAKE_LOAD_LEVEL, a load level's figures no event carried (as a real runner's partial result does).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ResultBuilder } from '../../src/core/resultBuilder';
import type { ProbeEvent } from '../../src/shared/events';
import type { LoadLevelFigures } from '../../src/shared/loadResult';
import { TEST_HEADER } from './events';

export type FakeRunnerMode = 'die' | 'hang' | 'refuse' | 'cancellable';

export interface FakeRunner {
  url: string;
  /** How many runs were asked for. */
  requests: () => number;
  /** The cancel requests that came, by path. */
  cancels: () => string[];
  close: () => Promise<void>;
}

export const FAKE_SAMPLES = 3;

/** The level a `cancellable` fake's partial result holds: cut after 1.2 s, 6,000 answers. */
export const FAKE_LOAD_LEVEL: LoadLevelFigures = {
  level: 2,
  durationUs: 1_200_000,
  cut: true,
  throughput: 5_000,
  stats: {
    count: 6_000,
    errors: 0,
    errorRate: 0,
    minUs: 100,
    meanUs: 200,
    stddevUs: 10,
    p50Us: 200,
    p90Us: 210,
    p95Us: 220,
    p99Us: 250,
    p999Us: 300,
    maxUs: 400,
  },
};

export async function startFakeRunner(mode: FakeRunnerMode): Promise<FakeRunner> {
  let requests = 0;
  const cancels: string[] = [];
  const open: ((events: ProbeEvent[]) => void)[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.url?.endsWith('/cancel')) {
      cancels.push(req.url);
      const end = mode === 'cancellable' ? open.shift() : undefined;
      res.writeHead(end ? 202 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(end ? { cancelled: 'r' } : { error: { code: 'not_found', message: 'no run' } }));
      end?.([]);
      return;
    }
    requests++;
    if (mode === 'refuse') {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { code: 'connection_refused_by_policy', message: 'host x is not allowed' } }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const start: ProbeEvent = {
      type: 'start',
      runId: 'r',
      targets: ['pg'],
      kinds: ['initial'],
      totalSamples: 10,
      header: {
        ...TEST_HEADER,
        targets: [{ name: 'pg', driver: 'pg', transport: 'tcp', connection: 'env:PG', query: 'SELECT 1' }],
      },
    };
    res.write(JSON.stringify(start) + '\n');
    const sent: ProbeEvent[] = [start];
    for (let i = 0; i < FAKE_SAMPLES; i++) {
      const sample: ProbeEvent = {
        type: 'sample',
        target: 'pg',
        kind: 'initial',
        phase: 'measure',
        index: i,
        atUs: i * 2000,
        us: 1000 + i,
      };
      res.write(JSON.stringify(sample) + '\n');
      sent.push(sample);
    }
    if (mode === 'die') setTimeout(() => res.socket?.destroy(), 50);
    if (mode === 'cancellable')
      open.push(() => {
        const builder = new ResultBuilder();
        for (const event of sent) builder.add(event);
        const result = builder.build('cancelled by the user')!;
        const load = {
          model: 'closed' as const,
          durationS: 2,
          maxErrorRate: 0.01,
          latencyStat: 'p99' as const,
          levels: [FAKE_LOAD_LEVEL],
        };
        result.measurements.push({ ...result.measurements[0]!, kind: 'load', load });
        res.end(JSON.stringify({ type: 'done', result } satisfies ProbeEvent) + '\n');
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    cancels: () => cancels,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port that was free a moment ago: nothing listens there. */
export async function deadRunnerUrl(): Promise<string> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}
