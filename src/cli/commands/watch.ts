/**
 * `dbprobe watch`: probe the configured targets on a schedule and serve the figures on /metrics for
 * Prometheus to scrape. Runs are small (a few samples of each kind) and never overlap; the state is
 * fixed in size (src/report/watchMetrics.ts), so a watch can run for months.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseFlags } from '../parseFlags';
import { PLAN_LIMITS } from '../../shared/limits';
import { createRegistry } from '../../drivers/registry';
import { cliPackageLookup } from '../projectPackages';
import { localPlace } from '../../places/localPlace';
import { failureOf, resultOf } from '../../places/outcome';
import { watchIntervalMs, watchLoop } from '../../places/watchLoop';
import { WatchMetrics } from '../../report/watchMetrics';
import { healthChanges } from '../../shared/judgement/judgeHealth';
import { Redactor } from '../../shared/redact';
import { CliError, EXIT } from '../cliError';
import { cliColdPreparer } from '../coldPreparer';
import { anchorTlsFiles, planFromConfig, readConfigFile } from '../config';
import { resolveAll } from '../connections';
import type { CliIo } from '../io';
import { CLI_LOCAL_DESCRIPTION } from '../probe';
import { startWatchServer } from '../watchServer';
import { OTLP_CANCEL_FLUSH_MS, OTLP_USAGE, otlpConfigOf } from '../otlpConfig';
import type { OtlpExport } from '../otlpExporter';
import { tlsNotVerifiedSentence, unverifiedTargets } from '../../shared/tlsNotVerified';

export const WATCH_USAGE = `Usage: dbprobe watch [--every 30s] [--config dbprobe.json] [--targets a,b] [--kinds initial,subsequent,cold]
                    [--iterations 10] [--warmup 1] [--host 127.0.0.1] [--port 9464]
                    [--token-file FILE] [--open-on-loopback] [--runs N] [--quiet] [--otlp URL]
       serves /metrics (Prometheus text format) behind a Bearer token read from DBPROBE_WATCH_TOKEN or
       --token-file; --open-on-loopback serves it without a token, only on 127.0.0.1. Ctrl-C stops.
       --every    time between the starts of two runs (e.g. 500ms, 30s, 5m; a run that overruns delays the next)
       --runs     stop after N runs (default: until Ctrl-C)
${OTLP_USAGE}; each run is sent as it ends`;

const WATCH_KINDS = ['initial', 'subsequent', 'cold'];
const LOOPBACK = '127.0.0.1';

export async function watchCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: {
      config: { type: 'string', short: 'c', default: 'dbprobe.json' },
      targets: { type: 'string' },
      kinds: { type: 'string' },
      every: { type: 'string', default: '30s' },
      iterations: { type: 'string', short: 'n', default: '10' },
      warmup: { type: 'string', default: '1' },
      host: { type: 'string', default: LOOPBACK },
      port: { type: 'string', short: 'p', default: '9464' },
      'token-file': { type: 'string' },
      'open-on-loopback': { type: 'boolean', default: false },
      runs: { type: 'string' },
      quiet: { type: 'boolean', short: 'q', default: false },
      otlp: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const everyMs = parseInterval(values.every ?? '30s');
  const iterations = integer(values.iterations ?? '10', '--iterations', 1, PLAN_LIMITS.iterations);
  const warmup = integer(values.warmup ?? '1', '--warmup', 0, PLAN_LIMITS.warmup);
  const port = integer(values.port ?? '9464', '--port', 0, 65_535);
  const maxRuns = values.runs !== undefined ? integer(values.runs, '--runs', 1, 1_000_000_000) : Infinity;
  const host = values.host ?? LOOPBACK;
  const token = readToken(values['token-file'], io);
  if (!token) {
    if (!values['open-on-loopback'])
      throw new CliError(
        '/metrics needs a token: set DBPROBE_WATCH_TOKEN or pass --token-file FILE (Prometheus sends it with authorization: { type: Bearer, credentials_file: FILE }), or pass --open-on-loopback to serve it without one on 127.0.0.1',
      );
    if (host !== LOOPBACK)
      throw new CliError(
        `--open-on-loopback serves /metrics without a token only on ${LOOPBACK} (got --host ${host}); set DBPROBE_WATCH_TOKEN to serve it elsewhere`,
      );
  }

  const configPath = path.resolve(io.cwd, values.config ?? 'dbprobe.json');
  const registry = createRegistry(undefined, cliPackageLookup(configPath, io.cwd));
  const config = readConfigFile(configPath);
  const kinds = values.kinds !== undefined ? list(values.kinds) : undefined;
  const plan = anchorTlsFiles(
    planFromConfig(
      config,
      {
        ...(values.targets !== undefined ? { targets: list(values.targets) } : {}),
        kinds,
        iterations,
        warmup,
      },
      registry.ids(),
      path.relative(io.cwd, configPath) || configPath,
    ),
    path.dirname(configPath),
  );
  const duration = plan.kinds.filter((kind) => !WATCH_KINDS.includes(kind));
  if (duration.length > 0)
    throw new CliError(
      `watch probes ${WATCH_KINDS.join(', ')}; ${duration.join(', ')} run for a duration and would load the database on every tick: pass --kinds ${plan.kinds.filter((k) => WATCH_KINDS.includes(k)).join(',') || 'subsequent'}`,
    );

  const redactor = new Redactor();
  if (token) redactor.addSecret(token);
  const connections = resolveAll(plan.targets, io.env, registry, redactor);
  const otlpConfig = otlpConfigOf(values.otlp, io.env, redactor);
  const place = localPlace({
    registry,
    description: CLI_LOCAL_DESCRIPTION,
    ...(plan.kinds.includes('cold') ? { cold: cliColdPreparer(io.env) } : {}),
    // Every tick would open a side connection and run EXPLAIN: the per-sample sources stay on.
    serverTimeRuns: false,
  });
  const metrics = new WatchMetrics(plan, { redact: (t) => redactor.redact(t) });
  let server;
  try {
    server = await startWatchServer({
      host,
      port,
      token,
      metrics: async () => ({ body: await metrics.render(), contentType: metrics.contentType }),
    });
  } catch (error) {
    throw new CliError(
      `could not serve /metrics on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}; choose another --port`,
    );
  }
  let otlp: OtlpExport | undefined;
  let exporting: Promise<void> | undefined;
  const toldUnverified = new Set<string>();
  if (otlpConfig) {
    // Loaded only when asked for: a watch without OTLP never parses the SDK.
    const { startOtlpExport } = await import('../otlpExporter');
    otlp = startOtlpExport(otlpConfig, redactor, io);
  }
  io.stderr.write(
    `dbprobe watch: serving ${server.url}${token ? ' (Bearer token required)' : ' (open, loopback only)'}; probing ${plan.targets.map((t) => t.name).join(', ')} [${plan.kinds.join(', ')}] every ${values.every}\n`,
  );

  try {
    await watchLoop({
      everyMs,
      maxRuns,
      signal: io.signal,
      tick: async (runs, signal) => {
        const startedAt = performance.now();
        const outcome = await place.run({
          plan,
          resolveConnection: async (target) => connections.get(target.name) ?? '',
          redactor,
          signal,
          onEvent: (event) => metrics.onEvent(event),
        });
        const result = resultOf(outcome);
        const failure = failureOf(outcome);
        // Sent as each run ends, a cancelled run's samples too (by the shutdown below, within its
        // second): what was measured is never lost.
        if (result && otlp) {
          otlp.record(result);
          // Not awaited: a slow receiver must not hold back the next run. One flush at a time; what
          // a run records meanwhile goes with the next flush, or with the shutdown below.
          if (!signal.aborted && !exporting) exporting = otlp.flush().finally(() => (exporting = undefined));
        }
        const failed =
          failure && failure.class !== 'cancelled' ? redactor.redact(failure.message) : undefined;
        if (failed !== undefined) io.stderr.write(`dbprobe watch: run ${runs} failed: ${failed}\n`);
        // Said once per target, at the first run that shows it, as `dbprobe run` says it every run.
        for (const target of result ? unverifiedTargets(result.targets) : [])
          if (!toldUnverified.has(target.name)) {
            toldUnverified.add(target.name);
            io.stderr.write(`dbprobe watch: ${redactor.redact(tlsNotVerifiedSentence(target))}\n`);
          }
        if (!signal.aborted) {
          const before = metrics.health;
          const health = result
            ? metrics.onResult(result, failed)
            : metrics.onRunFailed(failed ?? 'it gave no result', new Date());
          // A target's health is said when it changes (and on the first run), not on every tick.
          for (const changed of healthChanges(before, health))
            io.stderr.write(`dbprobe watch: ${redactor.redact(changed.sentence)}\n`);
        }
        if (!values.quiet) {
          // Under `node --expose-gc` the heap figure is the live heap, not wherever the collector was
          // (the memory check runs so); otherwise it is a rough gauge.
          (globalThis as { gc?: () => void }).gc?.();
          const memory = process.memoryUsage();
          const errors = result?.measurements.reduce((n, m) => n + m.stats.errors, 0) ?? 0;
          io.stderr.write(
            `dbprobe watch: run ${runs} in ${Math.round(performance.now() - startedAt)} ms, ${errors} errors; heap ${mb(memory.heapUsed)} MB, rss ${mb(memory.rss)} MB\n`,
          );
        }
      },
    });
  } finally {
    await server.close();
    await otlp?.shutdown(io.signal.aborted ? OTLP_CANCEL_FLUSH_MS : undefined);
  }
  return io.signal.aborted ? EXIT.cancelled : EXIT.ok;
}

/** `500ms`, `30s`, `5m`, `1h`; 10 ms at least (tight intervals are for the memory check). */
export function parseInterval(text: string): number {
  const ms = watchIntervalMs(text);
  if (ms === undefined)
    throw new CliError(
      `--every must be a duration from 10ms to 24h such as 500ms, 30s or 5m (got "${text}")`,
    );
  return ms;
}

function readToken(file: string | undefined, io: CliIo): string | undefined {
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(path.resolve(io.cwd, file), 'utf8');
    } catch (error) {
      throw new CliError(
        `--token-file ${file} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); give a file that holds the token`,
      );
    }
    const token = text.trim();
    if (!token) throw new CliError(`--token-file ${file} is empty; write the token into it`);
    return token;
  }
  return io.env.DBPROBE_WATCH_TOKEN?.trim() || undefined;
}

function list(value: string): string[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0)
    throw new CliError('an empty list was given; name one or more, separated by commas');
  return items;
}

function integer(value: string, flag: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max))
    throw new CliError(`${flag} must be a whole number from ${min} to ${max} (got "${value}")`);
  return n;
}

function mb(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1);
}
