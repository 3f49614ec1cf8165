/**
 * Which of a diagram's items reach into a band of rows, without looking at the others: the page's
 * work per step and per pan stays proportional to what is on screen, not to the run's length
 * (issue #9: one step at 100,000 events in under 50 ms).
 *
 * Items come in event order, and each has a key on the time axis that never decreases in that order
 * (the y of its event's row) and a vertical extent [lo, hi] around it (a marker's box, a wire from
 * where it leaves to where it lands, a deadline bar). Most items are short: they are found by binary
 * search on the key, widened by the largest reach of any short item. The few long ones (a message in
 * flight across many rows, a deadline bar) are kept in fixed-height buckets they overlap.
 */

/** An item whose extent is taller than this (flow px) is long: kept in buckets of this height. */
export const LONG_PX = 2400;

export interface Band {
  top: number;
  bottom: number;
}

/** Every row: the whole diagram (what tests and a run's first look at the layout use). */
export const WHOLE: Band = { top: -Infinity, bottom: Infinity };

/** A long item's bucket list is built on the first query that needs it, and only past this many long items (fewer are scanned). */
const LONG_SCAN_MAX = 64;

export class SpanIndex<T = unknown> {
  readonly count: number;
  /** How far a short item reaches above and below its key. */
  private readonly above: number;
  private readonly below: number;
  /** Positions of the long items, ascending. */
  private readonly long: number[];
  private buckets: Map<number, number[]> | null = null;

  /**
   * One pass over the items, allocating nothing per item: the reach of the short ones and the list
   * of the long ones (`key`, `lo` and `hi` are read again by queries, for the few items near a band).
   */
  constructor(
    private readonly items: readonly T[],
    private readonly key: (item: T) => number,
    private readonly lo: (item: T) => number,
    private readonly hi: (item: T) => number,
  ) {
    this.count = items.length;
    const long: number[] = [];
    let above = 0;
    let below = 0;
    let previousKey = -Infinity;
    for (let at = 0; at < items.length; at++) {
      const item = items[at] as T;
      const k = key(item);
      if (k < previousKey) throw new Error(`SpanIndex: keys must not decrease (item ${at}: ${k} after ${previousKey})`);
      previousKey = k;
      const top = Math.min(lo(item), k);
      const bottom = Math.max(hi(item), k);
      if (bottom - top > LONG_PX) {
        long.push(at);
        continue;
      }
      if (k - top > above) above = k - top;
      if (bottom - k > below) below = bottom - k;
    }
    this.long = long;
    this.above = above;
    this.below = below;
  }

  private reaches(at: number, top: number, bottom: number): boolean {
    const item = this.items[at] as T;
    const k = this.key(item);
    return Math.max(this.hi(item), k) >= top && Math.min(this.lo(item), k) <= bottom;
  }

  private isLong(at: number): boolean {
    const item = this.items[at] as T;
    const k = this.key(item);
    return Math.max(this.hi(item), k) - Math.min(this.lo(item), k) > LONG_PX;
  }

  /** Positions (ascending) of the items that reach into [band.top, band.bottom]. */
  query(band: Band): number[] {
    const { top, bottom } = band;
    if (top === -Infinity && bottom === Infinity) return Array.from({ length: this.count }, (_, at) => at);
    const found: number[] = [];
    // A short item in the band has its key within [top - below, bottom + above].
    const keyAt = (at: number) => this.key(this.items[at] as T);
    const end = firstWhere(this.count, (at) => keyAt(at) > bottom + this.above);
    for (let at = firstWhere(this.count, (i) => keyAt(i) >= top - this.below); at < end; at++) {
      if (this.reaches(at, top, bottom) && !this.isLong(at)) found.push(at);
    }
    if (this.long.length === 0) return found;
    for (const at of this.longNear(top, bottom)) if (this.reaches(at, top, bottom)) found.push(at);
    return found.sort((a, b) => a - b);
  }

  /** The long items that may reach into [top, bottom]: all of them when few, else those in the buckets it covers. */
  private longNear(top: number, bottom: number): Iterable<number> {
    if (this.long.length <= LONG_SCAN_MAX || !Number.isFinite(top) || !Number.isFinite(bottom)) return this.long;
    if (this.buckets === null) {
      this.buckets = new Map();
      for (const at of this.long) {
        const item = this.items[at] as T;
        const k = this.key(item);
        for (let bucket = Math.floor(Math.min(this.lo(item), k) / LONG_PX); bucket <= Math.floor(Math.max(this.hi(item), k) / LONG_PX); bucket++) {
          const held = this.buckets.get(bucket);
          if (held === undefined) this.buckets.set(bucket, [at]);
          else held.push(at);
        }
      }
    }
    const near = new Set<number>();
    for (let bucket = Math.floor(top / LONG_PX); bucket <= Math.floor(bottom / LONG_PX); bucket++) for (const at of this.buckets.get(bucket) ?? []) near.add(at);
    return near;
  }
}

/** The first position in [0, count) where `past` holds, given it holds from some position on (count if never). */
function firstWhere(count: number, past: (at: number) => boolean): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (past(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** The first i with sorted[i] >= value (sorted.length if none). */
export function firstAtOrAbove(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The first i with sorted[i] > value (sorted.length if none). */
export function firstAbove(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] as number) <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
