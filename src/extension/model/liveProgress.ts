/**
 * The progress of a run under way, for the panel that opens as the run starts: per place, per target
 * and kind, samples taken of those asked, errors so far, the running p50 of the measured samples, a
 * load row's finished levels, and what a row waits for. Pure (no VS Code, no clock of its own): the
 * caller passes the events it already streams and the time to show. An engine failure's message never
 * gets in, only its class.
 */
import { newHistogram, valuesAtPercentiles } from '../../core/histogram';
import type { PagedHistogram } from '../../core/pagedHistogram';
import type { ProbeEvent } from '../../shared/events';
import type { ProbeKind } from '../../shared/plan';
import type {
  ProgressLevelView,
  ProgressPlaceView,
  ProgressRowView,
  ProgressViewModel,
} from '../../shared/viewModel';

interface Row extends Omit<ProgressRowView, 'p50Us'> {
  /** Part of the row done (0-1) for rows counted by duration, not samples (load, schedule). */
  fraction?: number;
  finished: boolean;
  /**
   * The measured samples so far, in the histogram the run's own statistics use (same buckets, so the
   * running p50 is the figure the result will give for these samples). Made at the first sample.
   */
  histogram?: PagedHistogram;
}

interface Place {
  label: string;
  state: ProgressPlaceView['state'];
  rows: Row[];
  /** The plan's warm-up samples per target and kind, counted in each row's samples asked. */
  warmup?: number;
}

export class LiveProgress {
  private readonly places: Place[];
  private cancelling = false;

  /** `labels`: one per place, in the order their events are numbered; `startedAt` on the caller's clock. */
  constructor(
    labels: readonly string[],
    private readonly title: string,
    private readonly startedAt: number,
  ) {
    this.places = labels.map((label) => ({ label, state: 'waiting', rows: [] }));
  }

  /** Counts one event from place `index`; returns whether anything shown changed. */
  handle(index: number, event: ProbeEvent): boolean {
    const place = this.places[index];
    if (!place) return false;
    if (place.state === 'waiting' && event.type !== 'done') place.state = 'running';
    switch (event.type) {
      case 'start': {
        const plan = event.header.plan;
        place.warmup = plan.warmup;
        place.rows = event.targets.flatMap((target) =>
          event.kinds.map((kind) => ({
            target,
            kind,
            done: 0,
            asked: askedOf(kind, plan.iterations + plan.warmup, event),
            errors: 0,
            finished: false,
          })),
        );
        return true;
      }
      case 'sample': {
        const row = rowOf(place, event.target, event.kind);
        row.done += 1;
        // The count the kind will take, as soon as it shortened to fit the run, not at its end.
        if (event.shortenedTo !== undefined) row.asked = event.shortenedTo + (place.warmup ?? 0);
        if (event.error !== undefined) row.errors += 1;
        else if (event.phase === 'measure' && event.us !== undefined) {
          row.histogram ??= newHistogram();
          // As the run's statistics record it: whole microseconds, 1 µs at least (src/core/stats.ts).
          row.histogram.recordValue(Math.max(1, Math.round(event.us)));
        }
        delete row.note;
        return true;
      }
      case 'wait': {
        const row = rowOf(place, event.target, event.kind);
        const of = event.totalMs !== undefined ? ` of ${seconds(event.totalMs)}` : '';
        row.note = `${waitLabel(event.step)} (${seconds(event.waitedMs)}${of})`;
        return true;
      }
      case 'progress': {
        const row = rowOf(place, event.target, event.kind);
        row.done = event.completed;
        row.errors = event.errors;
        row.fraction = Math.min(
          1,
          (event.levelIndex + Math.min(1, event.elapsedMs / Math.max(1, event.durationMs))) /
            Math.max(1, event.levels),
        );
        row.note = `level ${event.levelIndex + 1}/${event.levels}`;
        // A level that has finished shows its figures at once, not only in the result at the end.
        if (event.final) {
          const level: ProgressLevelView = {
            level: event.level,
            completed: event.completed,
            errors: event.errors,
            achievedRate: event.achievedRate,
            late: event.late,
            dropped: event.dropped,
          };
          row.levels = [...(row.levels ?? []).filter((l) => l.level !== event.level), level];
        }
        return true;
      }
      case 'targetDone': {
        const row = rowOf(place, event.target, event.kind);
        row.finished = true;
        // A default count shortened to fit the run's time bound: the row asked that many, not the plan's.
        if (event.shortenedTo !== undefined) row.asked = event.shortenedTo + (place.warmup ?? 0);
        delete row.note;
        return true;
      }
      case 'error': {
        if (!event.target) return false;
        const rows = place.rows.filter(
          (r) => r.target === event.target && (event.kind === undefined || r.kind === event.kind),
        );
        for (const row of rows) {
          row.errors += 1;
          if (row.done === 0) row.note = `could not start (${event.failure.class})`;
        }
        return rows.length > 0;
      }
      case 'done':
        return false;
    }
  }

  /** A place ended: done, or failed (what it measured until then stays counted). */
  settle(index: number, state: 'done' | 'failed'): void {
    const place = this.places[index];
    if (!place) return;
    place.state = state;
    for (const row of place.rows) if (state === 'done') row.finished = true;
  }

  /** Cancel was pressed (in the panel or the notification): the panel says the run is stopping. */
  cancel(): void {
    this.cancelling = true;
  }

  view(now: number): ProgressViewModel {
    const places = this.places.map((p) => ({
      label: p.label,
      state: p.state,
      percent: placePercent(p),
      rows: p.rows.map(({ target, kind, done, asked, errors, note, histogram, levels }) => ({
        target,
        kind,
        done,
        asked,
        errors,
        ...(histogram && histogram.totalCount > 0 ? { p50Us: runningP50(histogram) } : {}),
        ...(levels ? { levels: levels.map((l) => ({ ...l })) } : {}),
        ...(note !== undefined ? { note } : {}),
      })),
    }));
    const percent = places.reduce((sum, p) => sum + p.percent, 0) / Math.max(1, places.length);
    return {
      title: this.title,
      elapsedMs: Math.max(0, Math.round(now - this.startedAt)),
      percent: Math.round(percent * 10) / 10,
      state: this.cancelling ? 'cancelling' : 'running',
      places,
    };
  }
}

/** The p50 as the run's statistics give it: the bucket's top, never above the largest sample. */
function runningP50(histogram: PagedHistogram): number {
  return Math.min(valuesAtPercentiles(histogram, [50])[0] ?? 0, histogram.maxValue);
}

/**
 * Samples asked per target for a kind: the plan's count, or what the start event's total leaves. The
 * one count of a row every surface shows (the panel's rows, the progress notification).
 */
export function askedOf(
  kind: ProbeKind,
  perKind: number,
  start: Extract<ProbeEvent, { type: 'start' }>,
): number {
  if (kind === 'initial' || kind === 'subsequent') return perKind;
  if (kind === 'load' || kind === 'schedule') return 0;
  // cold: its own sample count, the part of the total the counted kinds do not take.
  const counted = start.kinds.filter((k) => k === 'initial' || k === 'subsequent').length;
  const rest = start.totalSamples / Math.max(1, start.targets.length) - counted * perKind;
  const coldKinds = start.kinds.filter((k) => k === 'cold').length;
  return Math.max(0, Math.round(rest / Math.max(1, coldKinds)));
}

function rowOf(place: Place, target: string, kind: ProbeKind): Row {
  let row = place.rows.find((r) => r.target === target && r.kind === kind);
  if (!row) {
    row = { target, kind, done: 0, asked: 0, errors: 0, finished: false };
    place.rows.push(row);
  }
  return row;
}

function placePercent(place: Place): number {
  if (place.state === 'done' || place.state === 'failed') return 100;
  if (place.rows.length === 0) return 0;
  const parts = place.rows.map((r) => {
    if (r.finished) return 1;
    if (r.fraction !== undefined) return r.fraction;
    return r.asked > 0 ? Math.min(1, r.done / r.asked) : 0;
  });
  return Math.round((parts.reduce((a, b) => a + b, 0) / parts.length) * 1000) / 10;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/** The wait's step, not its message: a cold command's text could hold anything the user typed. */
function waitLabel(step: Extract<ProbeEvent, { type: 'wait' }>['step']): string {
  switch (step) {
    case 'suspend':
      return 'cold: suspending';
    case 'poll':
      return 'cold: waiting until suspended';
    case 'idle':
      return 'cold: idle wait';
    case 'command':
      return 'cold: running the cold command';
    case 'pause':
      return 'cold: pause';
  }
}
