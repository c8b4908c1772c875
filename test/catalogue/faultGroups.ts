/**
 * Runs one network fault against every network variant in ONE CLI process (one target per variant,
 * one `initial` sample each, 1 s timeouts), so each catalogue row asserts its own line from a shared
 * run. Also used by the leak scan, which runs every group in every export format.
 */
import { createToxiProxy, type ToxiProxy } from '../fixtures/toxiproxy';
import { testbedEnv } from '../helpers/testbed';
import { NETWORK_VARIANTS, targetName, type VariantId } from './badInputs';
import { runCatalogueCli, type CatalogueRun, type CatalogueRunOptions, type NamedTarget } from './cliRun';
import { startByteWatch, type ByteWatch } from './byteWatch';
import { closedPort, synDropPort } from './endpoints';
import type { CatalogueServers, Variant, VariantTarget } from './variants';
import { variants } from './variants';

const TOXICS: Record<string, { type: string; attributes: Record<string, number> }> = {
  'reset-peer': { type: 'reset_peer', attributes: { timeout: 0 } },
  timeout: { type: 'timeout', attributes: { timeout: 0 } },
  slicer: { type: 'slicer', attributes: { average_size: 1, size_variation: 0, delay: 100_000 } },
  bandwidth: { type: 'bandwidth', attributes: { rate: 4 } },
};

/** Per-group settings: the trickle gets time to finish, the mid-run reset a run long enough to hit it. */
const GROUP_OPTIONS: Record<string, CatalogueRunOptions> = {
  // Faults that fail fast get 2 s, so a busy machine never turns them into the engine's timeout
  // (MongoDB's server selection reports the cause only when it ends before the engine's deadline).
  refused: { timeoutMs: 2_000 },
  dns: { timeoutMs: 2_000 },
  ipv6: { timeoutMs: 2_000 },
  'wrong-credentials': { timeoutMs: 2_000 },
  'reset-peer': { timeoutMs: 2_000 },
  bandwidth: { timeoutMs: 3_000 },
  'reset-mid-run': { kinds: ['subsequent'], iterations: 150, timeoutMs: 1_000 },
};

async function targetFor(
  fault: string,
  v: Variant,
  cleanups: (() => Promise<void>)[],
  watches: Map<string, ByteWatch>,
): Promise<VariantTarget> {
  const up = v.upstream();
  switch (fault) {
    case 'bandwidth':
      return slowLink(v, cleanups, watches);
    case 'refused':
      return v.at({ host: '127.0.0.1', port: await closedPort() });
    case 'dns': {
      // Neon's drivers refuse plain http/ws to a non-loopback host before any lookup: ask for TLS.
      const at = { host: 'db.dbprobe.invalid', port: up.port };
      return v.id === 'neon-http' || v.id === 'neon-ws' ? v.tls(at) : v.at(at);
    }
    case 'ipv6':
      return v.at({ host: '[::1]', port: up.port });
    case 'unreachable': {
      const drop = await synDropPort();
      cleanups.push(drop.close);
      return v.at({ host: '127.0.0.1', port: drop.port });
    }
    case 'tls':
      return v.tls(up);
    case 'wrong-credentials':
      return v.wrongCredentials(up);
    case 'reset-mid-run':
      return midRunReset(v, cleanups);
    default: {
      const toxic = TOXICS[fault];
      if (!toxic) throw new Error(`unknown fault ${fault}`);
      const proxy: ToxiProxy = await createToxiProxy(
        testbedEnv('DBPROBE_TEST_TOXIPROXY_URL'),
        `${up.host}:${up.port}`,
        v.id.replace(/\W/g, ''),
      );
      cleanups.push(proxy.remove);
      await proxy.addToxic(toxic.type, toxic.attributes);
      return v.at({ host: '127.0.0.1', port: proxy.port });
    }
  }
}

/**
 * CLI -> toxiproxy (4 KB/s downstream) -> byte watch -> server: the watch counts what the server
 * sent, so the test knows what the link must have cost the sample (bytes / rate).
 */
async function slowLink(
  v: Variant,
  cleanups: (() => Promise<void>)[],
  watches: Map<string, ByteWatch>,
): Promise<VariantTarget> {
  const up = v.upstream();
  const watch = await startByteWatch(up.host, up.port);
  cleanups.push(watch.close);
  watches.set(targetName(v.id), watch);
  const proxy = await createToxiProxy(
    testbedEnv('DBPROBE_TEST_TOXIPROXY_URL'),
    `127.0.0.1:${watch.port}`,
    v.id.replace(/\W/g, ''),
  );
  cleanups.push(proxy.remove);
  await proxy.addToxic(TOXICS.bandwidth!.type, TOXICS.bandwidth!.attributes);
  return v.at({ host: '127.0.0.1', port: proxy.port });
}

/** Bytes the server sends before the reset: a handshake and some answers (Redis answers in 7 bytes). */
const midRunBytes = (v: Variant) => (v.id === 'ioredis' ? 150 : 1_500);
/** How long the server keeps resetting before it comes back (a failover, a proxy restart). */
const OUTAGE_MS = 1_000;

/**
 * CLI -> toxiproxy -> byte watch -> server: once the server has sent MID_RUN_BYTES, toxiproxy resets
 * every connection for OUTAGE_MS, then lets traffic through again, so the run has samples before the
 * fault, failed samples in it, and samples after.
 */
async function midRunReset(v: Variant, cleanups: (() => Promise<void>)[]): Promise<VariantTarget> {
  const up = v.upstream();
  const watch = await startByteWatch(up.host, up.port);
  cleanups.push(watch.close);
  const proxy = await createToxiProxy(
    testbedEnv('DBPROBE_TEST_TOXIPROXY_URL'),
    `127.0.0.1:${watch.port}`,
    v.id.replace(/\W/g, ''),
  );
  cleanups.push(proxy.remove);
  void watch.after(midRunBytes(v)).then(async () => {
    await proxy.addToxic('reset_peer', { timeout: 0 }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await proxy.removeToxic('reset_peer').catch(() => undefined);
  });
  return v.at({ host: '127.0.0.1', port: proxy.port });
}

export async function runFaultGroup(
  fault: string,
  servers: CatalogueServers,
  options: CatalogueRunOptions = {},
  only: readonly VariantId[] = NETWORK_VARIANTS,
): Promise<CatalogueRun> {
  const cleanups: (() => Promise<void>)[] = [];
  const watches = new Map<string, ByteWatch>();
  try {
    const targets: NamedTarget[] = [];
    for (const v of variants(servers).filter((x) => only.includes(x.id))) {
      targets.push({ name: targetName(v.id), ...(await targetFor(fault, v, cleanups, watches)) });
    }
    const run = await runCatalogueCli(targets, { ...GROUP_OPTIONS[fault], ...options });
    if (watches.size === 0) return run;
    const serverBytes = Object.fromEntries([...watches].map(([name, watch]) => [name, watch.sent()]));
    return { ...run, serverBytes };
  } finally {
    await Promise.all(cleanups.map((c) => c()));
  }
}
