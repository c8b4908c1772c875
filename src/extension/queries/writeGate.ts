/**
 * Which chosen targets may run a statement. A read runs anywhere; anything else only on targets whose
 * spec says `allowWrites: true`, and even there only after the user confirms (the command asks).
 */
import type { TargetSpec } from '../../shared/plan';
import type { Classification } from '../../shared/classify';

export interface WriteGate<T> {
  allowed: T[];
  /** Targets that do not allow writes, with the sentence that says so. */
  refused: { target: T; why: string }[];
  /** True when what is allowed still needs the user's explicit confirmation. */
  needsConfirmation: boolean;
}

export function gateWrites<T extends { spec: Pick<TargetSpec, 'name' | 'allowWrites'> }>(
  targets: readonly T[],
  classification: Classification,
): WriteGate<T> {
  if (classification.readOnly) return { allowed: [...targets], refused: [], needsConfirmation: false };
  const allowed = targets.filter((t) => t.spec.allowWrites === true);
  const refused = targets
    .filter((t) => t.spec.allowWrites !== true)
    .map((target) => ({
      target,
      why: `"${target.spec.name}" does not allow writes (${classification.reason}); add "allowWrites": true to its target in settings or dbprobe.json to allow them there`,
    }));
  return { allowed, refused, needsConfirmation: allowed.length > 0 };
}
