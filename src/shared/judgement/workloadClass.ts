/**
 * Which targets answer the same question: targets are ranked, and runs compared, only within one
 * workload class. The rule: what each sample sends decides, not the driver. A target's `query` (as
 * the result records it: the query written, the driver's default, or `workload ID: label` for a
 * preset) is normalised (case, runs of white space, a trailing semicolon) and equal texts are one
 * class. So `SELECT 1` over pg, mysql2, PlanetScale, Neon and libSQL is one class, Redis `PING`
 * over ioredis and Upstash another, and `SELECT 1` never meets `PING` or MongoDB's `{ping:1}`. The
 * `select-1` preset sends `SELECT 1` and joins that class; every other preset is its own class
 * (its family is fixed, so it cannot span SQL and Redis). Two different SQL statements are two
 * classes even when both are "small": the tool cannot tell what work each asks of the server.
 */
import type { TargetInfo } from '../result';
import { isWorkloadPreset } from '../workloadPresets';

export interface WorkloadClass {
  /** Equal keys: comparable targets. */
  key: string;
  /** For sentences: the query as written, or the preset. */
  label: string;
}

const PRESET = /^workload ([a-z0-9-]+):/;
const LABEL_MAX = 40;

export function workloadClassOf(target: Pick<TargetInfo, 'query'>): WorkloadClass {
  const query = target.query.trim();
  const preset = PRESET.exec(query)?.[1];
  if (preset !== undefined && isWorkloadPreset(preset)) {
    if (preset === 'select-1') return { key: 'select 1', label: 'SELECT 1' };
    return { key: `workload ${preset}`, label: `workload ${preset}` };
  }
  const key = query.replace(/;\s*$/, '').replace(/\s+/g, ' ').toLowerCase();
  const label = query.length > LABEL_MAX ? `${query.slice(0, LABEL_MAX - 1)}…` : query;
  return { key, label };
}

/** The targets of a run grouped by class, in the run's order (the first target's label names each). */
export function workloadClasses(
  targets: readonly TargetInfo[],
): { workload: WorkloadClass; targets: string[] }[] {
  const classes: { workload: WorkloadClass; targets: string[] }[] = [];
  for (const t of targets) {
    const workload = workloadClassOf(t);
    const found = classes.find((c) => c.workload.key === workload.key);
    if (found) found.targets.push(t.name);
    else classes.push({ workload, targets: [t.name] });
  }
  return classes;
}
