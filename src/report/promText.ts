/**
 * The Prometheus text exposition format (version 0.0.4), written by hand: metric families with HELP
 * and TYPE, label values escaped as the format requires. A pure formatter; callers redact first.
 */

export type PromType = 'counter' | 'gauge' | 'histogram';

export interface PromSample {
  /** Appended to the family name: `_bucket`, `_sum`, `_count`, or nothing. */
  suffix?: string;
  labels: readonly (readonly [string, string])[];
  value: number;
}

export interface PromFamily {
  name: string;
  help: string;
  type: PromType;
  samples: PromSample[];
}

/** Label values: backslash, double quote and line feed are the three characters the format escapes. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text escapes backslash and line feed only. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** Go's float formatting as Prometheus reads it: +Inf, -Inf, NaN, else the shortest decimal. */
export function formatPromNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function formatPromText(families: readonly PromFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`);
    lines.push(`# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      const labels = sample.labels.map(([name, value]) => {
        // Names are ours, never user text; a bad one is a bug, not something to escape.
        if (!LABEL_NAME.test(name)) throw new Error(`invalid Prometheus label name "${name}"`);
        return `${name}="${escapeLabelValue(value)}"`;
      });
      const braces = labels.length > 0 ? `{${labels.join(',')}}` : '';
      lines.push(`${family.name}${sample.suffix ?? ''}${braces} ${formatPromNumber(sample.value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
