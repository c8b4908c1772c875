/** The runner as a Node server on PORT/HOST, refusing to start without DBPROBE_TOKEN. */
import * as path from 'node:path';
import { createRegistry } from '../drivers/registry';
import { configFromEnv } from './runnerConfig';
import { createRunnerHandler } from './handler';
import { createNodeServer } from './nodeServer';
import { startRunnerWatch, watchSettingsFromEnv } from './runnerWatch';
import { threadsRunner } from './threadsRunner';

export interface StartedRunner {
  url: string;
  close(): Promise<void>;
}

export async function startNodeRunner(
  env: Record<string, string | undefined>,
  log: (line: string) => void,
): Promise<StartedRunner> {
  const config = configFromEnv(env, `node ${process.version}`);
  if (!config.token) {
    throw new Error(
      'DBPROBE_TOKEN is not set: a runner without a token would run plans for anyone. Set DBPROBE_TOKEN to a long random string (e.g. `openssl rand -hex 32`).',
    );
  }
  const host = env.HOST || '127.0.0.1';
  const port = Number(env.PORT ?? 8787);
  const registry = createRegistry();
  const watchSettings = watchSettingsFromEnv(env);
  if (watchSettings?.openOnLoopback && host !== '127.0.0.1')
    throw new Error(
      `DBPROBE_WATCH_OPEN_ON_LOOPBACK (--open-on-loopback) serves /metrics without a token only on 127.0.0.1 (got HOST=${host}); unset it to require the token there`,
    );
  const watch = watchSettings ? startRunnerWatch(watchSettings, config, registry, log) : undefined;
  const metrics =
    watch && watchSettings ? { render: watch.render, open: watchSettings.openOnLoopback } : undefined;
  const server = createNodeServer(
    createRunnerHandler({
      config,
      registry,
      // Load runs spread over probing threads (dist/runnerThread.js, built beside dist/runner.js).
      runPlan: threadsRunner(path.join(__dirname, 'runnerThread.js')),
      metrics,
    }),
    {
      headersMs: config.headersTimeoutMs,
      requestMs: config.requestTimeoutMs,
    },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    await watch?.stop();
    throw error;
  }
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  // One write, so whoever waits for the first line also sees the watch's.
  log(
    `dbprobe runner listening on ${url} (region ${config.region}; client connection strings ${config.allowClientConnections ? `accepted for ${config.allowedHosts.join(', ') || 'no host'}` : 'refused'})` +
      (watch && watchSettings
        ? `\ndbprobe runner watch: serving ${url}/metrics${watchSettings.openOnLoopback ? ' (open, loopback only)' : ' (Bearer DBPROBE_TOKEN required)'}; probing ${watch.targets.join(', ')} every ${watchSettings.every}`
        : ''),
  );
  return {
    url,
    close: async () => {
      await watch?.stop();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
