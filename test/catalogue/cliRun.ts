/**
 * Runs `dbprobe run` over catalogue targets as a real process: each target's connection string goes
 * into its own environment variable, the config into a fresh folder. Short timeouts and one
 * `initial` sample keep the catalogue fast.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { configDir, runCli, type CliRun } from '../helpers/cli';
import type { ExportFormat } from '../../src/shared/formats';
import type { VariantTarget } from './variants';

export interface NamedTarget extends VariantTarget {
  name: string;
}

export interface CatalogueRun extends CliRun {
  /** The `--out` file, when one was asked for and written. */
  exported?: string;
  /** Every text the run produced, for the leak scan. */
  outputs: string[];
  /** Bytes each target's server sent (by target name), where the group counted them (a slow link). */
  serverBytes?: Record<string, number>;
}

export interface CatalogueRunOptions {
  kinds?: string[];
  iterations?: number;
  timeoutMs?: number;
  format?: ExportFormat;
  /** Write the report to a file (in the config folder) instead of stdout. */
  out?: boolean;
  extraConfig?: Record<string, unknown>;
  extraArgs?: string[];
  /** More environment for the CLI (DBPROBE_TOKEN). */
  env?: Record<string, string>;
  /** Called with the CLI's pid once it started (to add a fault mid-run). */
  onSpawn?: (pid: number) => void;
}

export const envName = (name: string) => `CAT_${name.replace(/\W/g, '_').toUpperCase()}`;

export async function runCatalogueCli(
  targets: NamedTarget[],
  options: CatalogueRunOptions = {},
): Promise<CatalogueRun> {
  const timeoutMs = options.timeoutMs ?? 1_000;
  const cwd = configDir({
    targets: targets.map((t) => ({
      name: t.name,
      driver: t.driver,
      connection: `env:${envName(t.name)}`,
      ...(t.query ? { query: t.query } : {}),
      ...(t.options ? { options: t.options } : {}),
    })),
    kinds: options.kinds ?? ['initial'],
    iterations: options.iterations ?? 1,
    warmup: 0,
    // A fault is watched on the connection it is set on: one warm connection a target, and no
    // per-run reading of the database's time, whose connection would cross the fault too.
    warmConnections: 1,
    serverTimeRuns: false,
    timeouts: { connectMs: timeoutMs, queryMs: timeoutMs, runMs: 120_000 },
    ...options.extraConfig,
  });
  const format = options.format ?? 'markdown';
  const outFile = options.out ? path.join(cwd, `report.${format === 'markdown' ? 'md' : format}`) : undefined;
  const run = await runCli(
    ['run', '--format', format, ...(outFile ? ['--out', outFile] : []), ...(options.extraArgs ?? [])],
    {
      cwd,
      env: { ...Object.fromEntries(targets.map((t) => [envName(t.name), t.url])), ...options.env },
      timeoutMs: 60_000,
      ...(options.onSpawn ? { onSpawn: options.onSpawn } : {}),
    },
  );
  let exported: string | undefined;
  try {
    exported = outFile ? readFileSync(outFile, 'utf8') : undefined;
  } catch {
    exported = undefined;
  }
  return {
    ...run,
    ...(exported !== undefined ? { exported } : {}),
    outputs: [run.stdout, run.stderr, exported ?? ''],
  };
}

/** The stderr line the CLI gives for one target (failed, or with errors). */
export function targetLines(run: CliRun, name: string): string[] {
  return run.stderr.split('\n').filter((line) => line.startsWith(`dbprobe: target "${name}"`));
}
