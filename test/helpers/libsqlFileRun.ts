/**
 * A million-sample run on an embedded libSQL file: it answers without I/O, so only the engine's turns
 * between samples let timers, signals and finalizers run. The CLI tests of the run's limits and of its
 * memory start from it.
 */
import * as path from 'node:path';
import type { RunResult } from '../../src/shared/result';
import { configDir } from './cli';

export const MILLION = 1_000_000;

/** A config folder with one embedded target of a million iterations, and the env its URL needs. */
export function libsqlFileRun(extra: Record<string, unknown>): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = configDir({
    targets: [{ name: 'embedded', driver: 'libsql', connection: 'env:LIBSQL_URL' }],
    iterations: MILLION,
    warmup: 0,
    ...extra,
  });
  return { cwd, env: { LIBSQL_URL: `file:${path.join(cwd, 'probe.db')}` } };
}

export function samplesIn(result: RunResult): number {
  return result.measurements.reduce((sum, m) => sum + m.stats.count, 0);
}
