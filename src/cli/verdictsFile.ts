/**
 * `--verdicts FILE`: the threshold verdicts as JSON, for scripts and the GitHub Action's outputs
 * (the job summary holds them as Markdown, stderr only the failed ones).
 */
import { writeFileSync } from 'node:fs';
import type { Redactor } from '../shared/redact';
import type { CliIo } from './io';
import { verdictText, type Verdict } from './thresholds';

export function writeVerdicts(
  file: string,
  verdicts: readonly Verdict[],
  redactor: Redactor,
  io: CliIo,
): void {
  const document = {
    passed: verdicts.every((v) => v.passed),
    verdicts: verdicts.map((v) => ({
      passed: v.passed,
      threshold: v.threshold.text,
      target: v.target,
      kind: v.kind,
      ...(v.place !== undefined ? { place: v.place } : {}),
      ...(v.measured !== undefined ? { measured: v.measured } : {}),
      text: verdictText(v),
    })),
  };
  try {
    writeFileSync(file, redactor.redact(`${JSON.stringify(document, null, 2)}\n`));
  } catch (error) {
    // The verdicts stand (stderr, exit code); a file that cannot be written is worth a line.
    io.stderr.write(
      `dbprobe: could not write the verdicts to ${file}: ${error instanceof Error ? error.message : String(error)}; pass another --verdicts path\n`,
    );
  }
}
