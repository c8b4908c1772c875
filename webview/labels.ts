/** Short forms of long names for charts' axes and legends; the full name stays in tooltips and tables. */

/** Longest target name drawn under a bar group or in a legend entry before it is cut with "…". */
export const AXIS_LABEL_MAX = 18;
export const LEGEND_LABEL_MAX = 32;

export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * A log axis's tick label: only 1, 2 and 5 of each decade ("0.1 0.2 0.5 1 2 5 10"), since chart.js's
 * own labels (10, 20, 30 ... 80) collide at the top of a decade; an axis within one decade that
 * holds none of those keeps every label.
 */
export function logTickLabel(value: number, ticks: number[]): string {
  const label = String(Number(value.toPrecision(2)));
  if (!ticks.some(isOneTwoFive)) return label;
  return isOneTwoFive(value) ? label : '';
}

function isOneTwoFive(v: number): boolean {
  if (!(v > 0)) return false;
  const significand = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
  const whole = Math.round(significand);
  return Math.abs(significand - whole) < 1e-6 && [1, 2, 5].includes(whole);
}

/** Log axes labelled 1, 2 and 5 of each decade (see logTickLabel). */
export const LOG_TICKS = {
  callback(value: string | number, _index: number, ticks: { value: number }[]): string {
    return logTickLabel(
      Number(value),
      ticks.map((t) => t.value),
    );
  },
};
