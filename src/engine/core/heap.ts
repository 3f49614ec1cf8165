import { assert } from './assert';

/** What the heap orders by: virtual time first, then insertion sequence (ties broken by arrival). */
export interface HeapKey {
  readonly atMs: number;
  readonly seq: number;
}

function before(a: HeapKey, b: HeapKey): boolean {
  return a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);
}

/** A binary min-heap ordered by `(atMs, seq)`. The scheduler's queue; also the bench's baseline. */
export class BinaryHeap<T extends HeapKey> {
  /**
   * `Array.of()`, not `[]`: V8 comes to allocate an array literal made once per run straight in its old
   * generation (allocation-site pretenuring); a dead run's queue there kept its events, their closures
   * and so the whole run alive through the next young-generation collection (see `DriverHooks`).
   */
  private readonly items: T[] = Array.of<T>();

  get size(): number {
    return this.items.length;
  }

  /** The items in heap order (not sorted): what a caller scans when the order does not matter. */
  values(): readonly T[] {
    return this.items;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentItem = items[parent] as T;
      if (!before(item, parentItem)) break;
      items[index] = parentItem;
      index = parent;
    }
    items[index] = item;
    assert(index === 0 || !before(item, items[(index - 1) >> 1] as T), 'a pushed item sits below its parent');
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined) return undefined;
    if (items.length === 0) return top;
    const length = items.length;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      let child = left;
      if (right < length && before(items[right] as T, items[left] as T)) child = right;
      const childItem = items[child] as T;
      if (!before(childItem, last)) break;
      items[index] = childItem;
      index = child;
    }
    items[index] = last;
    assert(this.items.length === length, 'heap size changed during sift-down');
    // Paired with push: what comes out is never after what stays at the head.
    assert(!before(items[0] as T, top), 'the heap returned its minimum');
    return top;
  }
}
