#!/usr/bin/env node
/** dbprobe-runner: the runner as a Node server. PORT and HOST from the environment; DBPROBE_TOKEN required. */
import { startNodeRunner } from './nodeRunner';

startNodeRunner(process.env, (line) => console.error(line)).then(
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
