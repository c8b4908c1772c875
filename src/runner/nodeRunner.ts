/** The runner as a Node server on PORT/HOST, refusing to start without DBPROBE_TOKEN. */
import { createRegistry } from '../drivers/registry';
import { configFromEnv } from './runnerConfig';
import { createRunnerHandler } from './handler';
import { createNodeServer } from './nodeServer';

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
  const server = createNodeServer(createRunnerHandler({ config, registry: createRegistry() }), {
    headersMs: config.headersTimeoutMs,
    requestMs: config.requestTimeoutMs,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  log(
    `dbprobe runner listening on ${url} (region ${config.region}; client connection strings ${config.allowClientConnections ? `accepted for ${config.allowedHosts.join(', ') || 'no host'}` : 'refused'})`,
  );
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
