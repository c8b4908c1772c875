/** A target made ready to probe: driver loaded, connection resolved, URL checked. */
import { ProbeError } from './failure';
import { PERCENT_ENCODE_ADVICE, unencodedCredentials } from './userinfo';
import type { ConnectTls, Driver, DriverInfo, DriverRegistry, Transport } from './driver';
import { readCaFileFromDisk, resolveTargetTls, type CaFileReader } from './tlsTrust';
import type { TargetSpec } from '../shared/plan';
import { layerInfo, type OrmLayer, type OrmQueryPath } from '../shared/layerCatalog';
import type { TargetInfo, TargetLayer } from '../shared/result';
import type { PreparedWorkload } from './workloads';

export interface TargetSlot {
  spec: TargetSpec;
  info: TargetInfo;
  driver?: Driver;
  url?: string;
  /** The target's TLS trust with its CA file read, when it sets one. */
  tls?: ConnectTls;
  workload: string;
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
  readCaFile: CaFileReader = readCaFileFromDisk,
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
      ...(spec.tls ? { tls: describeTls(spec.tls) } : {}),
      ...(spec.http ? { http: { version: spec.http.version } } : {}),
      ...(spec.orm
        ? { layer: describeLayer(spec.orm, spec.ormQuery ?? 'raw', spec.rawTwin ?? spec.name, registry) }
        : {}),
    },
  };
  try {
    const url = await resolve(spec);
    registerSecret(url);
    if (!info) throw new ProbeError('config', `unknown driver "${spec.driver}"`);
    const problem = checkConnectionString(url, info);
    if (problem) throw new ProbeError('config', problem);
    const tls = await resolveTargetTls(spec.tls, readCaFile);
    if (tls) slot.tls = tls;
    const driver = spec.orm
      ? await loadLayered(registry, spec.driver, spec.orm, spec.ormQuery ?? 'raw')
      : await loadDriver(registry, spec.driver, info.packageName);
    markUncheckedTls(slot, driver.uncheckedTls?.(url));
    const transport = (driver.transportFor?.(url) ?? info.transport) satisfies Transport;
    // Checked before the slot gets its driver, so a refused target takes no sample.
    if (spec.http && transport !== 'http') {
      throw new ProbeError(
        'config',
        `"http.version" applies to drivers that speak HTTP through fetch, but this target's ${spec.driver} connection uses ${transport}; remove "http" from the target, or use an https: URL where the driver offers one`,
      );
    }
    slot.driver = driver;
    slot.url = url;
    slot.info.transport = transport;
    const endpoint = endpointOf(url);
    if (endpoint) slot.info.endpoint = endpoint;
  } catch (error) {
    slot.setupError = error;
  }
  return slot;
}

/**
 * A connection string that turns certificate checks off makes the target insecure as surely as
 * `tls.insecure` does, and every view says so the same way. With `tls.caFile` it is a contradiction
 * (trust this CA, check nothing), refused before anything connects.
 */
function markUncheckedTls(slot: TargetSlot, setting: string | undefined): void {
  if (setting === undefined) return;
  if (slot.spec.tls?.caFile !== undefined)
    throw new ProbeError(
      'config',
      `${setting} turns ${setting.endsWith('(no host name check)') ? 'the host name check' : 'certificate checks'} off, and tls.caFile asks for them against ${slot.spec.tls.caFile}; remove the setting to check the certificate, or tls.caFile from the target (and set tls.insecure) to accept any`,
    );
  slot.info.tls = { ...slot.info.tls, insecure: true, insecureBy: setting };
}

/** What a result says about a target's TLS trust: an insecure target is never silent. */
function describeTls(tls: TargetSpec['tls']): TargetInfo['tls'] {
  const trust = tls?.insecure
    ? { insecure: true as const }
    : tls?.caFile !== undefined
      ? { caFile: tls.caFile }
      : {};
  return { ...trust, ...(tls?.maxVersion ? { maxVersion: tls.maxVersion } : {}) };
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
  if (scheme === 'file') {
    return url.slice('file:'.length).trim() === ''
      ? // Not "file:" itself: the connection string is a registered secret, so the redactor would mask it.
        'the connection string names no database file; put its path after the scheme (e.g. ./local.db)'
      : undefined;
  }
  const unencoded = unencodedCredentials(url);
  if (unencoded) return `${unencoded}: ${PERCENT_ENCODE_ADVICE} (e.g. ${info.connectionExample})`;
  try {
    const parsed = new URL(url);
    if (!parsed.hostname) return `the connection string has no host (e.g. ${info.connectionExample})`;
  } catch {
    return `the connection string is not a valid URL; if the password holds special characters, ${PERCENT_ENCODE_ADVICE} (e.g. ${info.connectionExample})`;
  }
  return undefined;
}

async function loadDriver(registry: DriverRegistry, id: string, packageName: string): Promise<Driver> {
  try {
    return await registry.load(id);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // The package resolver's own message already says what to install and where.
    const advice = reason.includes('npm install')
      ? ''
      : `; install it in your project: npm install ${packageName}`;
    throw new ProbeError(
      'config',
      `driver ${id} could not load its package ${packageName}: ${reason}${advice}`,
    );
  }
}

/** The layer a target's queries go through, with the version of the project's copy the run loads. */
function describeLayer(
  layer: OrmLayer,
  query: OrmQueryPath,
  over: string,
  registry: DriverRegistry,
): TargetLayer {
  const copy = registry.layerVersion?.(layer);
  return {
    name: layer,
    package: layerInfo(layer).packageName,
    ...(copy ? { version: copy.version, from: copy.from } : {}),
    query,
    over,
  };
}

async function loadLayered(
  registry: DriverRegistry,
  id: string,
  layer: OrmLayer,
  path: OrmQueryPath,
): Promise<Driver> {
  if (!registry.loadLayer)
    throw new ProbeError(
      'config',
      `this place cannot run ORM layers; remove "orm": "${layer}" from the target`,
    );
  return registry.loadLayer(id, layer, path);
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
