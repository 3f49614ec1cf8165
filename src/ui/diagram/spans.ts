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

export class SpanIndex {
  readonly count: number;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  /** Positions of the short items, and their keys (ascending). */
  private readonly shortAt: Int32Array;
  private readonly shortKeys: Float64Array;
  /** How far a short item reaches above and below its key. */
  private readonly above: number;
  private readonly below: number;
  private readonly buckets = new Map<number, number[]>();

  constructor(count: number, key: (at: number) => number, lo: (at: number) => number, hi: (at: number) => number) {
    this.count = count;
    this.lo = new Float64Array(count);
    this.hi = new Float64Array(count);
    const shortAt: number[] = [];
    let above = 0;
    let below = 0;
    let previousKey = -Infinity;
    for (let at = 0; at < count; at++) {
      const k = key(at);
      if (k < previousKey) throw new Error(`SpanIndex: keys must not decrease (item ${at}: ${k} after ${previousKey})`);
      previousKey = k;
      const top = Math.min(lo(at), hi(at), k);
      const bottom = Math.max(lo(at), hi(at), k);
      this.lo[at] = top;
      this.hi[at] = bottom;
      if (bottom - top > LONG_PX) {
        for (let bucket = Math.floor(top / LONG_PX); bucket <= Math.floor(bottom / LONG_PX); bucket++) {
          const held = this.buckets.get(bucket);
          if (held === undefined) this.buckets.set(bucket, [at]);
          else held.push(at);
        }
        continue;
      }
      shortAt.push(at);
      above = Math.max(above, k - top);
      below = Math.max(below, bottom - k);
    }
    this.shortAt = Int32Array.from(shortAt);
    this.shortKeys = Float64Array.from(shortAt, (at) => key(at));
    this.above = above;
    this.below = below;
  }

  /** Positions (ascending) of the items that reach into [band.top, band.bottom]. */
  query(band: Band): number[] {
    const { top, bottom } = band;
    if (top === -Infinity && bottom === Infinity) return Array.from({ length: this.count }, (_, at) => at);
    const found: number[] = [];
    // A short item in the band has its key within [top - below, bottom + above].
    const end = firstAbove(this.shortKeys, bottom + this.above);
    for (let i = firstAtOrAbove(this.shortKeys, top - this.below); i < end; i++) {
      const at = this.shortAt[i] as number;
      if ((this.hi[at] as number) >= top && (this.lo[at] as number) <= bottom) found.push(at);
    }
    if (this.buckets.size > 0) {
      const seen = new Set<number>();
      const first = Math.floor(Math.max(top, -1e12) / LONG_PX);
      const last = Math.floor(Math.min(bottom, 1e12) / LONG_PX);
      for (let bucket = first; bucket <= last; bucket++) {
        for (const at of this.buckets.get(bucket) ?? []) {
          if (seen.has(at)) continue;
          seen.add(at);
          if ((this.hi[at] as number) >= top && (this.lo[at] as number) <= bottom) found.push(at);
        }
      }
      found.sort((a, b) => a - b);
    }
    return found;
  }
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
