/**
 * A wait on an outside service bounded by its own timeout: a signal that aborts when the caller's
 * does or when the time runs out, whichever comes first, and says which.
 *
 * Not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: Node's timer holds a timeout signal only
 * weakly, and a signal made by `any` holds its sources weakly too, so once the garbage collector runs
 * nothing keeps the timeout alive and the wait never ends (seen: a Neon API that accepted the
 * connection and never answered held a cold run for its whole 15-minute run limit). Here the timer
 * holds the controller, and `dispose()` clears both the timer and the listener on the caller's signal.
 */

/** The reason a TimeoutSignal gives when its time ran out (a caller's cancel keeps the caller's). */
export class WaitExpired extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'WaitExpired';
  }
}

/** True when `signal` ended because a TimeoutSignal's time ran out, its own or one it follows. */
export function expiredWait(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof WaitExpired;
}

export class TimeoutSignal {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private expired = false;

  constructor(
    readonly ms: number,
    private readonly parent?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new WaitExpired(ms));
    }, ms);
    if (parent?.aborted) this.follow();
    else parent?.addEventListener('abort', this.follow, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when this wait's own time ran out (not the caller's cancel, nor a timeout it followed). */
  get timedOut(): boolean {
    return this.expired;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.follow);
  }

  private readonly follow = (): void => {
    clearTimeout(this.timer);
    this.controller.abort(this.parent?.reason);
  };
}
