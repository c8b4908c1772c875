#!/usr/bin/env node
/**
 * dbprobe-runner: the runner as a Node server. PORT and HOST from the environment; DBPROBE_TOKEN
 * required. Watch mode: `--watch [--config dbprobe.json] [--every 30s] [--open-on-loopback]`, or the
 * same as DBPROBE_WATCH_CONFIG, DBPROBE_WATCH_EVERY and DBPROBE_WATCH_OPEN_ON_LOOPBACK=1.
 */
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { startNodeRunner } from './nodeRunner';

function environment(): Record<string, string | undefined> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      watch: { type: 'boolean', default: false },
      config: { type: 'string' },
      every: { type: 'string' },
      'open-on-loopback': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const env: Record<string, string | undefined> = { ...process.env };
  if (values.watch || values.config !== undefined)
    env.DBPROBE_WATCH_CONFIG = path.resolve(values.config ?? env.DBPROBE_WATCH_CONFIG ?? 'dbprobe.json');
  if (values.every !== undefined) env.DBPROBE_WATCH_EVERY = values.every;
  if (values['open-on-loopback']) env.DBPROBE_WATCH_OPEN_ON_LOOPBACK = '1';
  return env;
}

Promise.resolve()
  .then(() => startNodeRunner(environment(), (line) => console.error(line)))
  .then(
    (runner) => {
      const stop = () => void runner.close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    },
    (error: unknown) => {
      console.error(`dbprobe-runner: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
