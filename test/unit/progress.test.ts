import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createProgress } from '../../src/cli/progress';
import type { ProbeEvent } from '../../src/shared/events';
import { TEST_HEADER } from '../helpers/events';

/** ANSI "erase to end of line". */
const CLEAR = '\u001b[K';

const stats = {
  count: 2,
  errors: 0,
  errorRate: 0,
  minUs: 900,
  meanUs: 1000,
  stddevUs: 10,
  p50Us: 1000,
  p90Us: 1100,
  p95Us: 1100,
  p99Us: 1200,
  p999Us: 1200,
  maxUs: 1200,
};

function feed(
  stream: { isTTY?: boolean; columns?: number; write(text: string): unknown },
  place?: string,
): void {
  const progress = createProgress(stream, place);
  const events: ProbeEvent[] = [
    { type: 'start', runId: 'r', targets: ['pg'], kinds: ['initial'], totalSamples: 2, header: TEST_HEADER },
    { type: 'sample', target: 'pg', kind: 'initial', phase: 'measure', index: 0, atUs: 0, us: 1000 },
    { type: 'sample', target: 'pg', kind: 'initial', phase: 'measure', index: 1, atUs: 1000, us: 1000 },
    { type: 'targetDone', target: 'pg', kind: 'initial', stats, failed: false },
    { type: 'done', result: {} as never },
  ];
  events.forEach(progress);
}

test('on a terminal: a redrawn bar, no figures (they follow the verdict after the run), and the line cleared at the end', () => {
  let out = '';
  feed({ isTTY: true, columns: 80, write: (t) => (out += t) });
  const bar = `\r[${'#'.repeat(12)}${'-'.repeat(12)}]  50% 1/2 pg initial`;
  assert.ok(out.includes(bar), 'the bar after the first sample');
  assert.ok(!out.includes('p50'), 'figures wait for the run summary (stderrSummary.ts), below the verdict');
  assert.ok(out.endsWith(`\r${CLEAR}`), 'the bar does not stay behind the report');
  const visible = out.split(CLEAR).join('');
  assert.ok(
    visible.split(/[\r\n]/).every((part) => part.length < 80),
    'nothing wider than the terminal',
  );
});

test('in a log: plain lines only, no carriage returns or escapes, with the place when several run', () => {
  let out = '';
  feed({ isTTY: false, write: (t) => (out += t) }, 'runner eu-1');
  assert.equal(out, '[runner eu-1] probing pg (initial), 2 samples\n');
});
