/**
 * What an ORM layer adds: for each layered target and its raw twin (measured side by side in one
 * run, core/layerTwins.ts), layer p50 - raw p50 per kind, with the 95% interval and the verdict of
 * the one comparison rule (differences.ts), in a sentence every surface states.
 */
import { compareMeasurements, type PercentileDifference, type RuleOptions } from './differences';
import type { ProbeKind } from '../plan';
import type { RunResult, TargetLayer } from '../result';
import { ms, signedMs } from '../units';

export interface LayerOverhead {
  /** The layered target and the raw one it was measured beside. */
  target: string;
  over: string;
  layer: TargetLayer;
  kind: ProbeKind;
  /** layer p50 - raw p50 (µs; paired on shared connections: the median of the per-query differences), with its 95% interval. */
  overheadUs: number;
  lowUs: number;
  highUs: number;
  established: boolean;
  sentence: string;
}

/** The kinds a layer's cost is stated for: its start (with the first query) and each further query. */
const LAYER_KINDS: { kind: ProbeKind; what: string }[] = [
  { kind: 'initial', what: 'a new connection (client start + first query)' },
  { kind: 'subsequent', what: 'each warm query' },
];

export function layerOverheads(result: RunResult, rule: RuleOptions = {}): LayerOverhead[] {
  const overheads: LayerOverhead[] = [];
  for (const info of result.targets) {
    const layer = info.layer;
    if (!layer) continue;
    for (const { kind, what } of LAYER_KINDS) {
      const raw = result.measurements.find((m) => m.target === layer.over && m.kind === kind);
      const layered = result.measurements.find((m) => m.target === info.name && m.kind === kind);
      if (!raw || !layered) continue;
      const comparison = compareMeasurements(
        result,
        { name: layer.over, measurement: raw },
        { name: info.name, measurement: layered },
        rule,
      );
      const p50 = comparison?.differences[0];
      if (!p50) continue;
      overheads.push({
        target: info.name,
        over: layer.over,
        layer,
        kind,
        overheadUs: p50.diffUs,
        lowUs: p50.lowUs,
        highUs: p50.highUs,
        established: p50.established,
        sentence: overheadSentence(layer, what, p50, comparison.resampledBy.by === 'paired'),
      });
    }
  }
  return overheads;
}

/** Which of the layer's paths ran (results saved before it was recorded say nothing). */
function pathWords(layer: TargetLayer): string {
  if (layer.query === 'typed') return ' (typed query)';
  return layer.query === 'raw' ? ' (raw SQL)' : '';
}

/** E.g. "drizzle-orm 0.45.4 from your project (raw SQL) over pg (local-pg) adds 0.120 ms at p50 to each warm query (95% CI ...)". */
function overheadSentence(
  layer: TargetLayer,
  what: string,
  p50: PercentileDifference,
  paired: boolean,
): string {
  const name = `${layer.package}${layer.version ? ` ${layer.version}` : ''}${layer.from ? ` from ${layer.from}` : ''}${pathWords(layer)}`;
  // Paired on shared connections, the figure is the median of the per-query differences, not the
  // difference of the two p50s the table shows: the sentence names which.
  const ci = `${paired ? 'the median of per-query differences on shared connections, ' : ''}95% CI ${signedMs(p50.lowUs)} to ${signedMs(p50.highUs)} ms`;
  const at = paired ? '' : ' at p50';
  if (p50.notEstablishedBy === 'host' && p50.host)
    return `ORM layer ${name} over ${layer.over}, on ${what}: not attributable: ${p50.host.sentence} (${signedMs(p50.diffUs)} ms${at}, ${ci}).`;
  if (p50.notEstablishedBy === 'min-effect')
    return `ORM layer ${name} over ${layer.over}, on ${what}: ${signedMs(p50.diffUs)} ms${at} (${ci}), below the minimum effect set.`;
  if (!p50.established)
    return `ORM layer ${name} over ${layer.over}, on ${what}: ${signedMs(p50.diffUs)} ms${at} (${ci}), within noise: no cost established.`;
  return p50.diffUs > 0
    ? `ORM layer ${name} adds ${ms(p50.diffUs)} ms${at} to ${what} over ${layer.over} (${ci}).`
    : `ORM layer ${name} was ${ms(-p50.diffUs)} ms faster${at} than ${layer.over} on ${what} (${ci}).`;
}
