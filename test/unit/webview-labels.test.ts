import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AXIS_LABEL_MAX, LEGEND_LABEL_MAX, shorten } from '../../webview/labels';

test('long target names are cut to the limit with an ellipsis; short ones stay whole', () => {
  const long = 'pg-reporting-replica-eu-west-1-behind-the-analytics-vpc';
  const axis = shorten(long, AXIS_LABEL_MAX);
  assert.equal(axis.length, AXIS_LABEL_MAX);
  assert.equal(axis, `${long.slice(0, AXIS_LABEL_MAX - 1)}…`);
  assert.equal(shorten(long, LEGEND_LABEL_MAX).length, LEGEND_LABEL_MAX);
  assert.equal(shorten('pg-primary', AXIS_LABEL_MAX), 'pg-primary');
  const exact = 'x'.repeat(AXIS_LABEL_MAX);
  assert.equal(shorten(exact, AXIS_LABEL_MAX), exact);
  assert.equal(shorten('abc', 1), '…');
});
