/**
 * The `subsequent` kind: a few warm connections per target (the plan's warmConnections), taken in
 * turn, repeated queries; a connection is replaced only after it broke. A sample is one query through
 * its connection's gate, nothing more. Several connections because two connections to one server
 * answer steadily apart (each backend keeps its own CPU, caches and scheduling): with one connection
 * per target, a verdict could not tell a target from its connection. Each sample records which
 * connection it ran on, and the verdict resamples connections, then samples within them.
 *
 * An ORM layer's twin rides its raw target's connections (Driver.over): connection i of the raw
 * target serves both, back to back in the interleaved order, so the layer's cost is a paired
 * difference on one connection, with no connection term in it.
 */
import { elapsedUs } from '../clock';
import { connect, explainSilence, type ConnectWatch, type SampleContext } from '../connection';
import type { DriverConnection } from '../driver';
import { classifyError, ProbeError } from '../failure';
import { QueryGate, type GateWatch } from '../queryGate';
import { RowsChoice } from '../rowsChoice';
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
    readonly wire: WireWatch | undefined,
    /** Its place among the target's warm connections, recorded on each sample. */
    private readonly index: number,
    /** Called when it broke: its set forgets it. */
    private readonly forget: (warm: WarmConnection) => void,
    /** Its target's choice of the streamed path, shared by the target's warm connections. */
    private readonly rows: RowsChoice,
    /** For a layer's twin: the raw target's connection it rides on. */
    readonly base?: WarmConnection,
  ) {
    this.gate = new QueryGate(ctx.clock, ctx.queryMs, this);
    this.subscription = ctx.scope.subscribe(this.gate);
  }

  sample(): Promise<SampleTiming> {
    if (this.ctx.scope.cancelled) return Promise.reject(new ProbeError('cancelled', 'query cancelled'));
    return this.gate.run(this.conn, this.slot.workload, this.rows.streamed);
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
    const { firstRowNs } = this.gate;
    if (firstRowNs !== 0n) timing.firstRowUs = elapsedUs(this.gate.startNs, firstRowNs);
    else {
      const rows = this.rows.decide(this.conn, answer);
      if (rows !== undefined) timing.rows = rows;
    }
    return timing;
  }

  private wireTiming(us: number): SampleTiming {
    const conn = this.index;
    const wire = this.wire;
    if (!wire) {
      const why = 'the warm connection opened no socket the tool could watch';
      return { us, conn, wireUnmeasured: { roundTrips: why, bytes: why } };
    }
    const counts = wireBetween(this.before, this.after);
    // A warm query always sends bytes on the connection it takes. None on the watched one: the client
    // took another (an HTTP keep-alive connection the server closed, e.g. after nginx's 1,000
    // requests, is replaced out of the watch's sight), and a 0 would be a false count.
    if (counts.bytesSent === 0 && counts.bytesReceived === 0) {
      const why =
        'nothing crossed the connection the tool watched: the client sent this query on a connection it opened later (a server may close a kept-alive connection after so many requests)';
      return { us, conn, wireUnmeasured: { roundTrips: why, bytes: why } };
    }
    const unseen = wire.roundTripsUnseen();
    if (!unseen) return { us, conn, wire: counts };
    delete counts.roundTrips;
    return { us, conn, wire: counts, wireUnmeasured: { roundTrips: unseen } };
  }

  failed(error: unknown): void {
    // A rejected query leaves the connection usable; anything else may have left it mid-protocol.
    if (classifyError(error, this.slot.driver?.classify) === 'query') return;
    this.forget(this);
    this.release();
    void this.ctx.connections.close(this.conn);
  }

  /** The connection is done with: no timer or subscription outlives it. */
  release(): void {
    this.gate.dispose();
    this.ctx.scope.unsubscribe(this.subscription, this.gate);
  }
}

/** A target's warm connections, taken in turn. */
interface WarmSet {
  turn: number;
  rows: RowsChoice;
  warm: (WarmConnection | undefined)[];
  /** The connection of the last sample, for requestOnWire. */
  last?: WarmConnection;
  /** A layer's twin: its code has run to a steady cost in this thread (warmUntilSteady). */
  steady?: boolean;
}

async function connectWarm(
  slot: TargetSlot,
  ctx: SampleContext,
  index: number,
  forget: (warm: WarmConnection) => void,
  rows: RowsChoice,
): Promise<WarmConnection> {
  let sockets: ConnectWatch | undefined;
  let conn: DriverConnection;
  try {
    conn = await connect(
      slot,
      ctx,
      undefined,
      (open) => (sockets = withSocketPhases(ctx.clock, open)).done,
    ).catch((error: unknown) => {
      throw explainSilence(error, sockets, slot.spec.driver);
    });
  } finally {
    // Its queries open no socket of their own: the watch already holds the connection's.
    sockets?.release();
  }
  return new WarmConnection(
    conn,
    slot,
    ctx,
    sockets?.wire.sawSocket() ? sockets.wire : undefined,
    index,
    forget,
    rows,
  );
}

/**
 * The sampler over `connections` warm connections per target; `rawOf` maps a layer's twin to its
 * raw target's slot, whose connections the twin rides.
 */
function warmSampler(connections: number, rawOf: ReadonlyMap<TargetSlot, TargetSlot>): Sampler {
  const sets = new Map<TargetSlot, WarmSet>();
  const ridden = new Set(rawOf.values());
  const setOf = (slot: TargetSlot): WarmSet => {
    let set = sets.get(slot);
    if (!set) sets.set(slot, (set = { turn: 0, rows: new RowsChoice(ridden.has(slot)), warm: [] }));
    return set;
  };
  const forgetter = (set: WarmSet, index: number) => (warm: WarmConnection) => {
    if (set.warm[index] === warm) set.warm[index] = undefined;
  };
  /** Connection `index` of a raw target, opened when it has none. */
  const rawWarm = async (slot: TargetSlot, ctx: SampleContext, index: number): Promise<WarmConnection> => {
    const set = setOf(slot);
    const known = set.warm[index];
    if (known) return known;
    const made = await connectWarm(slot, ctx, index, forgetter(set, index), set.rows);
    set.warm[index] = made;
    return made;
  };
  /** A twin's connection `index`: its layer over the raw target's connection `index`. */
  const twinWarm = async (
    slot: TargetSlot,
    raw: TargetSlot,
    ctx: SampleContext,
    index: number,
  ): Promise<WarmConnection> => {
    const set = setOf(slot);
    const stale = set.warm[index];
    if (stale) {
      set.warm[index] = undefined;
      stale.release();
      void ctx.connections.close(stale.conn);
    }
    const base = await rawWarm(raw, ctx, index);
    const layered = await slot.driver!.over!(base.conn);
    const made = new WarmConnection(
      layered,
      slot,
      ctx,
      base.wire,
      index,
      forgetter(set, index),
      set.rows,
      base,
    );
    await warmLayer(made, ctx);
    if (!set.steady && raw.info.transport !== 'http') {
      set.steady = true;
      await warmUntilSteady(made, base, ctx);
    }
    set.warm[index] = made;
    return made;
  };
  return {
    // Not an async function: the warm path is the gate's promise, nothing more.
    sample(slot, ctx) {
      const set = setOf(slot);
      const index = set.turn % connections;
      set.turn += 1;
      const raw = rawOf.get(slot);
      const warm = set.warm[index];
      // A twin's connection stands while the raw connection under it does.
      if (warm && (!raw || warm.base === setOf(raw).warm[index])) {
        set.last = warm;
        return warm.sample();
      }
      const opening = raw ? twinWarm(slot, raw, ctx, index) : rawWarm(slot, ctx, index);
      return opening.then((fresh) => {
        set.last = fresh;
        return fresh.sample();
      });
    },
    async finish(slot, ctx) {
      const set = sets.get(slot);
      if (!set) return;
      sets.delete(slot);
      const open = set.warm.filter((w): w is WarmConnection => w !== undefined);
      set.warm = [];
      set.last = undefined;
      for (const warm of open) warm.release();
      // A twin's close lets its layer go; the raw target's finish closes the connections.
      await Promise.all(open.map((warm) => ctx.connections.close(warm.conn)));
    },
    requestOnWire(slot) {
      return sets.get(slot)?.last?.requestOnWire() ?? false;
    },
  };
}

/** Each layer's twin and its raw target's slot, when the raw target is ready and the layer can ride it. */
function twinsOf(slots: readonly TargetSlot[]): Map<TargetSlot, TargetSlot> {
  const byName = new Map(slots.map((slot) => [slot.spec.name, slot]));
  const twins = new Map<TargetSlot, TargetSlot>();
  for (const slot of slots) {
    const raw = slot.spec.rawTwin === undefined ? undefined : byName.get(slot.spec.rawTwin);
    if (raw?.driver && slot.driver?.over) twins.set(slot, raw);
  }
  return twins;
}

/**
 * Queries an ORM layer runs on each of its connections, untimed, before its first sample there. A
 * layer compiles and caches its query path lazily, per client instance (Prisma's first hundred
 * queries run several times slower; Kysely's and Drizzle's first tens): the warm query of an app
 * that has served for a while is what the layer costs, not its first queries after start-up.
 */
export const LAYER_WARMUP_QUERIES = 100;
/** The most a layer's warm-up takes on one connection, so a slow server never stalls the run. */
const LAYER_WARMUP_MS = 2_000;

async function warmLayer(warm: WarmConnection, ctx: SampleContext): Promise<void> {
  const until = ctx.clock.nowNs() + BigInt(LAYER_WARMUP_MS) * 1_000_000n;
  for (let i = 0; i < LAYER_WARMUP_QUERIES && !ctx.scope.cancelled && ctx.clock.nowNs() < until; i++)
    await warm.sample();
}

/**
 * Pairs of queries (the raw driver's, then the layer's) a twin runs once, untimed, on its first
 * connection, after that connection's own warm-up. The engine's JavaScript (V8's) optimises a
 * function only after it has run many times, and an ORM layer's query path is long: in one process
 * on a 2-vCPU VM (Node 20, pg on loopback), each layer's cost per query kept falling well after the
 * first hundred queries on each connection. Kysely settles within about 2,000 pairs (from ~40 to
 * ~12 µs); drizzle and Prisma take about 5,000: their medians per block of 1,000 pairs read, for
 * drizzle, ~33, 33, 28, 24 µs, then 15-23 from the fifth block on (three processes), and for Prisma
 * ~165, 140, 120, 115, 112 µs, then 105-110 from the sixth on (four processes; raw pg's own warm
 * p50 fell by a quarter over the first 500). And Prisma's keeps falling after that: on a 2-vCPU Xeon
 * VM a plain loop read it at 71-93 µs after 5,000 pairs, 71-83 after 8,000 and 66-71 after 20,000
 * (four processes each), and the tool after 5,000 read 97 µs where the plain loop after 8,000 read
 * 86. Measured before it is steady, a layer's cost is its start-up's, and moved with how many
 * samples a run took: after 2,000 pairs Prisma read ~10% above a loop warmed for 5,000. Untimed pairs warm both
 * sides alike.
 *
 * Not over HTTP drivers: each pair is two requests to a service that may count, bill or limit them
 * (a keep-alive socket is also replaced after a server's request limit, 1,000 on nginx by default),
 * and a layer's microseconds are lost in an HTTP request's milliseconds.
 */
export const LAYER_STEADY_PAIRS = 20_000;
/**
 * The most the pairs take (20,000 Prisma pairs over loopback pg take ~6 s on a 2-vCPU VM), so a
 * distant server, where µs of JIT matter little, never stalls the run.
 */
const LAYER_STEADY_MS = 10_000;

async function warmUntilSteady(
  layered: WarmConnection,
  raw: WarmConnection,
  ctx: SampleContext,
): Promise<void> {
  const until = ctx.clock.nowNs() + BigInt(LAYER_STEADY_MS) * 1_000_000n;
  for (let i = 0; i < LAYER_STEADY_PAIRS && !ctx.scope.cancelled && ctx.clock.nowNs() < until; i++) {
    await raw.sample();
    await layered.sample();
  }
}

/** Warm connections per target when the plan does not say. */
export const DEFAULT_WARM_CONNECTIONS = 4;

export const subsequentKind: Kind = {
  name: 'subsequent',
  readsServerTime: true,
  reused: ['connection'],
  eventSamplesPerTarget: (plan) => plan.warmup + plan.iterations,
  run: async (slots, states, context) => {
    const connections = Math.max(1, context.plan.warmConnections ?? DEFAULT_WARM_CONNECTIONS);
    const sampler = warmSampler(connections, twinsOf(slots));
    await runSamples('subsequent', { ...sampler, finish: async () => undefined }, slots, states, context, {
      warmup: context.plan.warmup,
      iterations: context.plan.iterations,
      // Each connection sees its targets in both orders, turn and turn about.
      alternateEvery: connections,
    });
    // Twins first: each lets its layer go before its raw target closes the connection under it.
    const finish = (twins: boolean) =>
      Promise.all(
        slots
          .filter((slot) => (slot.spec.rawTwin !== undefined) === twins)
          .map((slot) => sampler.finish(slot, context.ctx).catch(() => undefined)),
      );
    await finish(true);
    await finish(false);
  },
};
