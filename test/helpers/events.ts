/** A run header for hand-made `start` events in tests. */
import type { RunHeader } from '../../src/shared/result';

export const TEST_HEADER: RunHeader = {
  id: 'test-run',
  startedAt: '2026-01-01T00:00:00.000Z',
  environment: {
    tool: { name: 'dbprobe', version: 'test' },
    node: 'v20.0.0',
    os: { platform: 'linux', release: 'test', arch: 'x64' },
    cpus: { count: 2, model: 'test cpu' },
    hostname: 'test-host',
    clock: { name: 'fake', unit: 'us' },
    drivers: {},
    location: { kind: 'local', label: 'this machine' },
  },
  plan: {
    kinds: ['initial', 'subsequent'],
    iterations: 2,
    warmup: 0,
    order: 'interleaved',
    timeouts: { connectMs: 1000, queryMs: 1000, runMs: 10_000 },
    sampleCap: 100,
  },
  targets: [],
};
