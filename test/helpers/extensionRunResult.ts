/** A small, hand-built RunResult for the extension's pure tests (no engine, no clock, no drivers). */
import type { ProbeKind } from '../../src/shared/plan';
import type {
  LatencyStats,
  Measurement,
  RunEnding,
  RunResult,
  RunResultBody,
  TargetInfo,
} from '../../src/shared/result';

export interface FakeMeasurement {
  target: string;
  kind: ProbeKind;
  p50Us: number;
  p95Us?: number;
  samplesUs?: number[];
  errors?: number;
}

export function stats(p50Us: number, p95Us = p50Us * 2, count = 10, errors = 0): LatencyStats {
  return {
    count,
    errors,
    errorRate: errors / Math.max(1, count + errors),
    minUs: Math.round(p50Us / 2),
    meanUs: p50Us,
    stddevUs: 1,
    p50Us,
    p90Us: p95Us,
    p95Us,
    p99Us: p95Us + 1,
    p999Us: p95Us + 2,
    maxUs: p95Us + 3,
  };
}

export function fakeResult(
  targets: { name: string; driver: string; transport: string }[],
  measurements: FakeMeasurement[],
  overrides: Partial<RunResultBody> = {},
  ending: RunEnding = { state: 'completed' },
): RunResult {
  const kinds = [...new Set(measurements.map((m) => m.kind))];
  const body: RunResultBody = {
    schema: 'dbprobe.run/v1',
    id: '11111111-2222-4333-8444-555555555555',
    startedAt: '2025-01-02T03:04:05.678Z',
    durationUs: 1_234_567,
    environment: {
      tool: { name: 'dbprobe', version: '0.1.0' },
      node: 'v20.0.0',
      os: { platform: 'linux', release: '6', arch: 'x64' },
      cpus: { count: 2, model: 'Test CPU' },
      hostname: 'host',
      clock: { name: 'fake', unit: 'us' },
      drivers: { pg: { package: 'pg', version: '8.0.0' } },
      location: { kind: 'local', label: 'this machine' },
    },
    plan: {
      kinds,
      iterations: 10,
      warmup: 1,
      order: 'interleaved',
      timeouts: { connectMs: 1000, queryMs: 1000, runMs: 10000 },
      sampleCap: 100,
    },
    // Any transport a test names; the result's own are tcp, http, ws and file.
    targets: targets.map((t) => ({
      ...t,
      transport: t.transport as TargetInfo['transport'],
      connection: `secret:${t.name}`,
      query: 'SELECT 1',
    })),
    measurements: measurements.map((m): Measurement => {
      const count = m.samplesUs?.length ?? 10;
      const errors = m.errors ?? 0;
      return {
        target: m.target,
        kind: m.kind,
        stats: count === 0 ? { ...stats(0, 0, 0, errors), p50Us: 0 } : stats(m.p50Us, m.p95Us, count, errors),
        histogram: {
          encoding: 'hdr-compressed-base64',
          lowestUs: 1,
          highestUs: 1e9,
          significantDigits: 3,
          data: '',
          moments: { count, mean: m.p50Us, m2: 0, min: m.p50Us, max: m.p50Us },
        },
        warmup: stats(m.p50Us, m.p95Us, 1),
        samples: {
          cap: 100,
          dropped: 0,
          values: [
            ...(m.samplesUs ?? Array.from({ length: 10 }, () => m.p50Us)).map((us, i) => ({
              atUs: i * 1000,
              us,
            })),
            ...Array.from({ length: errors }, (_, i) => ({ atUs: 50_000 + i, error: 'timeout' as const })),
          ],
        },
        errorsByClass: errors > 0 ? { timeout: errors } : {},
        firstErrors:
          errors > 0 ? [{ class: 'timeout', message: 'query timed out', hint: 'raise the timeout' }] : [],
        failed: count === 0,
        reused: m.kind === 'subsequent' ? ['connection'] : [],
      };
    }),
    client: { eventLoopDelayP99Us: 100, eventLoopDelayMaxUs: 200, cpuPercent: 5, bottleneck: false },
    ...overrides,
  };
  return { ...body, ...ending };
}
