/** Runs one driver operation under a timeout and the run's cancellation signal. */
import { ProbeError } from './failure';

export interface DeadlineOptions<T> {
  timeoutMs: number;
  parent: AbortSignal;
  /** Names the operation in the error: "connect", "query". */
  what: string;
  /** Called with a value that arrived after the deadline (e.g. a connection to close). */
  onLate?: (value: T) => void;
  /** Called once when the deadline passes or the run is cancelled, before the promise rejects. */
  onAbandon?: () => void;
}

/**
 * The operation gets its own signal, aborted on timeout or cancellation, so the driver drops its
 * socket; the returned promise settles at the deadline without waiting for the driver to comply.
 */
export function runWithDeadline<T>(
  op: (signal: AbortSignal) => Promise<T>,
  options: DeadlineOptions<T>,
): Promise<T> {
  const { timeoutMs, parent, what, onLate, onAbandon } = options;
  if (parent.aborted) return Promise.reject(new ProbeError('cancelled', `${what} cancelled`));
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
      return true;
    };
    const fail = (error: ProbeError): void => {
      if (!settle()) return;
      controller.abort(error);
      onAbandon?.();
      reject(error);
    };
    const onAbort = (): void => fail(new ProbeError('cancelled', `${what} cancelled`));
    const timer = setTimeout(
      () => fail(new ProbeError('timeout', `${what} timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    parent.addEventListener('abort', onAbort, { once: true });
    let pending: Promise<T>;
    try {
      pending = op(controller.signal);
    } catch (error) {
      if (settle()) reject(error);
      return;
    }
    pending.then(
      (value) => {
        if (settle()) resolve(value);
        else onLate?.(value);
      },
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
  });
}

/** Resolves after `ms`, or at once when the signal aborts; never rejects. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
