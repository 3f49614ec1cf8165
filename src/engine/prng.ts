import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { assert } from './assert';

/**
 * The engine's only source of randomness: seeded, so one seed replays a whole run.
 * Wraps pure-rand's xoroshiro128+ (the generator fast-check uses).
 */
export class SeededRandom {
  readonly seed: number;
  private readonly rng: ReturnType<typeof xoroshiro128plus>;

  constructor(seed: number) {
    assert(Number.isSafeInteger(seed), `seed must be a safe integer, got ${seed}`);
    this.seed = seed;
    this.rng = xoroshiro128plus(seed | 0);
  }

  /** A uniform integer in [fromInclusive, toInclusive]. */
  int(fromInclusive: number, toInclusive: number): number {
    assert(Number.isInteger(fromInclusive) && Number.isInteger(toInclusive), 'int bounds must be integers');
    assert(fromInclusive <= toInclusive, `int bounds reversed: ${fromInclusive} > ${toInclusive}`);
    if (fromInclusive === toInclusive) return fromInclusive;
    return uniformInt(this.rng, fromInclusive, toInclusive);
  }
}
