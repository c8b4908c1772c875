/**
 * Number formatting shared by the text formatters, the CLI's progress and the panel: milliseconds with
 * microsecond precision. Pure, so the webview bundles the same copy.
 */

export function ms(us: number): string {
  return (us / 1000).toFixed(3);
}

export function percent(rate: number): string {
  return `${(rate * 100).toFixed(rate > 0 && rate < 0.001 ? 3 : 1)}%`;
}

/** ms() with a sign, for differences: "+1.250", "-0.300", "0.000". */
export function signedMs(us: number): string {
  return `${us > 0 ? '+' : ''}${ms(us)}`;
}
