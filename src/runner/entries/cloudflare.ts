/**
 * Cloudflare Worker. Workers have no TCP sockets for these clients, so only HTTP drivers are offered
 * (neon-http, planetscale, libsql over HTTP, upstash, http); /v1/health lists just those.
 * Env (wrangler secrets/vars): DBPROBE_TOKEN and the targets' connection strings. Region: the colo.
 */
import { DRIVER_CATALOG } from '../../drivers/catalog';
import { createRegistry } from '../../drivers/registry';
import { configFromEnv } from '../runnerConfig';
import { createRunnerHandler, type FetchHandler } from '../handler';

export const WORKER_DRIVERS: string[] = DRIVER_CATALOG.filter((info) => info.runsOnWorkers).map(
  (info) => info.id,
);

interface CfRequest extends Request {
  cf?: { colo?: string };
}

let handler: FetchHandler | undefined;

export default {
  fetch(request: Request, env: Record<string, string | undefined>): Promise<Response> {
    handler ??= createRunnerHandler({
      config: { ...configFromEnv(env, 'cloudflare-workers'), drivers: WORKER_DRIVERS },
      registry: createRegistry(),
      regionOf: (r) => {
        const colo = (r as CfRequest).cf?.colo;
        return colo ? `cf-${colo}` : undefined;
      },
    });
    return handler(request);
  },
};
