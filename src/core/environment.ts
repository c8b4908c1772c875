/** What machine and software a run used, recorded in every result. */
import * as os from 'node:os';
import type { DriverVersion, RunEnvironment } from '../shared/result';
import type { Clock } from './clock';
import type { DriverRegistry } from './driver';

export function describeEnvironment(
  tool: { name: string; version: string },
  clock: Clock,
  registry: DriverRegistry,
  driverIds: string[],
  location: RunEnvironment['location'],
): RunEnvironment {
  const drivers: Record<string, DriverVersion> = {};
  for (const id of new Set(driverIds)) {
    const info = registry.info(id);
    if (info)
      drivers[id] = registry.packageSource(id) ?? { package: info.packageName, version: 'not installed' };
  }
  const cpus = os.cpus();
  return {
    tool,
    node: process.version,
    os: { platform: process.platform, release: os.release(), arch: process.arch },
    cpus: { count: cpus.length, model: cpus[0]?.model.trim() ?? 'unknown' },
    hostname: os.hostname(),
    clock: { name: clock.name, unit: 'us' },
    drivers,
    location,
  };
}
