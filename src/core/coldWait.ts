/**
 * Waiting without a timer that outlives cancellation: every wait of the `cold` kind (idle time,
 * polling, pauses) goes through here, so cancel ends it within a tick and progress is reported.
 */
import { ProbeError } from './failure';

const TICK_MS = 1_000;

/** Sleeps `ms`, calling `onTick(waitedMs)` about once a second; rejects as `cancelled` on abort. */
export function waitFor(ms: number, signal: AbortSignal, onTick?: (waitedMs: number) => void): Promise<void> {
  if (signal.aborted) return Promise.reject(new ProbeError('cancelled', 'wait cancelled'));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let ticker: NodeJS.Timeout | undefined;
    const done = setTimeout(() => {
      cleanup();
      resolve();
    }, ms);
    if (onTick && ms > TICK_MS)
      ticker = setInterval(() => onTick(Math.round(performance.now() - started)), TICK_MS);
    const onAbort = () => {
      cleanup();
      reject(new ProbeError('cancelled', 'wait cancelled'));
    };
    function cleanup() {
      clearTimeout(done);
      if (ticker) clearInterval(ticker);
      signal.removeEventListener('abort', onAbort);
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
