import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contrastRatio } from '../../webview/colour';
import { AXIS_LABEL_MAX, LEGEND_LABEL_MAX, logTickLabel, shorten } from '../../webview/labels';

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

test('log axes label 1, 2 and 5 of each decade, or every tick when none is on the axis', () => {
  const ticks = [0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 1, 1.5, 2, 5, 7, 10, 20, 30, 40, 50, 60, 70, 80, 100];
  const shown = ticks.map((t) => logTickLabel(t, ticks)).filter(Boolean);
  assert.deepEqual(shown, ['0.05', '0.1', '0.2', '1', '2', '5', '10', '20', '50', '100']);
  // Floating-point ticks (0.1 * 3) are not mistaken for 1-2-5.
  assert.equal(logTickLabel(0.1 * 3, ticks), '');
  assert.equal(logTickLabel(0.1 * 2, ticks), '0.2');
  const narrow = [0.3, 0.35, 0.4, 0.45];
  assert.deepEqual(
    narrow.map((t) => logTickLabel(t, narrow)),
    ['0.3', '0.35', '0.4', '0.45'],
  );
});

test('contrast ratio of computed colours (WCAG), undefined for forms it cannot read', () => {
  assert.equal(contrastRatio('rgb(0, 0, 0)', 'rgb(255, 255, 255)'), 21);
  assert.equal(contrastRatio('rgb(255, 255, 255)', 'rgba(255, 255, 255, 0.5)'), 1);
  const yellowOnWhite = contrastRatio('rgb(181, 186, 0)', 'rgb(255, 255, 255)') ?? 0;
  assert.ok(yellowOnWhite > 1.9 && yellowOnWhite < 2.5, String(yellowOnWhite));
  assert.equal(contrastRatio('color(srgb 1 0 0)', 'rgb(0, 0, 0)'), undefined);
});
