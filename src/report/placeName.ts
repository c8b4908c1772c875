/** Names the place a result was measured from: "this machine", "runner us-east-1". */
import type { RunResult } from '../shared/result';

export function placeOf(result: RunResult): string {
  const where = result.environment.location;
  return where.region && !where.label.includes(where.region)
    ? `${where.label} (${where.region})`
    : where.label;
}
