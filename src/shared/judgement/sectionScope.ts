/**
 * Which targets the sections below the verdict (the request-of-k crossovers, the projection, the
 * Differences) set against each other: the targets of the workload classes the verdict ranks (two or
 * more targets running one workload, workloadClass.ts), each only against its own class. A target
 * alone in its class ("nothing to rank it against" in the verdict) is shown apart, and one line says
 * why, once per surface; its own figures stay in its card, its statistics and the verdict's line.
 */
import type { RunResult } from '../result';
import { listText } from './shortMs';
import { workloadClasses, workloadClassOf } from './workloadClass';

export interface SectionScope {
  /** Targets of the verdict's classes, in the run's order. */
  compared: string[];
  /** Targets alone in their class, in the run's order. */
  apart: string[];
  /** Why the apart targets are not in the comparisons; absent when none is apart. */
  apartLine?: string;
}

export function sectionScope(result: Pick<RunResult, 'targets'>): SectionScope {
  const classes = workloadClasses(result.targets);
  const ranked = classes.filter((c) => c.targets.length > 1);
  const compared = ranked.flatMap((c) => c.targets);
  const alone = classes.filter((c) => c.targets.length === 1);
  const apart = alone.flatMap((c) => c.targets);
  // A run of one target, or of targets that all ran different workloads, compares nothing: no
  // section sets anyone against anyone, so there is nothing to set apart.
  if (ranked.length === 0 || apart.length === 0) return { compared, apart: [] };
  const named = listText(alone.map((c) => `${c.targets[0]} (${c.workload.label})`));
  const against = listText(ranked.map((c) => c.workload.label));
  const one = apart.length === 1;
  return {
    compared,
    apart,
    apartLine: `Shown apart: ${named} ${one ? 'is the only target' : 'are each the only target'} of ${one ? 'its' : 'their'} workload, so the crossovers, the projection and the Differences set only the ${against} targets against each other.`,
  };
}

/** Whether two targets may be set against each other: the same workload class. */
export function sameWorkload(result: Pick<RunResult, 'targets'>): (a: string, b: string) => boolean {
  const keys = new Map(result.targets.map((t) => [t.name, workloadClassOf(t).key]));
  return (a, b) => keys.get(a) !== undefined && keys.get(a) === keys.get(b);
}
