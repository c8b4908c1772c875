/**
 * Watches the client while it measures: a blocked event loop or a saturated CPU inflates every
 * latency, and the result must say so instead of blaming the database, and must not say so when
 * nothing was limited.
 *
 * The event loop is judged only where it touched a figure: a timer notes every stretch the loop was
 * blocked (a stall: the tick was due, then ran late), and after the run each stall is set against
 * the timed windows of the kept samples. Stalls outside any sample (module loading, the first
 * connect, the report) touch no figure and say nothing; a target's first sample (its start-up) and
 * embedded targets (whose samples are the driver's own synchronous work) are left out, as the CPU of
 * an embedded run already is. A verdict needs at least MIN_HIT_SAMPLES samples (and 1% of them) hit
 * by a stall that at least doubled a typical sample, and a share of the timed time: one stall is no
 * pattern. A tick late while the thread waited in the host's run queue is the host's, not a stall.
 *
 * A sample's own synchronous work is not a stall against it: with one sample in flight, the driver's
 * callbacks (pg's SCRAM exchange, parsing, socket writes: ~1-5 ms a connect on a loaded 2-core host)
 * run on this thread inside the sample, and a tick that falls due while one runs is late by up to
 * that callback's length. That time is the driver's cost, paid by an app too. So each sample's stalled
 * time counts only beyond the loop's busy time per sample over the measurement (what the sample
 * itself kept the thread busy); a foreign stall (a 50 ms busy loop) stands far above it.
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import type { LoadLevelFigures } from '../shared/loadResult';
import type { ClientWatch, HostState, Measurement } from '../shared/result';
import { watchHost } from './hostState';

/** The stall timer's period; a tick later than STALL_MIN_US past its due time is a stall. */
const TICK_MS = 10;
const STALL_MIN_US = 1_000;
/** Stalls kept (one per late tick at most): a bound on memory over an hour-long run. */
const MAX_STALLS = 100_000;
/** Ticks whose loop-busy reading is kept (~1.1 h at one per 10 ms); later ticks are not judged. */
const MAX_TICKS = 400_000;
/** Samples a verdict needs hit by stalls, and the share of their timed time stalls must cover. */
export const MIN_HIT_SAMPLES = 3;
export const STALLED_SHARE_LIMIT = 0.01;
/** ...and at least this share of the kind's samples: fewer cannot move a p99 the tables show. */
export const MIN_HIT_SHARE = 0.01;
/**
 * Share of a late tick's whole period (its 10 ms plus the lateness) the client must have spent on the
 * CPU for the stall to be its own. Of the period, not of the lateness alone: a driver's own work
 * elsewhere in the period (a few ms a connect) would otherwise vouch for a tick the busy host delayed.
 */
const BUSY_SHARE = 0.5;
/** One core is what one JavaScript thread can use: at this share it is the limit. */
export const CPU_LIMIT_PERCENT = 90;

/** A stretch the loop was blocked, in µs since the watch started: [due, ran]. */
export interface Stall {
  fromUs: number;
  toUs: number;
}

export interface ClientWatcher {
  /** CPU time used so far (µs), by the scope the watch counts: per load level. */
  cpuUs(): number;
  /**
   * This thread's time on the CPU and waiting for one (µs so far; Linux), or undefined. A level's CPU
   * share is judged on the wall time the host let the thread have: on a busy host a saturated thread
   * spends much of the wall waiting for a core, and CPU over wall alone never reaches 90%.
   */
  threadSched(): { runUs: number; waitUs: number } | undefined;
  /** Who the CPU figure describes, for sentences: "one thread", "the probe process". */
  readonly who: string;
  /**
   * `cpuIsWorkload`: the database runs in this process (embedded), so busy CPU is the work itself.
   * `judge`: the run's measurements and which targets are embedded, timed from the watch's start.
   */
  stop(options?: { cpuIsWorkload?: boolean; judge?: JudgeInput }): ClientWatch;
}

export interface JudgeInput {
  measurements: readonly Measurement[];
  embedded: ReadonlySet<string>;
  /** The run's start minus the watch's start, µs: sample `atUs` + this = watch time. */
  offsetUs: number;
  /** The thread's event-loop busy time (µs) between two watch times; without it none is subtracted. */
  loopBusyUs?: (fromUs: number, toUs: number) => number;
}

/**
 * Whose CPU the watch counts: the whole process (the CLI, a runner), or only the engine's thread (the
 * editor's probe thread, whose process is the editor's extension host: its CPU is not the probe's).
 */
export type ClientScope = 'process' | 'thread';

type CpuUsage = (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage;

export function watchClient(scope: ClientScope = 'process'): ClientWatcher {
  // Thread CPU needs Node 22.19/23.9 or later (VS Code's Electron and code-server have it); before
  // that the process's figure is all there is.
  const threadCpu = (process as { threadCpuUsage?: CpuUsage }).threadCpuUsage?.bind(process);
  const cpuUsage: CpuUsage = scope === 'thread' && threadCpu ? threadCpu : (p) => process.cpuUsage(p);
  const who =
    scope === 'process'
      ? 'the probe process'
      : threadCpu
        ? 'the probe thread'
        : 'the process running the probe thread';
  const cpuStart = cpuUsage();
  const host = watchHost();
  const stallCpuUs = threadOnCpuUs(threadCpu);
  const startNs = process.hrtime.bigint();
  const nowUs = () => Number((process.hrtime.bigint() - startNs) / 1000n);
  const stalls: Stall[] = [];
  // Garbage collection pauses, in watch time: the garbage is the driver's and the probe's own (an app
  // pays the same), so a stall's stretch spent collecting is not a stall against a sample.
  const gcs: Stall[] = [];
  const perfStartMs = performance.now() - nowUs() / 1000;
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const fromUs = (e.startTime - perfStartMs) * 1000;
      if (gcs.length < MAX_STALLS) gcs.push({ fromUs, toUs: fromUs + e.duration * 1000 });
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  let worstUs = 0;
  let due = nowUs() + TICK_MS * 1000;
  const firstSched = threadSched();
  let lastCpu = stallCpuUs(firstSched);
  let lastWaitUs = firstSched?.waitUs;
  // The loop's busy time is this thread's own (event-loop utilisation is per thread, Node 14.10+):
  // cumulative readings at each tick, to tell what a measurement's own samples kept it busy.
  const eluStart = performance.eventLoopUtilization();
  const tickAtUs: number[] = [0];
  const tickBusyUs: number[] = [0];
  // The thread's cumulative run-queue wait at each tick (Linux; 0 elsewhere): a measurement's span
  // holds waits between its samples too, which a sample's own reading cannot see.
  const waitStartUs = firstSched?.waitUs;
  const tickWaitUs: number[] = [0];
  // A fixed piece of work timed at each tick: how fast the host let this thread compute, which the
  // scheduler's figures cannot show (a neighbour on the core's other hardware thread, clock speed).
  const tickSpinNs: number[] = [spinNs()];
  // A chained timer, unref'd: it never keeps a process alive, and costs one callback per 10 ms.
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const at = nowUs();
    const late = at - due;
    // One read of the scheduler's figures a tick: its run time (where it is the CPU source) and wait.
    const sched = threadSched();
    const cpu = stallCpuUs(sched);
    const busyUs = cpu - lastCpu;
    lastCpu = cpu;
    const waitUs = sched?.waitUs;
    const queuedUs = waitUs !== undefined && lastWaitUs !== undefined ? waitUs - lastWaitUs : 0;
    lastWaitUs = waitUs;
    // The client's own stall: it spent the late time on the CPU (its code, GC). A tick late with the
    // CPU idle is the machine taking the CPU away (a busy host), which is not the client's work; so
    // is a tick late while the thread sat runnable in the host's run queue (Linux counts that wait
    // per thread): a thread that probes back to back is always busy, so its busy share alone cannot
    // tell its own stall from a preemption.
    const periodUs = late + TICK_MS * 1000;
    const ownLateUs = late - queuedUs;
    if (
      late >= STALL_MIN_US &&
      ownLateUs >= STALL_MIN_US &&
      busyUs >= periodUs * BUSY_SHARE &&
      stalls.length < MAX_STALLS
    )
      stalls.push({ fromUs: due, toUs: at });

    worstUs = Math.max(worstUs, late);
    if (tickAtUs.length < MAX_TICKS) {
      tickAtUs.push(at);
      tickBusyUs.push(performance.eventLoopUtilization(eluStart).active * 1000);
      tickWaitUs.push(waitUs !== undefined && waitStartUs !== undefined ? waitUs - waitStartUs : 0);
      tickSpinNs.push(spinNs());
    }
    due = at + TICK_MS * 1000;
    timer = setTimeout(tick, TICK_MS);
    timer.unref?.();
  };
  timer = setTimeout(tick, TICK_MS);
  timer.unref?.();
  return {
    who: scope === 'thread' && threadCpu ? 'one thread' : 'the probe process',
    threadSched,
    cpuUs() {
      const cpu = cpuUsage(cpuStart);
      return cpu.user + cpu.system;
    },
    stop(options = {}): ClientWatch {
      if (timer) clearTimeout(timer);
      gcObserver.disconnect();
      const cpu = cpuUsage(cpuStart);
      const wallUs = nowUs() || 1;
      const cpuPercent = Math.round(((cpu.user + cpu.system) / wallUs) * 1000) / 10;
      const loopBusyUs = (from: number, to: number) =>
        Math.max(0, busyAt(tickAtUs, tickBusyUs, to) - busyAt(tickAtUs, tickBusyUs, from));
      const judged = options.judge
        ? judgeStalls(withoutGc(stalls, gcs), { loopBusyUs, ...options.judge })
        : [];
      const levels = options.judge ? limitedLevels(options.judge.measurements) : [];
      const reasons = [
        ...judged.map((j) => `${j.target} ${j.kind}: ${j.note}`),
        ...levels,
        // Sequential samples: a busy CPU there is the driver's own work, which each sample pays as
        // an app would; only without a judge (a caller with no samples) does the whole run's CPU speak.
        ...(!options.judge && cpuPercent > CPU_LIMIT_PERCENT && !options.cpuIsWorkload
          ? [`${who} used ${cpuPercent}% of a CPU over the run`]
          : []),
      ];
      const inSamples = judged.reduce((max, j) => Math.max(max, j.worstUs), 0);
      return {
        // The delay that touched a sample: the figure the verdict rests on (not start-up's).
        eventLoopDelayP99Us: inSamples,
        eventLoopDelayMaxUs: Math.max(0, worstUs),
        cpuPercent,
        bottleneck: reasons.length > 0,
        ...(judged.length > 0 ? { limited: judged } : {}),
        ...(reasons.length > 0 ? { note: `The client limited these figures: ${reasons.join('; ')}.` } : {}),
        host: host.stop(
          options.judge?.measurements ?? [],
          options.judge
            ? spanWaitShares(
                options.judge.measurements,
                options.judge.offsetUs,
                (from, to) =>
                  Math.max(0, busyAt(tickAtUs, tickWaitUs, to) - busyAt(tickAtUs, tickWaitUs, from)),
                (from, to) => medianSpin(tickAtUs, tickSpinNs, from, to),
              )
            : [],
        ),
      };
    },
  };
}

/** /proc/thread-self/schedstat: ns on the CPU, ns waiting in the run queue (Linux only). */
function threadSched(): { runUs: number; waitUs: number } | undefined {
  try {
    const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ').map(Number);
    return run !== undefined && wait !== undefined && Number.isFinite(run) && Number.isFinite(wait)
      ? { runUs: run / 1000, waitUs: wait / 1000 }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * This thread's time on the CPU so far (µs), for telling its own stalls from the host's: the
 * process's figure also counts GC helpers and the libuv pool (pg's PBKDF2), which run while this
 * thread waits. Node's thread figure where it exists (22.19+), else Linux's per-thread scheduler
 * figure (ns on CPU), else the process's.
 */
function threadOnCpuUs(threadCpu: CpuUsage | undefined): (sched?: { runUs: number }) => number {
  if (threadCpu)
    return () => {
      const cpu = threadCpu();
      return cpu.user + cpu.system;
    };
  const schedstat = () => Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1000;
  try {
    if (Number.isFinite(schedstat())) return (sched) => sched?.runUs ?? schedstat();
  } catch {
    // Not Linux: the process's figure below.
  }
  return () => {
    const cpu = process.cpuUsage();
    return cpu.user + cpu.system;
  };
}

let connectCpu: { readUs: () => number; processWide: boolean } | undefined;

/**
 * The reader of the probing thread's CPU for a connect's client share (wire accounting):
 * Node's thread figure where it exists, else the process's (`processWide`). Not the scheduler's
 * per-thread figure the stall judge falls back to: Linux updates it only when the thread is switched
 * out or at a tick, so over a 1-10 ms connect it reads 0 or a whole tick (a 100 µs spin read as
 * 2.7 ms on the test machine), while getrusage is exact to the microsecond.
 */
export function connectCpuReader(): { readUs: () => number; processWide: boolean } {
  if (connectCpu) return connectCpu;
  const threadCpu = (process as { threadCpuUsage?: CpuUsage }).threadCpuUsage?.bind(process);
  const read = threadCpu ?? (() => process.cpuUsage());
  connectCpu = {
    readUs: () => {
      const cpu = read();
      return cpu.user + cpu.system;
    },
    processWide: threadCpu === undefined,
  };
  return connectCpu;
}

/** The stalls with their stretches spent in garbage collection cut out. */
export function withoutGc(stalls: readonly Stall[], gcs: readonly Stall[]): Stall[] {
  const sorted = [...gcs].sort((a, b) => a.fromUs - b.fromUs);
  const out: Stall[] = [];
  // Stalls come in time order and do not overlap: one pass over both lists.
  let first = 0;
  for (const stall of [...stalls].sort((a, b) => a.fromUs - b.fromUs)) {
    let from = stall.fromUs;
    while (first < sorted.length && sorted[first]!.toUs <= from) first += 1;
    for (let i = first; i < sorted.length; i++) {
      const gc = sorted[i]!;
      if (gc.toUs <= from) continue;
      if (gc.fromUs >= stall.toUs) break;
      if (gc.fromUs > from) out.push({ fromUs: from, toUs: gc.fromUs });
      from = Math.max(from, gc.toUs);
    }
    if (from < stall.toUs) out.push({ fromUs: from, toUs: stall.toUs });
  }
  return out;
}

/** Per target and sampled kind: the stalls that overlapped its timed samples, when they add up. */
export function judgeStalls(
  stalls: readonly Stall[],
  input: JudgeInput,
): NonNullable<ClientWatch['limited']> {
  const out: NonNullable<ClientWatch['limited']> = [];
  const seen = new Set<string>();
  const sorted = [...stalls].sort((a, b) => a.fromUs - b.fromUs);
  for (const m of input.measurements) {
    if (m.kind === 'load' || m.kind === 'schedule' || input.embedded.has(m.target)) continue;
    const ownUs = ownBusyPerSample(m, input, seen.has(m.target));
    // A stall counts against a sample only when it at least doubled a typical one: the driver's own
    // uneven work (a connect's set-up, a close spilling over, JIT) adds a fraction of a sample on a
    // busy host; a stall that limits the figures adds a sample's worth or more.
    const minExcessUs = Math.max(STALL_MIN_US, m.stats.p50Us);
    let kept = 0;
    let timedUs = 0;
    let stalledUs = 0;
    let hit = 0;
    let worstUs = 0;
    for (const sample of m.samples.values) {
      if (sample.us === undefined) continue;
      // The target's first timed sample carries its start-up (module loading, first connect).
      const first = !seen.has(m.target);
      seen.add(m.target);
      if (first) continue;
      const from = sample.atUs + input.offsetUs;
      const to = from + sample.us;
      timedUs += sample.us;
      // The sample's own synchronous work is its cost, not a stall against it: only the excess counts.
      kept += 1;
      const overlap = overlapUs(sorted, from, to) - ownUs;
      if (overlap >= minExcessUs) {
        hit += 1;
        stalledUs += overlap;
        worstUs = Math.max(worstUs, overlap);
      }
    }
    const enoughHit = hit >= Math.max(MIN_HIT_SAMPLES, kept * MIN_HIT_SHARE);
    if (enoughHit && timedUs > 0 && stalledUs / timedUs >= STALLED_SHARE_LIMIT) {
      out.push({
        target: m.target,
        kind: m.kind,
        worstUs,
        note: `event-loop delay during ${hit} samples (${(stalledUs / 1000).toFixed(1)} ms of ${(timedUs / 1000).toFixed(1)} ms timed, up to ${(worstUs / 1000).toFixed(1)} ms in one)`,
      });
    }
  }
  return out;
}

/**
 * The loop's busy time per timed sample over a measurement's span (first kept sample's start to the
 * last's end): an upper bound of what one sample keeps the thread busy with its own work.
 */
function ownBusyPerSample(m: Measurement, input: JudgeInput, targetSeen: boolean): number {
  if (!input.loopBusyUs) return 0;
  let from = Infinity;
  let to = -Infinity;
  let count = 0;
  let skipFirst = !targetSeen;
  for (const sample of m.samples.values) {
    if (sample.us === undefined) continue;
    if (skipFirst) {
      skipFirst = false;
      continue;
    }
    const at = sample.atUs + input.offsetUs;
    from = Math.min(from, at);
    to = Math.max(to, at + sample.us);
    count += 1;
  }
  return count > 0 ? input.loopBusyUs(from, to) / count : 0;
}

/**
 * Per sampled target and kind: the thread's run-queue wait over the span of its samples (first
 * start to last end, gaps included) as a share of that span. An in-process target's samples are
 * too short to be preempted inside, but a busy host takes the thread between them all the same.
 */
function spanWaitShares(
  measurements: readonly Measurement[],
  offsetUs: number,
  waitBetween: (fromUs: number, toUs: number) => number,
  spinBetween: (fromUs: number, toUs: number) => number | undefined,
): NonNullable<HostState['spans']> {
  return measurements.flatMap((m) => {
    if (m.kind === 'load' || m.kind === 'schedule') return [];
    let from = Infinity;
    let to = -Infinity;
    for (const s of m.samples.values) {
      if (s.us === undefined) continue;
      from = Math.min(from, s.atUs);
      to = Math.max(to, s.atUs + s.us);
    }
    if (!(to > from)) return [];
    const share = Math.min(1, waitBetween(from + offsetUs, to + offsetUs) / (to - from));
    const spin = spinBetween(from + offsetUs, to + offsetUs);
    return [
      {
        target: m.target,
        kind: m.kind,
        waitShare: Math.round(share * 10_000) / 10_000,
        ...(spin !== undefined ? { spinNs: Math.round(spin) } : {}),
      },
    ];
  });
}

/** The fixed work's iterations: a few µs on a current core. */
const SPIN_ITERATIONS = 2_000;

/** Times the fixed work once (ns). */
function spinNs(): number {
  const start = process.hrtime.bigint();
  let x = 0;
  for (let i = 0; i < SPIN_ITERATIONS; i++) x = (Math.imul(x, 31) + i) | 0;
  const ns = Number(process.hrtime.bigint() - start);
  // Never 0 by accident: `x` is used, so the loop is not removed.
  return x === 0.5 ? ns + 1 : ns;
}

/** The median of the fixed work's times at the ticks within [from, to] (at least 5 of them). */
function medianSpin(
  atUs: readonly number[],
  spins: readonly number[],
  from: number,
  to: number,
): number | undefined {
  const within: number[] = [];
  for (let i = 1; i < atUs.length; i++) if (atUs[i]! >= from && atUs[i]! <= to) within.push(spins[i]!);
  if (within.length < 5) return undefined;
  within.sort((a, b) => a - b);
  return within[Math.floor((within.length - 1) / 2)];
}

/** Cumulative loop-busy µs at a watch time, interpolated between the ticks around it. */
function busyAt(atUs: readonly number[], busyUs: readonly number[], t: number): number {
  let lo = 0;
  let hi = atUs.length - 1;
  if (t >= atUs[hi]!) return busyUs[hi]!;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (atUs[mid]! <= t) lo = mid;
    else hi = mid;
  }
  const a = atUs[lo]!;
  const b = atUs[hi]!;
  const share = b > a ? (Math.max(t, a) - a) / (b - a) : 0;
  return busyUs[lo]! + (busyUs[hi]! - busyUs[lo]!) * share;
}

/** Microseconds of [from, to] covered by the stalls (sorted by start; they do not overlap). */
function overlapUs(stalls: readonly Stall[], from: number, to: number): number {
  // Binary search for the first stall that ends after `from`.
  let lo = 0;
  let hi = stalls.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (stalls[mid]!.toUs <= from) lo = mid + 1;
    else hi = mid;
  }
  let total = 0;
  for (let i = lo; i < stalls.length && stalls[i]!.fromUs < to; i++) {
    const s = stalls[i]!;
    total += Math.max(0, Math.min(to, s.toUs) - Math.max(from, s.fromUs));
  }
  return total;
}

/** "pg load at 64 connections: client-limited: ..." for every load level the client limited. */
function limitedLevels(measurements: readonly Measurement[]): string[] {
  return measurements.flatMap((m) =>
    (m.load?.levels ?? []).flatMap((l) =>
      l.clientLimited ? [`${m.target} load at ${l.level}: ${l.clientLimited}`] : [],
    ),
  );
}

/**
 * A load level's client verdict from the CPU the client used during it: at CPU_LIMIT_PERCENT of a
 * core, the one JavaScript thread that issues and reads every query is the limit.
 */
export function levelClientLimit(cpuPercent: number, who: string, loopPercent?: number): string | undefined {
  if (cpuPercent >= CPU_LIMIT_PERCENT) return `client-limited: ${who} at ${Math.round(cpuPercent)}% CPU`;
  // Busy whenever it had the CPU, and it had the CPU less than it was busy: the host took the rest
  // (steal on a VM, or other processes), and still nothing was left for more work (levelBusy.ts).
  if (loopPercent !== undefined && loopPercent >= CPU_LIMIT_PERCENT)
    return `client-limited: ${who} busy ${Math.round(loopPercent)}% of the time at ${Math.round(cpuPercent)}% CPU (the host took the rest)`;
  return undefined;
}

/**
 * The level from which throughput stopped growing (under 10% more than the level before) while the
 * client was saturated: the sweep's ceiling is the client's there, not the database's.
 */
export function clientCeiling(levels: readonly LoadLevelFigures[]): number | undefined {
  for (let i = 1; i < levels.length; i++) {
    const level = levels[i]!;
    const before = levels[i - 1]!;
    if (level.clientLimited && level.throughput < before.throughput * 1.1) return level.level;
  }
  return undefined;
}

export const idleClientWatch: ClientWatch = {
  eventLoopDelayP99Us: 0,
  eventLoopDelayMaxUs: 0,
  cpuPercent: 0,
  bottleneck: false,
};
