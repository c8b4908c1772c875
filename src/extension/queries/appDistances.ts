/**
 * The app's distance per target, for views that draw synchronously (the CodeLens): a runner place's
 * floor to a target is read from saved runs (appLocation.ts), which is asynchronous, so it is looked
 * up once per place and target, kept, and `onResolved` is called to redraw. A new run (`clear()`) or
 * a changed setting starts the lookups afresh. Pure: the caller passes the setting and the run store.
 */
import {
  appDistance,
  findPlaceFloor,
  type AppDistance,
  type AppLocation,
  type PlaceFloor,
  type PlaceRunSummary,
} from './appLocation';
import type { Measurement } from '../../shared/result';

export interface PlaceRuns {
  list(): Promise<readonly PlaceRunSummary[]>;
  load(id: string): Promise<{ measurements: readonly Measurement[] } | undefined>;
}

export class AppDistances {
  /** Per "place\ntarget": the floor found (or undefined: none), once the lookup has answered. */
  private readonly found = new Map<string, PlaceFloor | undefined>();
  private readonly pending = new Set<string>();
  /** Bumped by clear(): a lookup started before it does not write into the fresh cache. */
  private generation = 0;

  constructor(
    private readonly runs: PlaceRuns,
    private readonly onResolved: () => void,
    private readonly warn: (line: string) => void = () => undefined,
  ) {}

  /**
   * The distance for `target` now: an RTT setting at once; a place's floor once looked up (undefined
   * until then, so the view shows the measured figure alone for that moment, then redraws).
   */
  distanceFor(location: AppLocation | undefined, target: string): AppDistance | undefined {
    // Here: the measured figure is the app's, nothing to project.
    if (!location || location.kind === 'here') return undefined;
    if (location.kind === 'rtt') return appDistance(location, undefined);
    const key = `${location.place}\n${target}`;
    if (this.found.has(key)) return appDistance(location, this.found.get(key));
    if (!this.pending.has(key)) void this.lookUp(location.place, target, key);
    return undefined;
  }

  /** Forget every floor found: a run was saved or deleted, or the setting changed. */
  clear(): void {
    this.generation++;
    this.found.clear();
    this.pending.clear();
  }

  private async lookUp(place: string, target: string, key: string): Promise<void> {
    const generation = this.generation;
    this.pending.add(key);
    let floor: PlaceFloor | undefined;
    try {
      floor = await findPlaceFloor(place, target, await this.runs.list(), (id) => this.runs.load(id));
    } catch (error) {
      // The lens then says no run from the place measured it; the output channel says why.
      this.warn(`app location "${place}": ${error instanceof Error ? error.message : String(error)}`);
    }
    if (generation !== this.generation) return;
    this.pending.delete(key);
    this.found.set(key, floor);
    this.onResolved();
  }
}
