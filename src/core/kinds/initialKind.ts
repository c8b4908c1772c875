/**
 * The `initial` kind: new client, new connection, first query, then close; every sample pays the
 * full setup. The timed region starts inside the operation (after the deadline's timer is armed) and
 * ends in the continuation of the driver's own promise, so the harness adds as little as possible to
 * what is measured.
 */
import type { ConnectStep, SampleWire, WireReasons } from '../../shared/result';
import { elapsedUs } from '../clock';
import { connectCpuReader } from '../clientWatch';
import { connect, explainSilence, query, type ConnectWatch, type SampleContext } from '../connection';
import type { SampleTiming } from '../sampleTiming';
import { runSamples, type Sampler } from '../sampleLoop';
import type { TargetSlot } from '../slot';
import { withSocketPhases } from '../socketPhases';
import { wireBetween, type WireSnapshot, type WireWatch } from '../wireWatch';
import type { Kind } from './kind';

const initialSampler: Sampler = { sample: sampleInitial, async finish() {} };

export const initialKind: Kind = {
  name: 'initial',
  readsServerTime: true,
  reused: [],
  eventSamplesPerTarget: (plan) => plan.warmup + plan.iterations,
  run: (slots, states, context) =>
    runSamples('initial', initialSampler, slots, states, context, {
      warmup: context.plan.warmup,
      iterations: context.plan.iterations,
    }),
};

/** One `initial` sample (the `cold` kind takes its cold and hot samples the same way). */
export async function sampleInitial(slot: TargetSlot, ctx: SampleContext): Promise<SampleTiming> {
  let start = 0n;
  let end = 0n;
  let sockets: ConnectWatch | undefined;
  const cpu = connectCpuReader();
  let cpuStart = 0;
  try {
    const conn = await connect(
      slot,
      ctx,
      () => {
        // Read before the start stamp and after the connected one: the read is not in the timing.
        cpuStart = cpu.readUs();
        start = ctx.clock.nowNs();
      },
      (open) => (sockets = withSocketPhases(ctx.clock, open)).done,
    ).catch((error: unknown) => {
      throw explainSilence(error, sockets, slot.spec.driver);
    });
    // Outside the query's timed path: the split costs the total nothing.
    const connected = ctx.clock.nowNs();
    const clientCpuUs = Math.max(0, Math.round(cpu.readUs() - cpuStart));
    let counted: WireSnapshot | undefined;
    let answer: unknown;
    try {
      answer = await query(conn, slot, ctx, (isStart) => {
        if (isStart) return;
        end = ctx.clock.nowNs();
        // The counters at the query's end, before the close's own goodbye crosses the wire.
        counted = sockets?.wire.snapshot();
      });
    } finally {
      await ctx.connections.close(conn);
    }
    const {
      wire: negotiated,
      wireUnmeasured: negotiatedWhy,
      ...phases
    } = sockets?.phases(start, connected) ?? {};
    const counts = openedWire(sockets?.wire, counted, clientCpuUs, cpu.processWide, phases.unmeasured);
    // The driver's own reason (a plaintext session's alpn) before the generic one.
    const wireUnmeasured = { ...counts.wireUnmeasured, ...negotiatedWhy };
    const serverUs = conn.serverTimeOf?.(answer);
    return {
      us: elapsedUs(start, end),
      connectUs: elapsedUs(start, connected),
      ...phases,
      wire: { ...negotiated, ...counts.wire },
      ...(Object.keys(wireUnmeasured).length > 0 ? { wireUnmeasured } : {}),
      ...(serverUs !== undefined ? { serverUs } : {}),
    };
  } finally {
    // After the close, not at connect: a driver may open a socket in its first query (mongodb's pool).
    sockets?.release();
  }
}

/**
 * The wire figures of a sample that opened its connection (`initial`, `cold`): counts from the
 * sample's sockets, the TLS it negotiated, the client's CPU during connect; what could not be
 * counted is named with why.
 */
function openedWire(
  wire: WireWatch | undefined,
  counted: WireSnapshot | undefined,
  clientCpuUs: number,
  processWide: boolean,
  phasesUnmeasured: Partial<Record<ConnectStep, string>> | undefined,
): Pick<SampleTiming, 'wire' | 'wireUnmeasured'> {
  const reasons: WireReasons = {};
  if (processWide)
    reasons.clientCpu =
      "the process's CPU time (this Node has no per-thread CPU figure; Linux's per-thread one counts only whole scheduler ticks): the libuv pool's and GC helpers' work is in it";
  if (!wire || !counted || !wire.sawSocket()) {
    const why =
      phasesUnmeasured?.tcp ??
      'the sample opened no socket the tool could watch (an embedded database, or a runtime fetch that hides its connections)';
    return {
      wire: { clientCpuUs },
      wireUnmeasured: { ...reasons, roundTrips: why, bytes: why, tls: why, alpn: why },
    };
  }
  const figures: SampleWire = {
    ...wireBetween({ roundTrips: 0, tcpHandshakes: 0, bytesSent: 0, bytesReceived: 0 }, counted),
    ...wire.tlsFigures(),
    clientCpuUs,
  };
  const unseen = wire.roundTripsUnseen();
  if (unseen) {
    delete figures.roundTrips;
    reasons.roundTrips = unseen;
  }
  return { wire: figures, ...(Object.keys(reasons).length > 0 ? { wireUnmeasured: reasons } : {}) };
}
