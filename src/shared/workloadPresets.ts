/**
 * Workloads from the reference write-ups, as presets a target names (`"workload": "select-250"`)
 * instead of writing a query. Every preset but `select-1` works on a scratch table, key or
 * collection the probe creates, seeds and drops again, so it runs only with `"allowWrites": true`.
 */

export const WORKLOAD_PRESETS = {
  'select-1': { family: 'sql', scratch: false, label: 'SELECT 1' },
  'point-read': { family: 'sql', scratch: true, label: 'one row by primary key' },
  'select-250': { family: 'sql', scratch: true, label: '250 rows' },
  'select-10000': { family: 'sql', scratch: true, label: '10,000 rows' },
  'insert-250': { family: 'sql', scratch: true, label: 'insert 250 rows in one statement' },
  'insert-2000': { family: 'sql', scratch: true, label: 'insert 2,000 rows in one statement' },
  'pgbench-tx': {
    family: 'sql',
    scratch: true,
    label: 'pgbench-style transaction: update, select, update, update, insert',
  },
  'get-1kb': { family: 'redis', scratch: true, label: 'GET of a 1 KB value' },
  'set-1kb': { family: 'redis', scratch: true, label: 'SET of a 1 KB value' },
  'find-one-by-id': { family: 'mongo', scratch: true, label: 'findOne by _id' },
  'find-250': { family: 'mongo', scratch: true, label: 'find of 250 documents' },
} as const;

export type WorkloadPresetId = keyof typeof WORKLOAD_PRESETS;

export const WORKLOAD_PRESET_IDS = Object.keys(WORKLOAD_PRESETS) as WorkloadPresetId[];

export function isWorkloadPreset(value: unknown): value is WorkloadPresetId {
  return typeof value === 'string' && Object.hasOwn(WORKLOAD_PRESETS, value);
}

/** Every scratch table, key and collection starts with this, so a leftover is easy to find. */
export const SCRATCH_PREFIX = 'dbprobe_scratch_';
