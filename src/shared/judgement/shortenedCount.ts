/**
 * A run whose default sample count did not fit its time bound (core/sampleBudget.ts): the count each
 * kind took instead, said once in the verdict's notes (not in its lines: the first viewport answers the
 * question, and the figures below say what they rest on), and the count the footers state.
 */
import type { ProbeKind } from '../plan';
import type { RunResult } from '../result';

/** The shortest count each kind shortened to, in the plan's order of kinds. */
function shortenedKinds(result: Pick<RunResult, 'measurements' | 'plan'>): [ProbeKind, number][] {
  const byKind = new Map<ProbeKind, number>();
  for (const m of result.measurements)
    if (m.shortenedTo !== undefined)
      byKind.set(m.kind, Math.min(byKind.get(m.kind) ?? m.shortenedTo, m.shortenedTo));
  return result.plan.kinds.flatMap((k) =>
    byKind.has(k) ? [[k, byKind.get(k)!] as [ProbeKind, number]] : [],
  );
}

/** "The default 100 samples per kind did not fit ...": undefined when every kind took its count. */
export function shortenedNote(result: Pick<RunResult, 'measurements' | 'plan'>): string | undefined {
  const kinds = shortenedKinds(result);
  if (kinds.length === 0) return undefined;
  const taken = kinds.map(([kind, n]) => `${kind} took ${n}`).join(', ');
  return `The default ${result.plan.iterations} samples per kind did not fit the run's time limit (timeouts.runMs ${result.plan.timeouts.runMs} ms), so the count shortened to fit: ${taken}. Ask for a count (iterations) to have it kept, or raise timeouts.runMs.`;
}

/** The samples per target and kind the run took: "100", or "40-100" where a kind shortened. */
export function samplesPerKind(result: Pick<RunResult, 'measurements' | 'plan'>): string {
  const shortened = new Map(shortenedKinds(result));
  const counts = result.plan.kinds
    .filter((k) => k === 'initial' || k === 'subsequent')
    .map((k) => shortened.get(k) ?? result.plan.iterations);
  if (counts.length === 0) return String(result.plan.iterations);
  const low = Math.min(...counts);
  const high = Math.max(...counts);
  return low === high ? String(low) : `${low}-${high}`;
}
