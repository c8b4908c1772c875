/**
 * Turns engine events into what a progress notification shows: a percentage step and one line of
 * per-target progress, each target's samples of the kind under way out of those asked for that
 * kind: the count the panel's row shows (askedOf), never a total over kinds beside it.
 * Separate from the notification so the counting is tested without VS Code.
 */
import type { ProbeEvent } from '../../shared/events';
import type { ProbeKind } from '../../shared/plan';
import { askedOf } from '../model/liveProgress';

export interface ProgressStep {
  /** Percent of the whole run this event completed (VS Code adds the increments up). */
  increment: number;
  message: string;
}

export class ProgressTracker {
  private total = 0;
  /** Samples of the kind under way, per target. */
  private readonly done = new Map<string, number>();
  private readonly perTarget = new Map<string, number>();
  private readonly kindOf = new Map<string, ProbeKind>();
  /** Samples asked per target for each kind, as the panel's rows count them. */
  private readonly askedPerKind = new Map<ProbeKind, number>();
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
        const plan = event.header.plan;
        for (const kind of event.kinds)
          this.askedPerKind.set(kind, askedOf(kind, plan.iterations + plan.warmup, event));
        for (const name of event.targets) {
          this.done.set(name, 0);
          this.perTarget.set(name, each);
          if (event.kinds[0]) this.kindOf.set(name, event.kinds[0]);
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
        const sameKind = this.kindOf.get(event.target) === event.kind;
        this.done.set(event.target, (sameKind ? (this.done.get(event.target) ?? 0) : 0) + 1);
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
        const asked = kind ? (this.askedPerKind.get(kind) ?? 0) : 0;
        return `${name}${kind ? ` ${kind}` : ''} ${asked > 0 ? `${count}/${asked}` : count}`;
      })
      .join(' · ');
  }
}
