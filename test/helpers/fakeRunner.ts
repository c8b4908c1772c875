/**
 * A stand-in runner on 127.0.0.1 for the places tests: it answers POST /v1/runs with a `start` and
 * three samples of target "pg" (1000, 1001, 1002 us), then does what `mode` says: `die` resets the
 * socket (a runner killed mid-run), `hang` holds the connection open and sends nothing more (a hung
 * runner), `refuse` answers 403 with a runner error body before any event.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProbeEvent } from '../../src/shared/events';
import { TEST_HEADER } from './events';

export type FakeRunnerMode = 'die' | 'hang' | 'refuse';

export interface FakeRunner {
  url: string;
  /** How many runs were asked for. */
  requests: () => number;
  close: () => Promise<void>;
}

export const FAKE_SAMPLES = 3;

export async function startFakeRunner(mode: FakeRunnerMode): Promise<FakeRunner> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
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
    }
    if (mode === 'die') setTimeout(() => res.socket?.destroy(), 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
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
