/** Short forms of long names for charts' axes and legends; the full name stays in tooltips and tables. */

/** Longest target name drawn under a bar group or in a legend entry before it is cut with "…". */
export const AXIS_LABEL_MAX = 18;
export const LEGEND_LABEL_MAX = 32;

export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
