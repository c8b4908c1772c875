/**
 * Whether a target's queries take the streamed path (RowStream), decided once per target and kind
 * by its first answer: many rows, streamed from then on; one row, never. A driver without a
 * RowStream, or an answer it cannot count or with no rows, leaves the ordinary path as it is.
 */
import type { DriverConnection } from './driver';

export class RowsChoice {
  /**
   * `off` for a raw target an ORM layer's twin rides: the layer's cost is a paired difference on one
   * connection, so both sides keep the ordinary path (and this target records no rows).
   */
  constructor(private readonly off = false) {}

  private decided = false;
  /** True once the first answer held more than one row. */
  streamed = false;

  /**
   * Reads the first answer's row count (after its end stamp); the count to record, once. Later
   * answers cost one field read.
   */
  decide(conn: DriverConnection, answer: unknown): number | undefined {
    if (this.decided || this.off) return undefined;
    this.decided = true;
    const count = conn.rows?.count(answer);
    // No rows (a write, an empty result): nothing to time apart, nothing to show.
    if (count === undefined || count === 0) return undefined;
    this.streamed = count > 1;
    return count;
  }
}
