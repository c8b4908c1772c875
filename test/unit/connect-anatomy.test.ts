/**
 * The anatomy of a connect on a fake clock: which socket event ends which step, how TLS is timed for a
 * socket that makes its own TCP connection and for an upgrade over an open one, what is absent and what
 * is unmeasured, and how a measurement aggregates the steps and counts TLS handshakes (live and rebuilt
 * from sample events).
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { test } from 'node:test';
import type { Driver } from '../../src/core/driver';
import { runPlan } from '../../src/core/engine';
import type { SampleTiming } from '../../src/core/sampleTiming';
import { MeasurementState } from '../../src/core/measurementState';
import { ResultBuilder } from '../../src/core/resultBuilder';
import {
  attributingSockets,
  phaseReporter,
  withSocketPhases,
  type SocketPhases,
} from '../../src/core/socketPhases';
import { openHttpSession as openFetchSession } from '../../src/drivers/httpSessionFetch';
import type { ProbeEvent } from '../../src/shared/events';
import type { ConnectStep } from '../../src/shared/result';
import { FakeClock, fakeInfo, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

class FakeSocket extends EventEmitter {
  constructor(
    readonly encrypted: boolean,
    private readonly reused = false,
  ) {
    super();
  }
  isSessionReused(): boolean {
    return this.reused;
  }
  asSocket(): Socket {
    return this as unknown as Socket;
  }
}

/** Runs a connect on the fake clock: `steps` advance the clock and fire socket events in order. */
async function anatomy(
  clock: FakeClock,
  steps: (report: typeof phaseReporter) => void,
): Promise<SocketPhases> {
  const start = clock.nowNs();
  const watched = withSocketPhases(clock, async () => steps(phaseReporter));
  await watched.done;
  watched.release();
  return watched.phases(start, clock.nowNs());
}

test('a TLS socket making its own TCP connection: dns, tcp, tls from its events, handshake the rest', async () => {
  const clock = new FakeClock();
  const phases = await anatomy(clock, (report) => {
    clock.advanceUs(300); // the client's own setup before its socket: counted in handshake
    const socket = new FakeSocket(true);
    report.socket(socket.asSocket());
    clock.advanceUs(1_000);
    socket.emit('lookup');
    clock.advanceUs(2_000);
    socket.emit('connect');
    clock.advanceUs(4_000);
    socket.emit('secureConnect');
    clock.advanceUs(8_000); // the protocol's handshake and auth
  });
  assert.deepEqual(phases, {
    dnsUs: 1_000,
    tcpUs: 2_000,
    tlsUs: 4_000,
    tlsResumed: false,
    handshakeUs: 8_300,
  });
});

test("a tls.connect() socket's own connect listener (it builds the ClientHello) is TLS time, not TCP", async () => {
  const clock = new FakeClock();
  const phases = await anatomy(clock, (report) => {
    const socket = new FakeSocket(true);
    // Node registers its TLS start on `connect` inside tls.connect(), before the driver hands the
    // socket over: the key shares are computed there, before any later listener runs.
    socket.once('connect', () => clock.advanceUs(700));
    report.socket(socket.asSocket());
    clock.advanceUs(2_000);
    socket.emit('connect');
    clock.advanceUs(4_000);
    socket.emit('secureConnect');
  });
  assert.equal(phases.tcpUs, 2_000, 'the TCP step is the wire only');
  assert.equal(phases.tlsUs, 4_700, 'the ClientHello built on `connect` is part of the TLS step');
});

test('an upgrade over the open socket (pg, mysql2): TLS from its start, the SSLRequest round trip stays in handshake', async () => {
  const clock = new FakeClock();
  const phases = await anatomy(clock, (report) => {
    const socket = new FakeSocket(false);
    report.socket(socket.asSocket());
    clock.advanceUs(2_000);
    socket.emit('connect');
    clock.advanceUs(500); // SSLRequest and the server's 'S'
    const secure = new FakeSocket(true, true);
    report.tlsSocket(secure);
    clock.advanceUs(3_000);
    secure.emit('secureConnect');
    clock.advanceUs(6_000);
  });
  assert.deepEqual(phases, { tcpUs: 2_000, tlsUs: 3_000, tlsResumed: true, handshakeUs: 6_500 });
});

test('plaintext: no tls step at all; an IP address: no dns step; only the first socket counts', async () => {
  const clock = new FakeClock();
  const phases = await anatomy(clock, (report) => {
    const socket = new FakeSocket(false);
    report.socket(socket.asSocket());
    clock.advanceUs(700);
    socket.emit('connect');
    const second = new FakeSocket(true);
    report.socket(second.asSocket());
    clock.advanceUs(1_000);
    second.emit('connect');
    second.emit('secureConnect');
  });
  assert.deepEqual(phases, { tcpUs: 700, handshakeUs: 1_000 });
});

test('a socket that connects after connect returned (opened in the background) gives no steps, only the reasons given', async () => {
  const clock = new FakeClock();
  const socket = new FakeSocket(false);
  const start = clock.nowNs();
  const watched = withSocketPhases(clock, async () => {
    phaseReporter.socket(socket.asSocket());
    phaseReporter.unmeasured('tcp', 'opened in the background');
    phaseReporter.unmeasured('tcp', 'a second reason is not kept');
    clock.advanceUs(50);
  });
  await watched.done;
  const ready = clock.nowNs();
  // The first query waits for the socket: it connects inside firstQuery, after connect returned.
  clock.advanceUs(900);
  socket.emit('connect');
  assert.deepEqual(watched.phases(start, ready), { unmeasured: { tcp: 'opened in the background' } });
  watched.release();
});

test('a TLS handshake that had not ended when connect returned is unmeasured, never guessed', async () => {
  const clock = new FakeClock();
  const phases = await anatomy(clock, (report) => {
    const socket = new FakeSocket(true);
    report.socket(socket.asSocket());
    clock.advanceUs(400);
    socket.emit('connect');
    clock.advanceUs(400);
  });
  assert.equal(phases.tlsUs, undefined);
  assert.match(phases.unmeasured?.tls ?? '', /did not end within connect/);
});

test('outside a sample the reporter does nothing', () => {
  const socket = new FakeSocket(true);
  phaseReporter.socket(socket.asSocket());
  phaseReporter.unmeasured('dns', 'nobody listens');
  assert.equal(socket.listenerCount('connect'), 0);
});

const TIMINGS: SampleTiming[] = [
  { us: 20_000, connectUs: 15_000, tcpUs: 1_000, tlsUs: 4_000, handshakeUs: 10_000, tlsResumed: false },
  { us: 22_000, connectUs: 16_000, tcpUs: 1_200, tlsUs: 4_400, handshakeUs: 10_400, tlsResumed: false },
  { us: 18_000, connectUs: 12_000, tcpUs: 1_100, tlsUs: 1_500, handshakeUs: 9_400, tlsResumed: true },
];

test('a measurement aggregates each step, counts full and resumed handshakes of measured samples, keeps the reasons', () => {
  const state = new MeasurementState({
    target: 't',
    kind: 'initial',
    sampleCap: 100,
    maxConsecutiveErrors: 10,
    reused: [],
  });
  // A warm-up sample counts nowhere.
  state.recordSuccess(true, 0, { ...TIMINGS[0]!, tlsUs: 99_000 });
  TIMINGS.forEach((timing, i) =>
    state.recordSuccess(false, (i + 1) * 30_000, {
      ...timing,
      ...(i === 0 ? { unmeasured: { dns: 'first reason' } } : { unmeasured: { dns: 'later reason' } }),
    }),
  );
  const phases = state.toMeasurement().phases;
  assert.ok(phases);
  assert.equal(phases.tls?.count, 3);
  assert.equal(phases.tls?.maxUs, 4_400);
  assert.equal(phases.tls?.minUs, 1_500);
  assert.equal(phases.handshake?.count, 3);
  assert.equal(phases.handshake?.maxUs, 10_400);
  assert.equal(phases.tcp?.count, 3);
  assert.equal(phases.dns, undefined);
  assert.deepEqual(phases.tlsHandshakes, { full: 2, resumed: 1 });
  assert.deepEqual(phases.unmeasured, { dns: 'first reason' });
  const kept = state.toMeasurement().samples.values;
  assert.deepEqual(kept[2], {
    atUs: 90_000,
    us: 18_000,
    connectUs: 12_000,
    tcpUs: 1_100,
    tlsUs: 1_500,
    tlsResumed: true,
    handshakeUs: 9_400,
  });
});

test('plaintext samples: no tls step and no handshake count; an older event without handshakeUs gets the remainder', () => {
  const state = new MeasurementState({
    target: 't',
    kind: 'initial',
    sampleCap: 100,
    maxConsecutiveErrors: 10,
    reused: [],
  });
  state.recordSuccess(false, 0, { us: 5_000, connectUs: 3_000, dnsUs: 200, tcpUs: 800 });
  const m = state.toMeasurement();
  assert.equal(m.phases?.tls, undefined);
  assert.equal(m.phases?.tlsHandshakes, undefined);
  assert.equal(m.phases?.unmeasured, undefined);
  assert.equal(m.phases?.handshake?.maxUs, 2_000);
  assert.equal(m.samples.values[0]?.handshakeUs, 2_000);
});

test('sample events carry the steps: a result rebuilt from them has the same phases', () => {
  const live = new MeasurementState({
    target: 't',
    kind: 'initial',
    sampleCap: 100,
    maxConsecutiveErrors: 10,
    reused: [],
  });
  const builder = new ResultBuilder();
  builder.add({
    type: 'start',
    runId: 'r',
    targets: ['t'],
    kinds: ['initial'],
    totalSamples: TIMINGS.length,
    header: { plan: { sampleCap: 100 } } as unknown as Extract<ProbeEvent, { type: 'start' }>['header'],
  });
  TIMINGS.forEach((timing, index) => {
    live.recordSuccess(false, index * 30_000, timing);
    builder.add({
      type: 'sample',
      target: 't',
      kind: 'initial',
      phase: 'measure',
      index,
      atUs: index * 30_000,
      ...timing,
    });
  });
  const rebuilt = builder.build('cut')!.measurements[0]!;
  assert.deepEqual(rebuilt.phases, live.toMeasurement().phases);
  assert.deepEqual(rebuilt.phases?.tlsHandshakes, { full: 2, resumed: 1 });
});

test('a Workers fetch session says why it shows no steps: tls only for https (plaintext has none)', async () => {
  for (const [origin, steps] of [
    ['https://db.example.com', ['dns', 'tcp', 'tls', 'handshake']],
    ['http://127.0.0.1:8080', ['dns', 'tcp', 'handshake']],
  ] as const) {
    const seen: ConnectStep[] = [];
    const session = await openFetchSession({
      origin,
      timeoutMs: 1_000,
      signal: new AbortController().signal,
      phases: {
        ...phaseReporter,
        unmeasured: (step, reason) => (seen.push(step), assert.match(reason, /fetch/)),
      },
    });
    session.destroy();
    assert.deepEqual(seen, steps, origin);
  }
});

test('a run cut short keeps the unmeasured steps: the first measured sample event of a target and kind carries the reasons', async () => {
  const reason = 'the client opens its own socket in the background';
  const driver: Driver = {
    info: fakeInfo('hidden'),
    async connect(options) {
      options.phases?.unmeasured('tcp', reason);
      return { async query() {}, async close() {}, destroy() {} };
    },
  };
  const events: ProbeEvent[] = [];
  const result = await runPlan(plan([target('hidden')], { kinds: ['initial'], iterations: 5, warmup: 1 }), {
    registry: fakeRegistry([driver]),
    resolveConnection: async () => 'fake://host/db',
    tool: TOOL,
    watchClient: false,
    onEvent: (event) => events.push(event),
  });
  const samples = events.filter((e): e is Extract<ProbeEvent, { type: 'sample' }> => e.type === 'sample');
  assert.equal(samples.length, 6, 'a warm-up and five measured samples');
  assert.deepEqual(
    samples.map((e) => e.unmeasured?.tcp),
    [undefined, reason, undefined, undefined, undefined, undefined],
    'the reasons ride once, on the first measured sample',
  );
  const live = result.measurements[0]!;
  assert.deepEqual(live.phases?.unmeasured, { tcp: reason });
  const builder = new ResultBuilder();
  for (const event of events) if (event.type !== 'done') builder.add(event);
  const rebuilt = builder.build('cut')!.measurements[0]!;
  assert.deepEqual(rebuilt.phases?.unmeasured, { tcp: reason }, 'the rebuilt result names the step and why');
});

test('the socket attribution is on only while a sample takes sockets (its promise hook costs every query)', async () => {
  const clock = new FakeClock();
  assert.equal(attributingSockets(), false);
  const first = withSocketPhases(clock, async () => 1);
  const second = withSocketPhases(clock, async () => 2);
  await Promise.all([first.done, second.done]);
  assert.equal(attributingSockets(), true, 'both samples still take sockets');
  first.release();
  first.release();
  assert.equal(attributingSockets(), true, 'a second release of one sample is not the other');
  second.release();
  assert.equal(attributingSockets(), false);
  // A socket handed over while none is attributing goes to no sample.
  const socket = new FakeSocket(false);
  phaseReporter.socket(socket.asSocket());
  const third = withSocketPhases(clock, async () => {
    phaseReporter.socket(socket.asSocket());
  });
  await third.done;
  assert.equal(third.wire.sawSocket(), true, 'a sample after the storage was off takes its sockets again');
  third.release();
});

test('an initial sample keeps the attribution through its query, a warm connection only while it connects', async () => {
  const seen: string[] = [];
  const driver: Driver = {
    info: fakeInfo('watched'),
    async connect() {
      seen.push(`connect ${attributingSockets()}`);
      return {
        async query() {
          seen.push(`query ${attributingSockets()}`);
        },
        async close() {},
        destroy() {},
      };
    },
  };
  await runPlan(
    plan([target('watched')], {
      kinds: ['initial', 'subsequent'],
      iterations: 2,
      warmup: 0,
      warmConnections: 1,
    }),
    {
      registry: fakeRegistry([driver]),
      resolveConnection: async () => 'fake://host/db',
      tool: TOOL,
      watchClient: false,
    },
  );
  // initial: connect and query, twice, the attribution on (mongodb opens its pool socket in the
  // first query); subsequent: one connect with it on, then two queries with it off.
  assert.deepEqual(seen, [
    'connect true',
    'query true',
    'connect true',
    'query true',
    'connect true',
    'query false',
    'query false',
  ]);
  assert.equal(attributingSockets(), false);
});
