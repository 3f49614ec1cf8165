// Proves the explorer's state text: equal states give equal text, and every difference a
// model's future can depend on — a value, an order, a Map's insertion order, a typed array's content,
// shared or cyclic structure — gives different text; functions and skipped objects are left out.
import { describe, expect, it } from 'vitest';
import { handleText, Scheduler } from './scheduler';
import { snapshot } from './snapshot';

class Model {
  readonly queue: number[] = [];
  readonly seen = new Map<string, number>();
  readonly flags = new Uint8Array(3);
  held: { entry: string } | null = null;
  act(): void {}
}

describe('snapshot', () => {
  it('two instances in the same state read alike, whatever was done to reach it', () => {
    const a = new Model();
    const b = new Model();
    a.queue.push(1, 2);
    a.queue.shift();
    b.queue.push(2);
    expect(snapshot(a)).toBe(snapshot(b));
  });

  it('tells apart values, orders, Map insertion orders and typed array contents', () => {
    const base = () => {
      const model = new Model();
      model.seen.set('x', 1).set('y', 2);
      return model;
    };
    const reference = snapshot(base());
    const value = base();
    value.seen.set('y', 3);
    const order = new Model();
    order.seen.set('y', 2).set('x', 1);
    const flags = base();
    flags.flags[1] = 1;
    const held = base();
    held.held = { entry: 'final #2' };
    const texts = [reference, snapshot(value), snapshot(order), snapshot(flags), snapshot(held)];
    expect(new Set(texts).size).toBe(texts.length);
    // A string is not the number it spells, and null is not undefined.
    expect(snapshot(['1'])).not.toBe(snapshot([1]));
    expect(snapshot([null])).not.toBe(snapshot([undefined]));
  });

  it('writes a typed array element by element, like an array, and a DataView (no indexed elements) as an empty list', () => {
    expect(snapshot(new Int16Array([1, -2]))).toBe(snapshot([1, -2]));
    expect(snapshot(new BigInt64Array([3n]))).toBe('[3n,],');
    expect(snapshot(new DataView(new ArrayBuffer(4)))).toBe('[],');
  });

  it('leaves out functions and skipped objects, and keeps shared and cyclic structure without looping', () => {
    const kit = { clock: 5 };
    const a = { kit, run: () => 1, n: 1 };
    const b = { kit: { clock: 9 }, run: () => 2, n: 1 };
    const skip = (value: object) => value === kit || value === b.kit;
    expect(snapshot(a, skip)).toBe(snapshot(b, skip));
    expect(snapshot(a)).not.toBe(snapshot(b));
    const shared = { v: 1 };
    const cyclic: { self?: unknown; pair: unknown[] } = { pair: [shared, shared] };
    cyclic.self = cyclic;
    const apart: { self?: unknown; pair: unknown[] } = { pair: [{ v: 1 }, { v: 1 }] };
    apart.self = apart;
    expect(snapshot(cyclic)).not.toBe(snapshot(apart));
    expect(snapshot(cyclic)).toBe(snapshot(cyclic));
  });

  it("writes an object the caller describes as that text: a queued event's handle by its state, instant and label, not its seq", () => {
    const handles = (first: string) => {
      const scheduler = new Scheduler({ eventsMax: 10 });
      // The other event first or second: the handle's seq differs, what it names does not.
      const other = () => scheduler.at(7, 'client', 'poll', () => {});
      if (first === 'other') other();
      const checkpoint = scheduler.at(5, 'worker', 'task checkpoint', () => {});
      if (first !== 'other') other();
      return { scheduler, model: { checkpoint } };
    };
    const describe = (value: object) => handleText(value) ?? false;
    const a = handles('other');
    const b = handles('checkpoint');
    expect(a.model.checkpoint.seq).not.toBe(b.model.checkpoint.seq);
    expect(snapshot(a.model, describe)).toBe(snapshot(b.model, describe));
    expect(snapshot(a.model, describe)).toContain('queued 5 worker task checkpoint');
    // Withdrawn is another state than queued.
    b.scheduler.cancel(b.model.checkpoint);
    expect(snapshot(a.model, describe)).not.toBe(snapshot(b.model, describe));
    expect(handleText({ atMs: 5 })).toBeNull();
  });
});
