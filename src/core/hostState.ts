/**
 * How busy the host is while a run measures, read from what the kernel keeps (Linux): the probing
 * thread's own run-queue wait per sample (/proc/thread-self/schedstat, the time it was runnable but
 * not running, which a sample's latency includes), the share of the run some task waited for a CPU
 * (/proc/pressure/cpu), and the load average per core. Elsewhere the figures are absent and the
 * result says what was read.
 *
 * The per-sample reader keeps its file open and re-reads it at offset 0 (one pread, a few µs), so
 * the engine can read it just before a sample starts and just after it ends, outside the timed span.
 * /proc/thread-self resolves to the thread that opened it: each probing thread opens its own.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import * as os from 'node:os';
import type { HostState, Measurement } from '../shared/result';

const SCHEDSTAT = '/proc/thread-self/schedstat';
const PRESSURE = '/proc/pressure/cpu';

/** The probing thread's cumulative run-queue wait in µs, or undefined where the platform has none. */
export type CpuWaitReader = () => number | undefined;

/**
 * A reader of one cumulative figure in a /proc file kept open (one pread at offset 0 a call), or a
 * reader of undefined where the file cannot be opened.
 */
function procFigure(file: string, parse: (text: string) => number | undefined): CpuWaitReader {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
  } catch {
    return () => undefined;
  }
  const open = fd;
  const buffer = Buffer.alloc(160);
  process.once('exit', () => closeSync(open));
  return () => {
    try {
      const n = readSync(open, buffer, 0, buffer.length, 0);
      const figure = parse(buffer.toString('latin1', 0, n));
      return figure !== undefined && Number.isFinite(figure) ? figure : undefined;
    } catch {
      return undefined;
    }
  };
}

let reader: CpuWaitReader | undefined;
let pressureReader: CpuWaitReader | undefined;

/** This thread's reader (made once per thread: module state is per thread in Node). */
export function cpuWaitReader(): CpuWaitReader {
  // schedstat: "<ns on the CPU> <ns waiting in the run queue> <timeslices>".
  reader ??= procFigure(SCHEDSTAT, (text) => {
    const first = text.indexOf(' ');
    return Number(text.slice(first + 1, text.indexOf(' ', first + 1))) / 1000;
  });
  return reader;
}

/**
 * The host's cumulative CPU pressure (µs in which some task waited for a CPU: /proc/pressure/cpu
 * "some" total), read like the thread's wait. It sees what the thread's own wait cannot: a database
 * on the same host waiting too.
 */
export function cpuPressureReader(): CpuWaitReader {
  pressureReader ??= procFigure(PRESSURE, (text) => {
    const at = text.indexOf('total=');
    return at === -1 ? undefined : Number.parseInt(text.slice(at + 6), 10);
  });
  return pressureReader;
}

/** /proc/pressure/cpu's cumulative "some" stall time (µs), or undefined. */
function pressureTotalUs(): number | undefined {
  try {
    const line = readFileSync(PRESSURE, 'latin1').split('\n')[0] ?? '';
    const total = /total=(\d+)/.exec(line)?.[1];
    return total === undefined ? undefined : Number(total);
  } catch {
    return undefined;
  }
}

export interface HostWatch {
  /** The host's state from the watch's start to now, with the samples' own waits. */
  stop(measurements: readonly Measurement[], spans?: HostState['spans']): HostState;
}

export function watchHost(): HostWatch {
  const startNs = process.hrtime.bigint();
  const pressureStart = pressureTotalUs();
  const schedstat = cpuWaitReader()() !== undefined;
  return {
    stop(measurements, spans = []) {
      const wallUs = Number((process.hrtime.bigint() - startNs) / 1000n) || 1;
      const pressureEnd = pressureTotalUs();
      const sources: string[] = [];
      const state: HostState = { sources };
      const wait = sampleWaitShare(measurements);
      if (schedstat && wait !== undefined) {
        sources.push('schedstat');
        state.cpuWaitShare = round(wait);
      }
      if (pressureStart !== undefined && pressureEnd !== undefined) {
        sources.push('pressure');
        state.cpuPressureShare = round(Math.min(1, Math.max(0, (pressureEnd - pressureStart) / wallUs)));
      }
      const cores = os.cpus().length;
      const load = os.loadavg()[0];
      if (os.platform() !== 'win32' && cores > 0 && load !== undefined) {
        sources.push('loadavg');
        state.loadPerCore = Math.round((load / cores) * 100) / 100;
      }
      if (schedstat && spans.length > 0) state.spans = spans;
      return state;
    },
  };
}

/** Σ wait / Σ latency over every sample that carries a wait; undefined when none does. */
export function sampleWaitShare(measurements: readonly Measurement[]): number | undefined {
  let waitUs = 0;
  let timedUs = 0;
  let seen = false;
  for (const m of measurements)
    for (const s of m.samples.values) {
      if (s.us === undefined || s.cpuWaitUs === undefined) continue;
      seen = true;
      waitUs += s.cpuWaitUs;
      timedUs += s.us;
    }
  return seen && timedUs > 0 ? Math.min(1, waitUs / timedUs) : undefined;
}

function round(share: number): number {
  return Math.round(share * 10_000) / 10_000;
}
