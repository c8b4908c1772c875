/**
 * An HDR histogram whose counts live in fixed-width pages allocated on first use.
 *
 * Why not hdr-histogram-js's `bitBucketSize: 'packed'`: its PackedArray (3.0.1) loses counts once
 * the recorded values spread over a few binary orders of magnitude (10,000 values uniform over
 * 1 µs-70 ms read back p50 = p99 = 0; its WebAssembly twin aborts with "Index out of range"), so
 * every percentile of a wide or saturated run was wrong. Fixed-width arrays are exact but an
 * hour-wide 4-digit histogram is ~311 k slots (1.2 MB at 32 bits) allocated up front, for every
 * target, kind, phase and load level. Pages keep the layout (and so the encoding, merges and
 * precision) of a 32-bit histogram and cost memory only where values land: an idle histogram is
 * its page directory, a full one the same as the fixed-width array.
 */
import { JsHistogram } from 'hdr-histogram-js';

/** Slots per page: 4 KB of 32-bit counts. A latency run touches a few pages per binary decade. */
const PAGE_SHIFT = 10;
export const PAGE_SIZE = 1 << PAGE_SHIFT;
const PAGE_MASK = PAGE_SIZE - 1;
/** 32-bit counts: a bucket would need 4 billion samples to overflow; it throws rather than wrap. */
const MAX_COUNT = 0xffff_ffff;

export class PagedHistogram extends JsHistogram {
  /**
   * The page directory grows to the highest page in use (a holey array; a missing page reads as
   * zeros): a run makes a dozen recorders per target and kind, most of which never see a value, and
   * an hour-wide directory allocated up front was ~2.4 KB of garbage each.
   */
  private pages: (Uint32Array | undefined)[] = [];

  constructor(lowestDiscernibleValue: number, highestTrackableValue: number, significantDigits: number) {
    super(lowestDiscernibleValue, highestTrackableValue, significantDigits);
    this._totalCount = 0;
  }

  getCountAtIndex(index: number): number {
    return this.pages[index >>> PAGE_SHIFT]?.[index & PAGE_MASK] ?? 0;
  }

  incrementCountAtIndex(index: number): void {
    this.addToCountAtIndex(index, 1);
  }

  addToCountAtIndex(index: number, value: number): void {
    this.setCountAtIndex(index, this.getCountAtIndex(index) + value);
  }

  setCountAtIndex(index: number, value: number): void {
    if (value < 0 || value > MAX_COUNT)
      throw new Error(`a histogram count of ${value} does not fit in 32 bits`);
    if (index < 0 || index >= this.countsArrayLength)
      throw new Error(`histogram index ${index} is out of range`);
    const pageIndex = index >>> PAGE_SHIFT;
    let page = this.pages[pageIndex];
    if (!page) {
      if (value === 0) return;
      page = new Uint32Array(PAGE_SIZE);
      this.pages[pageIndex] = page;
    }
    page[index & PAGE_MASK] = value;
  }

  clearCounts(): void {
    this.pages = [];
  }

  resize(newHighestTrackableValue: number): void {
    // Growing keeps every index's place (the layout only extends), so the pages stay as they are.
    this.establishSize(newHighestTrackableValue);
  }

  /** The first index at or after `index` whose page holds counts (empty pages are skipped whole). */
  nextUsedIndex(index: number): number {
    for (let p = index >>> PAGE_SHIFT; p < this.pages.length; p++) {
      if (this.pages[p]) return Math.max(index, p << PAGE_SHIFT);
    }
    return this.countsArrayLength;
  }

  /** Bytes held: the object and page directory, plus 4 KB per page in use. */
  protected _getEstimatedFootprintInBytes(): number {
    const used = this.pages.reduce((n, page) => n + (page ? page.byteLength : 0), 0);
    return 512 + 8 * this.pages.length + used;
  }

  copyCorrectedForCoordinatedOmission(expectedIntervalBetweenValueSamples: number): PagedHistogram {
    const copy = new PagedHistogram(
      this.lowestDiscernibleValue,
      this.highestTrackableValue,
      this.numberOfSignificantValueDigits,
    );
    copy.addWhileCorrectingForCoordinatedOmission(this, expectedIntervalBetweenValueSamples);
    return copy;
  }
}
