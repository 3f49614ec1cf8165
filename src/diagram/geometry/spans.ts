import { LONG_PX, spanReach, type Extent, type SpanReach } from './model';

export { LONG_PX, spanReach, type Extent, type SpanReach };

/**
 * Which of a diagram's items reach into a band of rows, without looking at the others: the page's
 * work per step and per pan stays proportional to what is on screen, not to the run's length
 * (so one step at 100,000 events takes under 50 ms). The one pass over the items (their reach)
 * is made in the engine worker with the layout (`DiagramLayout.spans`); the page builds its indexes from
 * that without a pass of its own.
 *
 * Items come in event order, and each has a key on the time axis that never decreases in that order
 * (the y of its event's row) and a vertical extent [lo, hi] around it (a marker's box, a wire from
 * where it leaves to where it lands, a deadline bar). Most items are short: they are found by binary
 * search on the key, widened by the largest reach of any short item. The few long ones (a message in
 * flight across many rows, a deadline bar) are kept in fixed-height buckets they overlap.
 */

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
  /** How far a short item reaches above and below its key, and the long items. */
  readonly reach: SpanReach;
  private readonly key: (item: T) => number;
  private readonly lo: (item: T) => number;
  private readonly hi: (item: T) => number;
  private buckets: { near: Map<number, number[]>; unbounded: number[] } | null = null;

  /** The index of `items`, from their reach when it is known (the worker's pass), else by one pass over them. */
  constructor(
    private readonly items: readonly T[],
    extent: Extent<T>,
    reach: SpanReach | null = null,
  ) {
    this.count = items.length;
    this.key = extent.key;
    this.lo = extent.lo;
    this.hi = extent.hi;
    this.reach = reach ?? spanReach(items, extent);
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
    const end = firstWhere(this.count, (at) => keyAt(at) > bottom + this.reach.above);
    for (let at = firstWhere(this.count, (i) => keyAt(i) >= top - this.reach.below); at < end; at++) {
      if (this.reaches(at, top, bottom) && !this.isLong(at)) found.push(at);
    }
    if (this.reach.long.length === 0) return found;
    for (const at of this.longNear(top, bottom)) if (this.reaches(at, top, bottom)) found.push(at);
    return found.sort((a, b) => a - b);
  }

  /** The long items that may reach into [top, bottom]: all of them when few, else those in the buckets it covers. */
  private longNear(top: number, bottom: number): Iterable<number> {
    const { long } = this.reach;
    if (long.length <= LONG_SCAN_MAX || !Number.isFinite(top) || !Number.isFinite(bottom)) return long;
    if (this.buckets === null) {
      const near = new Map<number, number[]>();
      const unbounded: number[] = [];
      for (const at of long) {
        const item = this.items[at] as T;
        const k = this.key(item);
        const from = Math.min(this.lo(item), k);
        const to = Math.max(this.hi(item), k);
        if (!Number.isFinite(from) || !Number.isFinite(to)) {
          unbounded.push(at);
          continue;
        }
        for (let bucket = Math.floor(from / LONG_PX); bucket <= Math.floor(to / LONG_PX); bucket++) {
          const held = near.get(bucket);
          if (held === undefined) near.set(bucket, [at]);
          else held.push(at);
        }
      }
      this.buckets = { near, unbounded };
    }
    const found = new Set<number>(this.buckets.unbounded);
    for (let bucket = Math.floor(top / LONG_PX); bucket <= Math.floor(bottom / LONG_PX); bucket++)
      for (const at of this.buckets.near.get(bucket) ?? []) found.add(at);
    return found;
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
