/**
 * A target with an ORM layer is measured twice in one run: raw under its own name, and through the
 * layer under `name · layer`, side by side, so the run's interleaving and its one comparison rule
 * treat the pair like any two targets and the layer's cost is their difference.
 */
import { layeredName } from '../shared/layerCatalog';
import type { PlanSpec, TargetSpec } from '../shared/plan';
import type { ConnectionResolver } from './slot';

export function withLayerTwins(plan: PlanSpec): PlanSpec {
  if (!plan.targets.some(needsTwin)) return plan;
  return { ...plan, targets: plan.targets.flatMap(expand) };
}

/** A layered target not yet paired (a plan expanded once is left as it is). */
function needsTwin(target: TargetSpec): boolean {
  return target.orm !== undefined && target.rawTwin === undefined;
}

function expand(target: TargetSpec): TargetSpec[] {
  if (!needsTwin(target) || target.orm === undefined) return [target];
  const { orm, ormQuery, ...raw } = target;
  return [
    raw,
    {
      ...raw,
      name: layeredName(target.name, orm),
      orm,
      ...(ormQuery ? { ormQuery } : {}),
      rawTwin: target.name,
    },
  ];
}

/**
 * Resolves a layered twin's connection as its raw target's: callers resolve the targets they were
 * given (by name, often), and the twin is the same connection under another name.
 */
export function resolvingTwinsAsRaw(
  targets: readonly TargetSpec[],
  resolve: ConnectionResolver,
): ConnectionResolver {
  const byName = new Map(targets.map((target) => [target.name, target]));
  return (target) => resolve(target.rawTwin === undefined ? target : (byName.get(target.rawTwin) ?? target));
}
