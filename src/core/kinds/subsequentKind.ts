/**
 * The `subsequent` kind: one warm connection per target, repeated queries; the connection is replaced
 * only after it broke. A sample is one query through the connection's gate, nothing more.
 */
import { elapsedUs } from '../clock';
import { connect, type ConnectWatch, type SampleContext } from '../connection';
import type { DriverConnection } from '../driver';
import { classifyError, ProbeError } from '../failure';
import { QueryGate, type GateWatch } from '../queryGate';
import type { SampleTiming } from '../sampleTiming';
import { runSamples, type Sampler } from '../sampleLoop';
import type { TargetSlot } from '../slot';
import { withSocketPhases } from '../socketPhases';
import { emptySnapshot, wireBetween, type WireWatch } from '../wireWatch';
import type { Kind } from './kind';

/**
 * A warm `subsequent` connection and what its samples reuse, made once when it connected: its query
 * gate (one timer refreshed per query, the answer handlers, one subscription to the run's
 * cancellation: queryGate.ts), the two wire snapshots, so a sample allocates its promise and its own
 * figures and nothing else. A slot takes its samples one at a time, and a connection that broke is
 * replaced with a new one (its gate disposed, its subscription ended).
 */
class WarmConnection implements GateWatch<SampleTiming> {
  private readonly before = emptySnapshot();
  private readonly after = emptySnapshot();
  /** The watch's write count when the current query was about to be sent. */
  private writesBefore = 0;
  private readonly gate: QueryGate<SampleTiming>;
  /** Its place among the run's cancel subscribers (CancelScope). */
  private readonly subscription: number;

  constructor(
    readonly conn: DriverConnection,
    private readonly slot: TargetSlot,
    private readonly ctx: SampleContext,
    /** The watch made while it connected; none when it opened no socket the tool could watch. */
    private readonly wire: WireWatch | undefined,
  ) {
    this.gate = new QueryGate(ctx.clock, ctx.queryMs, this);
    this.subscription = ctx.scope.subscribe(this.gate);
  }

  sample(): Promise<SampleTiming> {
    if (this.ctx.scope.cancelled) return Promise.reject(new ProbeError('cancelled', 'query cancelled'));
    return this.gate.run(this.conn, this.slot.workload);
  }

  /** Read before the start stamp: not in the timing. */
  started(): void {
    this.wire?.settle(this.before);
    this.writesBefore = this.wire?.writes ?? 0;
  }

  /** True when the query just started wrote to the socket within its driver call (see requestOnWire). */
  requestOnWire(): boolean {
    return this.wire !== undefined && this.wire.writes > this.writesBefore;
  }

  answered(answer: unknown): SampleTiming {
    // Read after the end stamp: not in the timing.
    this.wire?.snapshot(this.after);
    const us = elapsedUs(this.gate.startNs, this.gate.endNs);
    const timing = this.wireTiming(us);
    const serverUs = this.conn.serverTimeOf?.(answer);
    if (serverUs !== undefined) timing.serverUs = serverUs;
    return timing;
  }

  private wireTiming(us: number): SampleTiming {
    const wire = this.wire;
    if (!wire) {
      const why = 'the warm connection opened no socket the tool could watch';
      return { us, wireUnmeasured: { roundTrips: why, bytes: why } };
    }
    const counts = wireBetween(this.before, this.after);
    const unseen = wire.roundTripsUnseen();
    if (!unseen) return { us, wire: counts };
    delete counts.roundTrips;
    return { us, wire: counts, wireUnmeasured: { roundTrips: unseen } };
  }

  failed(error: unknown): void {
    // A rejected query leaves the connection usable; anything else may have left it mid-protocol.
    if (classifyError(error, this.slot.driver?.classify) === 'query') return;
    if (this.slot.conn === this.conn) this.slot.conn = undefined;
    this.release();
    void this.ctx.connections.close(this.conn);
  }

  /** The connection is done with: no timer or subscription outlives it. */
  release(): void {
    this.gate.dispose();
    this.ctx.scope.unsubscribe(this.subscription, this.gate);
  }
}

/** The reused state of each warm `subsequent` connection (see WarmConnection). */
const warmConnections = new WeakMap<DriverConnection, WarmConnection>();

async function connectWarm(slot: TargetSlot, ctx: SampleContext): Promise<WarmConnection> {
  let sockets: ConnectWatch | undefined;
  let conn: DriverConnection;
  try {
    conn = await connect(slot, ctx, undefined, (open) => (sockets = withSocketPhases(ctx.clock, open)).done);
  } finally {
    // Its queries open no socket of their own: the watch already holds the connection's.
    sockets?.release();
  }
  const warm = new WarmConnection(conn, slot, ctx, sockets?.wire.sawSocket() ? sockets.wire : undefined);
  warmConnections.set(conn, warm);
  slot.conn = conn;
  return warm;
}

const sampleFresh = (fresh: WarmConnection): Promise<SampleTiming> => fresh.sample();
const warmOf = (slot: TargetSlot): WarmConnection | undefined => slot.conn && warmConnections.get(slot.conn);

const subsequentSampler: Sampler = {
  // Not an async function: the warm path is the gate's promise, nothing more.
  sample(slot, ctx) {
    const warm = warmOf(slot);
    if (warm) return warm.sample();
    return connectWarm(slot, ctx).then(sampleFresh);
  },
  async finish(slot, ctx) {
    const conn = slot.conn;
    slot.conn = undefined;
    if (!conn) return;
    warmConnections.get(conn)?.release();
    await ctx.connections.close(conn);
  },
  requestOnWire(slot) {
    return warmOf(slot)?.requestOnWire() ?? false;
  },
};

export const subsequentKind: Kind = {
  name: 'subsequent',
  readsServerTime: true,
  reused: ['connection'],
  eventSamplesPerTarget: (plan) => plan.warmup + plan.iterations,
  run: (slots, states, context) =>
    runSamples('subsequent', subsequentSampler, slots, states, context, {
      warmup: context.plan.warmup,
      iterations: context.plan.iterations,
    }),
};
