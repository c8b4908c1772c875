/**
 * Progress of one run in several places at once, for one notification with one Cancel: each place
 * counts its own samples (ProgressTracker) and the bar moves by the average. With one place the text
 * is that place's per-target line; with several it is one short figure per place.
 */
import type { ProbeEvent } from '../../shared/events';
import { ProgressTracker, type ProgressStep } from './progressTracker';

type PlaceState = 'waiting' | 'running' | 'done' | 'failed';

interface PlaceProgressState {
  label: string;
  tracker: ProgressTracker;
  percent: number;
  state: PlaceState;
}

export class PlacesProgress {
  private readonly places: PlaceProgressState[];

  constructor(labels: readonly string[]) {
    this.places = labels.map((label) => ({
      label,
      tracker: new ProgressTracker(),
      percent: 0,
      state: 'waiting',
    }));
  }

  /** The step to report for an event from place `index`, or undefined when nothing visible changed. */
  handle(index: number, event: ProbeEvent): ProgressStep | undefined {
    const place = this.places[index];
    if (!place) return undefined;
    const step = place.tracker.handle(event);
    if (!step) return undefined;
    place.state = 'running';
    const increment = Math.min(step.increment, 100 - place.percent);
    place.percent += increment;
    return { increment: increment / this.places.length, message: this.message() };
  }

  /** A place finished (or failed): the rest of its share of the bar is done either way. */
  settle(index: number, state: 'done' | 'failed'): ProgressStep {
    const place = this.places[index];
    if (!place) return { increment: 0, message: this.message() };
    const rest = 100 - place.percent;
    place.percent = 100;
    place.state = state;
    return { increment: rest / this.places.length, message: this.message() };
  }

  message(): string {
    const only = this.places.length === 1 ? this.places[0] : undefined;
    if (only) return only.state === 'waiting' ? 'starting…' : only.tracker.message();
    return this.places
      .map((p) => {
        switch (p.state) {
          case 'waiting':
            return `${p.label}: starting`;
          case 'done':
            return `${p.label}: done`;
          case 'failed':
            return `${p.label}: failed`;
          case 'running':
            return `${p.label} ${Math.floor(p.percent)}%`;
        }
      })
      .join(' · ');
  }
}
