/**
 * What failed, said again at the end of `npm test`. Each phase prints its files' output whole as they
 * end, so an integration failure sits some 20 minutes of output above the last line, and a CI log
 * that keeps only its tail (or a reader who scrolls only so far) loses the figures the failing
 * assertion printed. runFiles.ts appends each failed file's "failing tests" section here; scripts/
 * test.sh prints the first 12,000 characters of it (a CI log's tail is a few hundred lines) just
 * before its closing line.
 */
import * as fs from 'node:fs';

/** Per failed file: enough for an assertion's message with the figures it names. */
export const EXCERPT_CHARS = 3_000;

/**
 * The spec reporter's closing "✖ failing tests:" section of one process's output (each failing test
 * with its error), without the lines that repeat the stack; the output's last lines when there is no
 * such section (a crash, a timeout). At most `maxChars`, cut with a note saying so.
 */
export function failureExcerpt(output: string, maxChars = EXCERPT_CHARS): string {
  const start = output.lastIndexOf('\u2716 failing tests:');
  const section = start >= 0 ? output.slice(start) : output.slice(-maxChars);
  const kept = section
    .split('\n')
    .filter((line) => !/^\s+at /.test(line))
    .join('\n')
    .trim();
  return kept.length <= maxChars ? kept : `${kept.slice(0, maxChars)}\n[... cut at ${maxChars} characters]`;
}

/** Adds one failed file's excerpt to the recap file (DBPROBE_TEST_FAILURES), when one is kept. */
export function recordFailure(
  recapFile: string | undefined,
  phase: string,
  label: string,
  output: string,
): void {
  if (!recapFile) return;
  fs.appendFileSync(recapFile, `--- ${phase}: ${label}\n${failureExcerpt(output)}\n\n`);
}
