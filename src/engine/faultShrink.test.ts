// Proves delta debugging over a fault list: the subset it returns still fails, is 1-minimal, and the
// empty set wins when nothing is needed.
import { describe, expect, it } from 'vitest';
import { ddmin } from './faultShrink';

describe('ddmin', () => {
  const needs =
    (...wanted: number[]) =>
    (subset: readonly number[]) =>
      wanted.every((item) => subset.includes(item));

  it('finds the two items a failure needs among eight, in list order', () => {
    expect(ddmin([1, 2, 3, 4, 5, 6, 7, 8], needs(3, 7))).toEqual([3, 7]);
  });
  it('finds one item', () => {
    expect(ddmin([1, 2, 3, 4, 5], needs(4))).toEqual([4]);
  });
  it('returns the empty set when the failure needs none', () => {
    expect(ddmin([1, 2, 3], () => true)).toEqual([]);
  });
  it('keeps everything when every item is needed', () => {
    expect(ddmin([1, 2, 3], needs(1, 2, 3))).toEqual([1, 2, 3]);
  });
  it('is deterministic: the same questions in the same order, the same answer', () => {
    const asked: string[] = [];
    const fails = (subset: readonly number[]) => {
      asked.push(subset.join(','));
      return needs(2, 5)(subset);
    };
    const first = ddmin([1, 2, 3, 4, 5, 6], fails);
    const again: string[] = [...asked];
    asked.length = 0;
    expect(ddmin([1, 2, 3, 4, 5, 6], fails)).toEqual(first);
    expect(asked).toEqual(again);
  });
});
