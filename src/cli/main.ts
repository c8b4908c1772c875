#!/usr/bin/env node
/**
 * dbprobe: the command line. Exit 0 = ok, 1 = a kind failed or measured nothing (or an output could
 * not be written), 2 = usage or config error, 3 = a --threshold failed, 129 = stopped by SIGHUP,
 * 130 = cancelled (Ctrl-C), 143 = stopped by SIGTERM.
 */
import { Redactor } from '../shared/redact';
import { TOOL } from '../shared/version';
import { CliError, EXIT } from './cliError';
import { COMPARE_USAGE, compareCommand } from './commands/compare';
import { demoCommand } from './commands/demo';
import { driversCommand } from './commands/drivers';
import { REPORT_USAGE, reportCommand } from './commands/report';
import { RUN_USAGE, runCommand } from './commands/run';
import { runnerCommand } from './commands/runner';
import { WATCH_USAGE, watchCommand } from './commands/watch';
import type { CliIo } from './io';
import {
  exitNow,
  exitWhenFlushed,
  keepWritesQuiet,
  SIGNAL_NOTICES,
  SIGNAL_REASONS,
  signalExitCode,
  STOP_SIGNALS,
  warningsOnOneLine,
} from './processEnd';

const USAGE = `dbprobe ${TOOL.version}: how long will my app wait for this database, over this driver, from here?

Commands:
  dbprobe run [options]        probe the targets of dbprobe.json (see dbprobe run --help)
  dbprobe drivers [--json]     list drivers, transports, package versions and ORM layers
  dbprobe demo [-n N] [--threshold ...] [--summary FILE]
                               probe an embedded libSQL database (and local servers named in the environment)
  dbprobe watch --every 30s    probe on a schedule and serve /metrics to Prometheus (see below)
  dbprobe runner [--port N]    start a runner on 127.0.0.1 (DBPROBE_TOKEN required) for dbprobe run --runner
  dbprobe compare BASE.json HEAD.json
                               did p50 and p99 move beyond noise between two saved runs? (a gate on change)
  dbprobe report RUN.json [--app-rtt MS]
                               a saved run's verdict (stderr) and report again, for where your app runs

${RUN_USAGE}

${COMPARE_USAGE}
${REPORT_USAGE}
${WATCH_USAGE}
`;

/** The usage a flag error of each command is followed by: its own, else the commands' list. */
const COMMAND_USAGES: Record<string, string> = {
  run: RUN_USAGE,
  compare: COMPARE_USAGE,
  report: REPORT_USAGE,
  watch: WATCH_USAGE,
};

type Command = (argv: string[], io: CliIo) => Promise<number>;
const COMMANDS: Record<string, Command> = {
  run: runCommand,
  drivers: driversCommand,
  demo: demoCommand,
  runner: runnerCommand,
  compare: compareCommand,
  report: reportCommand,
  watch: watchCommand,
};

/** The longest path Linux accepts; no flag value needs more. Checked before any pattern sees one. */
const MAX_ARGUMENT_CHARS = 4_096;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const tooLong = argv.findIndex((arg) => arg.length > MAX_ARGUMENT_CHARS);
  if (tooLong !== -1) {
    io.stderr.write(
      `dbprobe: argument ${tooLong + 1} is ${argv[tooLong]?.length} characters long; the limit is ${MAX_ARGUMENT_CHARS}\n`,
    );
    return EXIT.usage;
  }
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(USAGE);
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${TOOL.version}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`dbprobe: unknown command "${name}"; use one of: ${Object.keys(COMMANDS).join(', ')}\n`);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    // Pattern redaction as a last line of defence: a URL with credentials never reaches the terminal.
    const message = new Redactor().redact(error instanceof Error ? error.message : String(error));
    if (error instanceof CliError) {
      io.stderr.write(`dbprobe: ${message}\n`);
      return error.exitCode;
    }
    if (isArgsError(error)) {
      io.stderr.write(`dbprobe: ${message}\n${COMMAND_USAGES[name] ?? USAGE}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`dbprobe: unexpected error: ${message}\n`);
    return EXIT.targetFailed;
  }
}

function isArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

if (require.main === module) {
  warningsOnOneLine(process.stderr);
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  // SIGINT (Ctrl-C), SIGTERM (CI timeouts, container stops) and SIGHUP (the terminal or the ssh
  // session closed) all cancel: connections close and the report holds what was measured. A second
  // signal quits at once.
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppedBy) exitNow(signalExitCode(signal));
    stoppedBy = signal;
    process.stderr.write(SIGNAL_NOTICES[signal] ?? `\n${signal}: cancelling...\n`);
    controller.abort(SIGNAL_REASONS[signal] ?? `stopped by ${signal}`);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  // A terminal that closed (SIGHUP) or a reader that went away fails writes: never a crash.
  keepWritesQuiet(process.stdout);
  keepWritesQuiet(process.stderr);
  // main() answers every error itself with an exit code; `void` says the promise is handled.
  void main(process.argv.slice(2), {
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
    stdoutLost: () => stoppedBy === 'SIGHUP' && process.stdout.isTTY === true,
  }).then((code) => {
    exitWhenFlushed(code === EXIT.cancelled && stoppedBy ? signalExitCode(stoppedBy) : code);
  });
}
