/**
 * A Prometheus summary whose quantiles are figures the caller already holds: a run's own HDR
 * percentiles, exact to the histogram's precision. prom-client's Summary would estimate them again
 * from observations with a t-digest; this one serves what it is given. The registry writes it as any
 * summary (`# TYPE name summary`, one series per `quantile`), which is what the exposition format
 * asks of a metric with a `quantile` label. It has no `_sum` or `_count`: the watch's histogram beside
 * it counts every sample cumulatively, where a summary's would restart with each run.
 */
import { Summary } from 'prom-client';

type Labels<L extends string> = Partial<Record<L, string>>;

/** `[quantile, value]` pairs, `quantile` in 0..1. */
export type QuantileFigures = readonly (readonly [number, number])[];

export class RunQuantiles<L extends string> extends Summary<L | 'quantile'> {
  private readonly figures = new Map<string, { labels: Labels<L>; quantiles: QuantileFigures }>();

  /** Replaces the figures of one series (its labels, in a fixed order). */
  setQuantiles(labels: Labels<L>, quantiles: QuantileFigures): void {
    this.figures.set(JSON.stringify(labels), { labels, quantiles });
  }

  /** Removes one series, so Prometheus marks it stale instead of keeping its last value. */
  clearQuantiles(labels: Labels<L>): void {
    this.figures.delete(JSON.stringify(labels));
  }

  override async get(): ReturnType<Summary<L | 'quantile'>['get']> {
    // The base gives the name, help, type and aggregator; nothing is ever observed, so no values.
    const metric = await super.get();
    const values = [...this.figures.values()].flatMap(({ labels, quantiles }) =>
      quantiles.map(([quantile, value]) => ({
        labels: { ...labels, quantile } as Partial<Record<L | 'quantile', string | number>>,
        value,
      })),
    );
    return { ...metric, values };
  }
}
