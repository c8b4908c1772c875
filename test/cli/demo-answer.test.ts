/**
 * The README's first command answers first: `dbprobe demo` probes one target, so there is nothing to
 * rank, and its Markdown and stderr still open with how long the app waits (the judgement's line
 * for a target alone, src/shared/judgement/aloneFigures.ts), before any table or figure line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/tempDir';

const ANSWER =
  /^embedded libSQL \(file\) here: new connection p50 \d+\.\d+ ms, p99 \d+\.\d+ ms; warm query p50 \d+\.\d+ ms, p99 \d+\.\d+ ms\.$/;

test('dbprobe demo: the one target’s answer is the first line of the Markdown and of stderr', async () => {
  const run = await runCli(['demo', '-n', '100'], { cwd: tempDir('demo-answer'), timeoutMs: 60_000 });
  assert.equal(run.code, 0, run.stderr);
  const markdown = run.stdout.slice(run.stdout.indexOf('# Database latency'));
  const beforeTables = markdown.slice(0, markdown.indexOf('\n|')).split('\n');
  const bullets = beforeTables.filter((line) => line.startsWith('- ')).map((line) => line.slice(2));
  assert.equal(bullets.length, 1, beforeTables.join('\n'));
  assert.match(bullets[0]!, ANSWER);
  const stderr = run.stderr.split('\n').filter((line) => line !== '');
  const first = stderr.findIndex((line) => ANSWER.test(line));
  assert.ok(first > 0, run.stderr);
  assert.equal(stderr[first], bullets[0], 'stderr states the Markdown’s answer in the same words');
  assert.match(stderr[first + 1] ?? '', /^embedded libSQL \(file\) initial: p50 /);
});
