/** Every probe kind by name: the engine runs the plan's kinds from here, in the plan's order. */
import type { PlanSpec, ProbeKind } from '../../shared/plan';
import { coldKind } from './coldKind';
import { initialKind } from './initialKind';
import type { Kind } from './kind';
import { loadKind } from './loadKind';
import { scheduleKind } from './scheduleKind';
import { subsequentKind } from './subsequentKind';

export const KINDS: Readonly<Record<ProbeKind, Kind>> = {
  initial: initialKind,
  subsequent: subsequentKind,
  cold: coldKind,
  schedule: scheduleKind,
  load: loadKind,
};

/** Samples per target a kind reports through `sample` events (Kind.eventSamplesPerTarget). */
export function eventSamplesPerTarget(plan: PlanSpec, kind: ProbeKind): number {
  return KINDS[kind].eventSamplesPerTarget(plan);
}
