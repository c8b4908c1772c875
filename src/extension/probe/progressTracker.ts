/**
 * Turns engine events into what a progress notification shows: a percentage step and one line of
 * per-target progress. Separate from the notification so the counting is tested without VS Code.
 */
import type { ProbeEvent } from '../../shared/events';

export interface ProgressStep {
  /** Percent of the whole run this event completed (VS Code adds the increments up). */
  increment: number;
  message: string;
}

export class ProgressTracker {
  private total = 0;
  private readonly done = new Map<string, number>();
  private readonly perTarget = new Map<string, number>();
  private readonly kindOf = new Map<string, string>();
  private readonly failed = new Set<string>();
  /** A cold sample's wait (suspend, idle time, command), shown until the target's next sample. */
  private readonly waiting = new Map<string, string>();
  private kinds = 1;

  /** Returns the step to report, or undefined when the event changes nothing visible. */
  handle(event: ProbeEvent): ProgressStep | undefined {
    switch (event.type) {
      case 'start': {
        this.total = Math.max(1, event.totalSamples);
        this.kinds = Math.max(1, event.kinds.length);
        const each = Math.round(this.total / Math.max(1, event.targets.length));
        for (const name of event.targets) {
          this.done.set(name, 0);
          this.perTarget.set(name, each);
        }
        return { increment: 0, message: this.message() };
      }
      case 'wait': {
        const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
        const of = event.totalMs !== undefined ? ` of ${seconds(event.totalMs)}` : '';
        this.waiting.set(event.target, `${event.message} (${seconds(event.waitedMs)}${of})`);
        return { increment: 0, message: this.message() };
      }
      case 'sample': {
        this.waiting.delete(event.target);
        this.done.set(event.target, (this.done.get(event.target) ?? 0) + 1);
        this.kindOf.set(event.target, event.kind);
        return { increment: 100 / this.total, message: this.message() };
      }
      case 'error': {
        if (!event.target) return undefined;
        // A target that cannot start takes no samples for that kind: count its share as done so the
        // bar still reaches the end.
        this.failed.add(event.target);
        const skipped = (this.perTarget.get(event.target) ?? 0) / this.kinds;
        return { increment: (skipped / this.total) * 100, message: this.message() };
      }
      default:
        return undefined;
    }
  }

  message(): string {
    return [...this.done.entries()]
      .map(([name, count]) => {
        if (this.failed.has(name) && count === 0) return `${name}: could not start`;
        const wait = this.waiting.get(name);
        if (wait) return `${name} cold: ${wait}`;
        const kind = this.kindOf.get(name);
        return `${name}${kind ? ` ${kind}` : ''} ${count}/${this.perTarget.get(name) ?? 0}`;
      })
      .join(' · ');
  }
}
