/**
 * Progress on stderr: a redrawn bar on a terminal, plain lines otherwise (CI logs). Separate from the
 * engine, which only emits events.
 */
import type { ProbeEvent } from '../shared/events';
import { describeLoadProgress, worthLogging } from './loadProgress';

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const REDRAW_EVERY_NS = 80_000_000n;

export function createProgress(stream: ProgressStream, place?: string): (event: ProbeEvent) => void {
  const prefix = place ? `[${place}] ` : '';
  let total = 0;
  let done = 0;
  let lastDraw = 0n;
  let current = '';
  const tty = stream.isTTY === true;
  /** The last wait step printed per target, so a log gets one line per step. */
  const lastWait = new Map<string, string>();
  /** Per target and kind, the elapsed time of the last progress line a log got. */
  const lastLogged = new Map<string, number>();

  const draw = (force: boolean) => {
    const now = process.hrtime.bigint();
    if (!force && now - lastDraw < REDRAW_EVERY_NS) return;
    lastDraw = now;
    const width = 24;
    const filled = total === 0 ? 0 : Math.round((done / total) * width);
    const pct = total === 0 ? 0 : Math.floor((done / total) * 100);
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${done}/${total} ${current}`;
    stream.write(`\r${line.slice(0, (stream.columns ?? 100) - 1)}\x1b[K`);
  };

  return (event) => {
    switch (event.type) {
      case 'start':
        total = event.totalSamples;
        if (!tty)
          stream.write(
            `${prefix}probing ${event.targets.join(', ')} (${event.kinds.join(', ')}), ${total} samples\n`,
          );
        break;
      case 'sample':
        done += 1;
        lastWait.delete(event.target);
        current = `${event.target} ${event.kind}${event.phase === 'warmup' ? ' (warm-up)' : ''}`;
        if (tty) draw(false);
        break;
      case 'progress': {
        const text = `${prefix}${describeLoadProgress(event)}`;
        const key = `${event.target}\u0000${event.kind}\u0000${event.levelIndex}`;
        if (tty)
          stream.write(`\r${text.slice(0, (stream.columns ?? 100) - 1)}\x1b[K${event.final ? '\n' : ''}`);
        else if (worthLogging(event, lastLogged.get(key))) {
          lastLogged.set(key, event.elapsedMs);
          stream.write(`${text}\n`);
        }
        break;
      }
      case 'targetDone':
        // Each target's figures come after the run, below the verdict lines (stderrSummary.ts).
        if (tty) draw(true);
        break;
      case 'wait': {
        current = `${event.target} cold: ${event.message}${event.waitedMs >= 1000 ? ` (${Math.round(event.waitedMs / 1000)} s)` : ''}`;
        // On a terminal the bar shows every tick; a log gets one line per step, not one per second.
        if (tty) draw(true);
        else if (lastWait.get(event.target) !== event.step) {
          lastWait.set(event.target, event.step);
          stream.write(`${prefix}${event.target} cold: ${event.message}\n`);
        }
        break;
      }
      case 'error':
        stream.write(
          `${tty ? '\r\x1b[K' : ''}${prefix}${event.target ?? 'run'}: ${event.failure.class}: ${event.failure.message}\n`,
        );
        break;
      case 'done':
        if (tty) stream.write('\r\x1b[K');
        break;
    }
  };
}
