/** Small helpers every driver uses to honour the engine's abort signal while connecting. */

/**
 * How much later than the engine's connect deadline a driver's own connect timer is set. The
 * engine's deadline speaks for a timeout in the words every driver shares ("connect timed out after
 * N ms"); a driver timer of the same length raced it, and on a loaded host undici's won now and then
 * ("Connect Timeout Error ... timeout: 1000ms"). The driver's timer stays, as a backstop.
 */
const DRIVER_TIMER_SLACK_MS = 1_000;

/** The connect timeout to give a driver whose engine deadline is `timeoutMs`. */
export function driverConnectTimeoutMs(timeoutMs: number): number {
  return timeoutMs + DRIVER_TIMER_SLACK_MS;
}

/** Runs `onAbort` once if the signal fires before `dispose()`; runs it at once if already aborted. */
export function onAbort(signal: AbortSignal, onAbort: () => void): () => void {
  if (signal.aborted) {
    onAbort();
    return () => undefined;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** Connects with `open`, tearing the half-open client down with `destroy` if the signal fires. */
export async function connectAbortable<T>(
  signal: AbortSignal,
  open: () => Promise<T>,
  destroy: () => void,
): Promise<T> {
  const dispose = onAbort(signal, destroy);
  try {
    return await open();
  } catch (error) {
    destroy();
    throw error;
  } finally {
    dispose();
  }
}

/** Resolves when `end` settles or after `ms`, then makes sure the socket is gone. */
export async function closeWithin(end: () => Promise<unknown>, destroy: () => void, ms = 500): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([end(), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  } catch {
    // A failed goodbye still ends in destroy() below.
  } finally {
    clearTimeout(timer);
    destroy();
  }
}
