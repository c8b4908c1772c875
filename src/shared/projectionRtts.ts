/**
 * The round-trip times a projection is shown at: the defaults, and the one reader of a
 * user's list, shared by the CLI's `--rtt` flag and the `dbprobe.projection.rtts` setting so both
 * accept and refuse the same lists with the same words.
 */

/** A function next to its database (1), the same region (10), a neighbour (30), a continent (80), the world (150). */
export const DEFAULT_PROJECTION_RTTS_MS: readonly number[] = [1, 10, 30, 80, 150];
/** More columns than this no longer fit a table or a chart's legend. */
export const MAX_PROJECTION_RTTS = 12;
/** Half the world's circumference in fibre is ~100 ms one way; beyond a second is a typo. */
export const MAX_PROJECTION_RTT_MS = 1_000;

export type RttsReading = { rttsMs: number[]; error?: never } | { error: string; rttsMs?: never };

/**
 * Reads a list of RTTs in milliseconds: "1,10,30" (the flag) or an array (the setting). Sorted and
 * de-duplicated; each from 0 to MAX_PROJECTION_RTT_MS, at most microsecond precision.
 */
export function readRtts(input: string | readonly unknown[], name: string): RttsReading {
  const items =
    typeof input === 'string'
      ? input
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : [...input];
  const fix = `give 1 to ${MAX_PROJECTION_RTTS} round-trip times in milliseconds from 0 to ${MAX_PROJECTION_RTT_MS}, e.g. ${typeof input === 'string' ? '"1,10,30"' : '[1, 10, 30]'}`;
  if (items.length === 0) return { error: `${name} is empty; ${fix}` };
  if (items.length > MAX_PROJECTION_RTTS)
    return { error: `${name} has ${items.length} round-trip times; ${fix}` };
  const values: number[] = [];
  for (const item of items) {
    const value =
      typeof item === 'number'
        ? item
        : typeof item === 'string' && /^\d+(\.\d+)?$/.test(item)
          ? Number(item)
          : NaN;
    if (!Number.isFinite(value) || value < 0 || value > MAX_PROJECTION_RTT_MS)
      return { error: `${name}: "${String(item)}" is not a round-trip time; ${fix}` };
    values.push(Math.round(value * 1000) / 1000);
  }
  return { rttsMs: [...new Set(values)].sort((a, b) => a - b) };
}
