/** The panel's cold-start rows: cold vs hot connect per target, from the cold kind's own figures. */
import type { Measurement } from '../../shared/result';
import type { ColdRow } from '../../shared/viewModel';

export function coldRows(measurements: readonly Measurement[]): ColdRow[] {
  return measurements.flatMap((m): ColdRow[] => {
    const cold = m.kind === 'cold' ? m.cold : undefined;
    if (!cold || cold.coldStart.count === 0) return [];
    const connect = m.phases?.connect;
    return [
      {
        target: m.target,
        mode: cold.mode,
        count: cold.coldStart.count,
        coldP50Us: m.stats.p50Us,
        hotP50Us: cold.hot.p50Us,
        ...(connect && connect.count > 0 ? { coldConnectP50Us: connect.p50Us } : {}),
        ...(cold.hotConnect.count > 0 ? { hotConnectP50Us: cold.hotConnect.p50Us } : {}),
        coldStart: cold.coldStart,
        waitP50Ms: median(cold.pairs.map((p) => p.waitMs)),
      },
    ];
  });
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}
