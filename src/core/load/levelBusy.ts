/**
 * How busy the probing thread was during one load level: its CPU over the wall time the host let it
 * run (less its run-queue wait, Linux), so a saturated thread on a busy shared host still reads near
 * 100% (it never waited on the database), whatever else shared the cores.
 *
 * Timed from the level's clock start, not from before it: opening the level's connections and, over
 * threads or a fan-out, waiting for the common start leave the thread idle for a second or more, and
 * counted in they read a thread that could not keep a 20,000/s schedule as 55-66% busy (measured on
 * the 2-core testbed over 2 threads), so the level was never called client-limited.
 *
 * Time a hypervisor takes from the VM's CPU (steal) is neither the thread's run time nor its run-queue
 * wait, so in such an episode a saturated thread read 70-84% here and went unflagged. Beside the CPU
 * share the level therefore reads how busy the thread's event loop was (not waiting in epoll):
 * stolen or preempted time while it had work counts there as busy, which is what limits the level.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { ClientWatcher } from '../clientWatch';
import type { LevelHooks } from './sink';

type Watch = Pick<ClientWatcher, 'cpuUs' | 'who' | 'threadSched'>;

export class LevelBusy {
  private cpuBefore: number | undefined;
  private schedBefore: { runUs: number; waitUs: number } | undefined;
  private wallBefore = process.hrtime.bigint();
  private loopBefore: EventLoopUtilization | undefined;

  constructor(private readonly client: Watch | undefined) {
    // Read now too: a level whose clock never starts (no connection opened) is judged from here.
    this.begin();
  }

  /** Wraps the level's hooks to start the reading when the level's clock starts. */
  hooks(inner: LevelHooks): LevelHooks {
    if (!this.client) return inner;
    return {
      ...inner,
      started: (startNs, starts) => {
        this.begin();
        inner.started?.(startNs, starts);
      },
    };
  }

  /**
   * The level's CPU share (% of one core, one decimal), who it describes, and the share of the wall
   * time this thread's event loop was busy (not waiting for I/O: `loopPercent`, one decimal).
   */
  end(): { cpuPercent: number | undefined; loopPercent?: number; who: string | undefined } {
    const client = this.client;
    if (!client || this.cpuBefore === undefined) return { cpuPercent: undefined, who: client?.who };
    const loop = this.loopBefore && performance.eventLoopUtilization(this.loopBefore);
    const loopPercent = loop ? { loopPercent: Math.round(loop.utilization * 1000) / 10 } : {};
    const wallNs = process.hrtime.bigint() - this.wallBefore;
    const schedAfter = client.threadSched();
    const before = this.schedBefore;
    if (before && schedAfter) {
      const waitNs = BigInt(Math.round((schedAfter.waitUs - before.waitUs) * 1000));
      // One thread runs on one core at most. Linux brings a running thread's schedstat up to date
      // only at a tick or a switch, so each reading may lag by up to a tick (4 ms at HZ=250): over a
      // level of a few tens of ms (every query failed at once) the share read 114%. Past 100 is that
      // lag, never work.
      const share = cpuShare(schedAfter.runUs - before.runUs, wallNs - waitNs);
      return { cpuPercent: Math.min(100, share), ...loopPercent, who: 'one thread' };
    }
    return { cpuPercent: cpuShare(client.cpuUs() - this.cpuBefore, wallNs), ...loopPercent, who: client.who };
  }

  private begin(): void {
    this.cpuBefore = this.client?.cpuUs();
    this.schedBefore = this.client?.threadSched();
    this.wallBefore = process.hrtime.bigint();
    this.loopBefore = this.client ? performance.eventLoopUtilization() : undefined;
  }
}

/** CPU µs over wall ns as % of one core, one decimal. */
function cpuShare(cpuUs: number, wallNs: bigint): number {
  const wallUs = Number(wallNs / 1000n) || 1;
  return Math.round((cpuUs / wallUs) * 1000) / 10;
}
