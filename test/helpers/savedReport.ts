/** `dbprobe report RUN.json [--app-rtt MS]` over a result saved to a temp file: its output, exit 0 asserted. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { reportCommand } from '../../src/cli/commands/report';
import type { RunResult } from '../../src/shared/result';
import { recordingIo } from './cliIo';
import { tempDir } from './tempDir';

export async function reportOfSaved(result: RunResult, appRttMs?: number) {
  const file = path.join(tempDir('report-'), 'run.json');
  writeFileSync(file, JSON.stringify(result));
  const io = recordingIo();
  const code = await reportCommand(
    [file, ...(appRttMs !== undefined ? ['--app-rtt', String(appRttMs)] : [])],
    io,
  );
  assert.equal(code, 0, io.err());
  return io;
}
