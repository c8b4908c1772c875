/**
 * Milliseconds for a verdict sentence: as many digits as the figure can mean at a glance (0.41,
 * 3.4, 124), not the tables' microsecond precision. Pure: the webview bundles it.
 */
export function shortMs(us: number): string {
  const msValue = us / 1000;
  const abs = Math.abs(msValue);
  if (abs < 1) return msValue.toFixed(2);
  if (abs < 100) return msValue.toFixed(1);
  return msValue.toFixed(0);
}

/** "a", "a and b", "a, b and c". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
