/** A target made ready to probe: driver loaded, connection resolved, URL checked. */
import { ProbeError } from './failure';
import type { Driver, DriverConnection, DriverInfo, DriverRegistry, Transport } from './driver';
import type { TargetSpec } from '../shared/plan';
import type { TargetInfo } from '../shared/result';
import type { PreparedWorkload } from './workloads';

export interface TargetSlot {
  spec: TargetSpec;
  info: TargetInfo;
  driver?: Driver;
  url?: string;
  workload: string;
  /** The warm connection of the `subsequent` kind. */
  conn?: DriverConnection;
  /** The workload preset the target names, made for its driver (see workloads.ts). */
  preset?: PreparedWorkload;
  /** Why this target cannot be probed at all. */
  setupError?: unknown;
}

export type ConnectionResolver = (target: TargetSpec) => Promise<string>;

export async function prepareSlot(
  spec: TargetSpec,
  registry: DriverRegistry,
  resolve: ConnectionResolver,
  registerSecret: (secret: string) => void,
): Promise<TargetSlot> {
  const info = registry.info(spec.driver);
  const workload = spec.query ?? info?.defaultQuery ?? '';
  const slot: TargetSlot = {
    spec,
    workload,
    info: {
      name: spec.name,
      driver: spec.driver,
      transport: info?.transport ?? 'tcp',
      connection: spec.connection,
      query: workload,
    },
  };
  try {
    const url = await resolve(spec);
    registerSecret(url);
    if (!info) throw new ProbeError('config', `unknown driver "${spec.driver}"`);
    const problem = checkConnectionString(url, info);
    if (problem) throw new ProbeError('config', problem);
    slot.driver = await loadDriver(registry, spec.driver, info.packageName);
    slot.url = url;
    slot.info.transport = (slot.driver.transportFor?.(url) ?? info.transport) satisfies Transport;
    const endpoint = endpointOf(url);
    if (endpoint) slot.info.endpoint = endpoint;
  } catch (error) {
    slot.setupError = error;
  }
  return slot;
}

/** Says what is wrong with a connection string for a driver, or undefined when it looks usable. */
export function checkConnectionString(url: string, info: DriverInfo): string | undefined {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  const scheme = match?.[1]?.toLowerCase();
  const expected = info.schemes.map((s) => `${s}:`).join(' or ');
  if (!scheme || !info.schemes.includes(scheme)) {
    const got = scheme ? `"${scheme}:"` : 'no URL scheme';
    return `the connection string has ${got}, but driver ${info.id} expects ${expected} (e.g. ${info.connectionExample})`;
  }
  if (scheme === 'file') return undefined;
  try {
    const parsed = new URL(url);
    if (!parsed.hostname) return `the connection string has no host (e.g. ${info.connectionExample})`;
  } catch {
    return `the connection string is not a valid URL; check for characters that need percent-encoding in the password (e.g. ${info.connectionExample})`;
  }
  return undefined;
}

async function loadDriver(registry: DriverRegistry, id: string, packageName: string): Promise<Driver> {
  try {
    return await registry.load(id);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProbeError(
      'config',
      `driver ${id} could not load its package ${packageName} (${reason}); run npm install`,
    );
  }
}

/** host:port for labels; never credentials, paths or parameters. */
export function endpointOf(url: string): string | undefined {
  if (/^file:/i.test(url)) return 'embedded file';
  try {
    const parsed = new URL(url);
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname || undefined;
  } catch {
    return undefined;
  }
}
