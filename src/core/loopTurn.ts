/**
 * Lets the event loop turn between samples. A driver that answers without I/O (libSQL `file:`)
 * resolves its promises in the microtask queue, so a loop awaiting them back to back never reaches
 * the event loop: the run's time limit, cancellation, signal handlers, the event-loop-delay monitor
 * and native finalizers (libsql-js frees statement memory from them) would all wait for the run to
 * end. The engine asks `due()` once per sample, outside the timed window, and awaits `turn()` when
 * it says so: every `everySamples` samples or every `everyMs` of wall time, whichever comes first.
 */

/** Samples between turns when the clock does not advance (a fake clock, a Worker's frozen timer). */
export const TURN_EVERY_SAMPLES = 1_000;
/** Wall time between turns: what a timer or a Cancel waits at most for a sample loop without I/O. */
export const TURN_EVERY_MS = 5;

export class LoopTurn {
  private samples = 0;
  /** When the wall-time budget runs out; a comparison per sample, no BigInt arithmetic. */
  private nextNs: bigint | undefined;
  private readonly everyNs: bigint;

  constructor(
    private readonly everySamples = TURN_EVERY_SAMPLES,
    everyMs = TURN_EVERY_MS,
  ) {
    this.everyNs = BigInt(Math.round(everyMs * 1_000_000));
  }

  /** True when the caller should await `turn()` before the next sample; `nowNs` is a clock reading. */
  due(nowNs: bigint): boolean {
    this.nextNs ??= nowNs + this.everyNs;
    this.samples += 1;
    if (this.samples < this.everySamples && nowNs < this.nextNs) return false;
    this.samples = 0;
    this.nextNs = nowNs + this.everyNs;
    return true;
  }

  /** One macrotask: timers, I/O callbacks, signals and deferred finalizers get their turn. */
  turn(): Promise<void> {
    return new Promise((resolve) => macrotask(resolve));
  }
}

/** setImmediate where the runtime has it (Node); a zero timer elsewhere (Workers, browsers). */
const macrotask: (callback: () => void) => void =
  typeof globalThis.setImmediate === 'function'
    ? (callback) => void globalThis.setImmediate(callback)
    : (callback) => void setTimeout(callback, 0);
