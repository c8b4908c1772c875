/**
 * The one watch loop of `dbprobe watch` and the runner's watch mode: starts a run every `everyMs`,
 * never two at once (a run that overruns delays the next), and stops within a moment of the signal
 * (the wait between runs ends at once; the run itself gets the signal).
 */

/** `500ms`, `30s`, `5m`, `1h` in milliseconds, from 10 ms to 24 h; undefined when not such a duration. */
export function watchIntervalMs(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
  const ms = match ? Number(match[1]) * unit[match[2] as keyof typeof unit] : NaN;
  return Number.isFinite(ms) && ms >= 10 && ms <= 86_400_000 ? ms : undefined;
}

export interface WatchLoopOptions {
  everyMs: number;
  /** Stop after this many runs (default: until the signal). */
  maxRuns?: number;
  signal: AbortSignal;
  /** One run; `run` counts from 1. It should honour `signal` so a stop is quick. */
  tick: (run: number, signal: AbortSignal) => Promise<void>;
}

/** Runs `tick` on the schedule until the signal or `maxRuns`; answers the number of runs made. */
export async function watchLoop(options: WatchLoopOptions): Promise<number> {
  const { everyMs, signal } = options;
  const maxRuns = options.maxRuns ?? Infinity;
  let runs = 0;
  while (!signal.aborted && runs < maxRuns) {
    const startedAt = performance.now();
    runs += 1;
    await options.tick(runs, signal);
    if (runs >= maxRuns) break;
    await sleep(Math.max(0, everyMs - (performance.now() - startedAt)), signal);
  }
  return runs;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
