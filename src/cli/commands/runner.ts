/** `dbprobe runner`: start a local runner (the same server as the dbprobe-runner bin). */
import { parseFlags } from '../parseFlags';
import { startNodeRunner } from '../../runner/nodeRunner';
import { CliError } from '../cliError';
import type { CliIo } from '../io';

export async function runnerCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: { port: { type: 'string', short: 'p' }, host: { type: 'string' } },
    strict: true,
  });
  if (values.port !== undefined && !/^\d+$/.test(values.port))
    throw new CliError(`--port must be a number (got "${values.port}")`);
  let runner;
  try {
    runner = await startNodeRunner(
      {
        ...io.env,
        ...(values.port ? { PORT: values.port } : {}),
        ...(values.host ? { HOST: values.host } : {}),
      },
      (line) => io.stderr.write(`${line}\n`),
    );
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  // Serve until Ctrl-C (the CLI's signal), then close connections and exit cleanly.
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await runner.close();
  return 0;
}
