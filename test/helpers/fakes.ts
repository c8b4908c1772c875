/** An in-memory driver and a manual clock, so the engine can be tested without any server. */
import type { Clock } from '../../src/core/clock';
import type { Driver, DriverConnection, DriverInfo, DriverRegistry } from '../../src/core/driver';
import type { LatencyStats } from '../../src/shared/result';

export class FakeClock implements Clock {
  readonly name = 'fake';
  private ns = 1_000_000_000n;
  nowNs(): bigint {
    return this.ns;
  }
  advanceUs(us: number): void {
    this.ns += BigInt(Math.round(us * 1000));
  }
}

export interface FakeBehaviour {
  /** Latency the fake clock advances by for each connect / query (in order, last one repeats). */
  connectUs?: number[];
  queryUs?: number[];
  /**
   * Time close() costs on the fake clock (default 7 ms, never 0: a close() moved into the timed
   * window must change every figure the unit tests check).
   */
  closeUs?: number;
  /** Throw this from connect / query (an Error or a function of the call number). */
  connectError?: (call: number) => Error | undefined;
  queryError?: (call: number) => Error | undefined;
  /** Never settle: for timeout and cancellation tests. */
  hangConnect?: boolean;
  hangQuery?: boolean;
  /** Resolve connect only after this many real milliseconds (a late connection). */
  connectDelayMs?: number;
}

export const DEFAULT_CLOSE_US = 7_000;

export class FakeDriverStats {
  connects = 0;
  queries = 0;
  closes = 0;
  destroys = 0;
  open = 0;
  log: string[] = [];
}

export function fakeDriver(
  id: string,
  clock: FakeClock,
  behaviour: FakeBehaviour,
  stats: FakeDriverStats,
): Driver {
  const pick = (list: number[] | undefined, i: number) =>
    list && list.length > 0 ? (list[Math.min(i, list.length - 1)] ?? 0) : 0;
  return {
    info: fakeInfo(id),
    async connect({ signal }) {
      const call = stats.connects++;
      stats.log.push(`connect:${id}`);
      const error = behaviour.connectError?.(call);
      if (error) throw error;
      if (behaviour.hangConnect) await new Promise(() => undefined);
      if (behaviour.connectDelayMs) await new Promise((r) => setTimeout(r, behaviour.connectDelayMs));
      void signal;
      clock.advanceUs(pick(behaviour.connectUs, call));
      stats.open++;
      let closed = false;
      const finish = (how: 'close' | 'destroy') => {
        if (closed) return;
        closed = true;
        stats.open--;
        if (how === 'close') stats.closes++;
        else stats.destroys++;
      };
      const conn: DriverConnection = {
        async query() {
          const q = stats.queries++;
          stats.log.push(`query:${id}`);
          const queryError = behaviour.queryError?.(q);
          if (queryError) throw queryError;
          if (behaviour.hangQuery) await new Promise(() => undefined);
          clock.advanceUs(pick(behaviour.queryUs, q));
        },
        async close() {
          clock.advanceUs(behaviour.closeUs ?? DEFAULT_CLOSE_US);
          finish('close');
        },
        destroy() {
          finish('destroy');
        },
      };
      return conn;
    },
  };
}

export function fakeInfo(id: string): DriverInfo {
  return {
    id,
    module: `fake-${id}`,
    packageName: `fake-${id}`,
    packages: [],
    runsOnWorkers: false,
    transport: 'tcp',
    family: 'sql',
    defaultQuery: 'SELECT 1',
    schemes: ['fake'],
    connectionExample: 'fake://user:PASSWORD@host/db',
    description: 'in-memory fake',
  };
}

export function fakeRegistry(drivers: Driver[]): DriverRegistry {
  const byId = new Map(drivers.map((d) => [d.info.id, d]));
  return {
    ids: () => [...byId.keys()],
    info: (id) => byId.get(id)?.info,
    load: async (id) => {
      const driver = byId.get(id);
      if (!driver) throw new Error(`no fake driver ${id}`);
      return driver;
    },
    packageSource: (id) => ({ package: `fake-${id}`, version: '0.0.0-fake' }),
  };
}

/** Statistics of `count` samples that all took `p50Us`: for view and report tests that need a shape. */
export function flatStats(p50Us: number, count: number): LatencyStats {
  return {
    count,
    errors: 0,
    errorRate: 0,
    minUs: p50Us,
    meanUs: p50Us,
    stddevUs: 0,
    p50Us,
    p90Us: p50Us,
    p95Us: p50Us,
    p99Us: p50Us,
    p999Us: p50Us,
    maxUs: p50Us,
  };
}
