/**
 * The check that a connect's steps are right, not only that they add up (handshake is the remainder,
 * so the sum holds by construction). Behind a link that delays every server answer by L, each step
 * costs the round trips it waits for: TCP to the proxy none (the proxy accepts at once), TLS one or
 * two, PostgreSQL's SSLRequest one and its SCRAM login three, the first query one. A step
 * that took in its neighbour's time (TLS counted from the socket's creation, TCP until the connection
 * was ready) lands outside its bounds.
 */
import assert from 'node:assert/strict';
import type { Measurement } from '../../src/shared/result';

export interface StepRoundTrips {
  /** Round trips of the TLS step (absent: a plaintext connection). */
  tls?: number;
  /** At least this many round trips in the handshake step (the login after TCP and TLS). */
  handshakeAtLeast: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * Each step's median over the samples against its round trips (a wrong step is wrong in every
 * sample; a busy machine delays a few of them by tens of ms, which the median leaves out).
 */
export function assertStepsByRoundTrips(
  label: string,
  m: Measurement,
  latencyMs: number,
  trips: StepRoundTrips,
): void {
  const L = latencyMs * 1000;
  const samples = m.samples.values.filter((s) => s.us !== undefined && s.connectUs !== undefined);
  assert.ok(samples.length > 0, `${label}: samples kept`);
  const steps = {
    tcp: median(samples.map((s) => s.tcpUs ?? NaN)),
    tls: median(samples.map((s) => s.tlsUs ?? NaN)),
    handshake: median(samples.map((s) => s.handshakeUs ?? NaN)),
    query: median(samples.map((s) => s.us! - s.connectUs!)),
  };
  const text = `${label} behind ${latencyMs} ms, medians in µs: ${JSON.stringify(steps)}`;
  console.log(text);
  assert.ok(steps.tcp < L / 2, `TCP waits for no server answer: ${text}`);
  if (trips.tls === undefined) assert.ok(Number.isNaN(steps.tls), `no TLS step: ${text}`);
  else
    assert.ok(
      steps.tls >= trips.tls * L && steps.tls < (trips.tls + 1) * L,
      `TLS waits ${trips.tls} round trip(s): ${text}`,
    );
  assert.ok(
    steps.handshake >= trips.handshakeAtLeast * L,
    `the login waits at least ${trips.handshakeAtLeast} round trips: ${text}`,
  );
  assert.ok(steps.query >= L && steps.query < 2 * L, `the first query waits one round trip: ${text}`);
}
