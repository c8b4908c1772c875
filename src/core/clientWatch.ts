/**
 * Watches the client while it measures: a blocked event loop or a saturated CPU inflates every
 * latency, and the result must say so instead of blaming the database.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ClientWatch } from '../shared/result';

/** Event-loop delay p99 above this means timers and socket reads were served late. */
const LOOP_DELAY_LIMIT_US = 20_000;
/** One core is what a single Node process can use. */
const CPU_LIMIT_PERCENT = 90;

export interface ClientWatcher {
  /** `cpuIsWorkload`: the database runs in this process (embedded), so busy CPU is the work itself. */
  stop(options?: { cpuIsWorkload?: boolean }): ClientWatch;
}

/**
 * Whose CPU the watch counts: the whole process (the CLI, a runner), or only the engine's thread (the
 * editor's probe thread, whose process is the editor's extension host: its CPU is not the probe's).
 */
export type ClientScope = 'process' | 'thread';

type CpuUsage = (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage;

export function watchClient(scope: ClientScope = 'process'): ClientWatcher {
  // The event-loop delay is always this thread's own. Thread CPU needs Node 22.19/23.9 or later
  // (VS Code's Electron and code-server have it); before that the process's figure is all there is.
  const threadCpu = (process as { threadCpuUsage?: CpuUsage }).threadCpuUsage?.bind(process);
  const cpuUsage: CpuUsage = scope === 'thread' && threadCpu ? threadCpu : (p) => process.cpuUsage(p);
  const who =
    scope === 'process'
      ? 'the probe process'
      : threadCpu
        ? 'the probe thread'
        : 'the process running the probe thread';
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const cpuStart = cpuUsage();
  const wallStart = process.hrtime.bigint();
  return {
    stop(options = {}): ClientWatch {
      histogram.disable();
      const cpu = cpuUsage(cpuStart);
      const wallUs = Number((process.hrtime.bigint() - wallStart) / 1000n) || 1;
      const cpuPercent = Math.round(((cpu.user + cpu.system) / wallUs) * 1000) / 10;
      const p99 = Math.round(histogram.percentile(99) / 1000);
      const max = Math.round(histogram.max / 1000);
      const reasons: string[] = [];
      if (p99 > LOOP_DELAY_LIMIT_US) reasons.push(`event-loop delay p99 was ${(p99 / 1000).toFixed(1)} ms`);
      if (cpuPercent > CPU_LIMIT_PERCENT && !options.cpuIsWorkload)
        reasons.push(`${who} used ${cpuPercent}% of a CPU`);
      return {
        eventLoopDelayP99Us: p99,
        eventLoopDelayMaxUs: max,
        cpuPercent,
        bottleneck: reasons.length > 0,
        ...(reasons.length > 0
          ? { note: `The client may have limited these figures: ${reasons.join(' and ')}.` }
          : {}),
      };
    },
  };
}

export const idleClientWatch: ClientWatch = {
  eventLoopDelayP99Us: 0,
  eventLoopDelayMaxUs: 0,
  cpuPercent: 0,
  bottleneck: false,
};
