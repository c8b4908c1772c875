/**
 * Vercel Function (Node.js runtime, Web-standard signature). Place as `api/dbprobe/[...path].ts`:
 *   export { GET, POST } from 'dbprobe/runner/vercel';   (or copy the built dist/runner-vercel.js)
 * Env: DBPROBE_TOKEN (required), the targets' env:VAR connection strings. Region: VERCEL_REGION.
 */
import { createRegistry } from '../../drivers/registry';
import { configFromEnv } from '../runnerConfig';
import { createRunnerHandler, type FetchHandler } from '../handler';

let handler: FetchHandler | undefined;

function getHandler(): FetchHandler {
  handler ??= createRunnerHandler({
    config: configFromEnv(process.env, 'vercel-node'),
    registry: createRegistry(),
  });
  return handler;
}

export const GET = (request: Request): Promise<Response> => getHandler()(request);
export const POST = (request: Request): Promise<Response> => getHandler()(request);
/** Long runs stream for minutes; raise to your plan's maximum. */
export const maxDuration = 300;
export default { fetch: (request: Request) => getHandler()(request) };
