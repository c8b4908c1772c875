/**
 * `--verdicts FILE`: the threshold verdicts as JSON, for scripts and the GitHub Action's outputs
 * (the job summary holds them as Markdown, stderr only the failed ones).
 */
import type { Redactor } from '../shared/redact';
import type { CliIo } from './io';
import { writeOutputFile } from './reportOutput';
import { verdictText, type Verdict } from '../shared/judgement/thresholdVerdicts';

/** False (with a line saying why) when the file could not be written: the verdicts stand on stderr. */
export function writeVerdicts(
  file: string,
  verdicts: readonly Verdict[],
  redactor: Redactor,
  io: CliIo,
): boolean {
  const document = {
    passed: verdicts.every((v) => v.passed),
    verdicts: verdicts.map((v) => ({
      passed: v.passed,
      threshold: v.threshold.text,
      target: v.target,
      kind: v.kind,
      place: v.place,
      measured: v.measured,
      text: verdictText(v),
    })),
  };
  return writeOutputFile(
    file,
    redactor.redact(`${JSON.stringify(document, null, 2)}\n`),
    'the --verdicts JSON',
    io,
  );
}
