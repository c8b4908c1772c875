/**
 * Process warnings in what a dbprobe process printed. Node's own form is `(node:1234) SomeWarning:
 * ...` (with its `--trace-warnings` hint); the CLI turns every process warning into one line,
 * `dbprobe: warning: ...` (src/cli/processEnd.ts). Either reaching the user is a bug: a test that ran
 * the CLI or a runner fails on it (runCli in ./cli.ts does for every CLI test).
 */
import assert from 'node:assert/strict';

const WARNING_LINES = [
  /^\(node:\d+\) /,
  /^dbprobe: warning: /,
  /node --trace-warnings/,
  /Possible Event(?:Target|Emitter) memory leak|MaxListenersExceededWarning/,
];

/** Every line of `text` that is a process warning (or Node's hint printed with one). */
export function processWarnings(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    if (WARNING_LINES.some((pattern) => pattern.test(line))) found.push(line.slice(0, 300));
    if (found.length >= 10) break;
  }
  return found;
}

/** Fails the test when `text` (a process's stderr) holds a process warning; `who` names the process. */
export function assertNoProcessWarning(text: string, who: string): void {
  const warnings = processWarnings(text);
  assert.deepEqual(warnings, [], `${who} printed a process warning:\n${warnings.join('\n')}`);
}
