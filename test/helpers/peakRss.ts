/** Peak resident memory of a child process, from Linux's /proc/<pid>/status (VmHWM, the high-water mark). */
import { readFileSync } from 'node:fs';

export interface PeakRssWatch {
  /** The last high-water mark read, in MB; 0 when none could be read. */
  stop(): number;
}

/** Polls every `everyMs` while the process lives; VmHWM only grows, so the last reading is the peak. */
export function watchPeakRss(pid: number, everyMs = 100): PeakRssWatch {
  let peakKb = 0;
  const read = () => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match?.[1]) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // The process has exited (or this is not Linux): keep the last reading.
    }
  };
  read();
  const timer = setInterval(read, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.round(peakKb / 1024);
    },
  };
}
