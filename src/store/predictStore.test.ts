import { afterEach, describe, expect, it } from 'vitest';
import {
  keepRound,
  parseRound,
  roundScore,
  usePredictStore,
  type RoundAnswer,
  type RoundStorage,
} from './predictStore';

// The Predict round outlives a reload: it is read back from storage, merged with answers given
// meanwhile, and every change (a reveal, a reset) is saved.

/** Storage as a map in memory, with what was saved last. */
function memoryStorage(initial: unknown): RoundStorage & { saved: unknown[] } {
  let value = initial;
  const saved: unknown[] = [];
  return {
    saved,
    load: () => Promise.resolve(value),
    save: (round) => {
      value = round;
      saved.push(round);
      return Promise.resolve();
    },
  };
}

afterEach(() => usePredictStore.setState({ round: {} }));

describe('the Predict round kept between visits', () => {
  it('reads the kept round back, keeps answers given before it arrived, and saves each change', async () => {
    const storage = memoryStorage({
      A: { guess: 'cancelled', answer: 'cancelled' },
      B: { guess: 'uses', answer: 'ignores' },
    });
    // An answer given while the kept round is still being read.
    usePredictStore.getState().score('C', { guess: 'timeout-max', answer: 'timeout-max' });
    const stop = await keepRound(storage);
    const round = usePredictStore.getState().round;
    expect(Object.keys(round).sort()).toEqual(['A', 'B', 'C']);
    expect(roundScore(round, ['A', 'B', 'C', 'D'])).toEqual({ right: 2, answered: 3, total: 4 });
    usePredictStore.getState().score('D', { guess: 'cancelled', answer: 'completed' });
    expect(Object.keys(storage.saved.at(-1) as Record<string, RoundAnswer>).sort()).toEqual(['A', 'B', 'C', 'D']);
    usePredictStore.getState().resetRound();
    expect(storage.saved.at(-1)).toEqual({});
    stop();
  });

  it('leaves out what is not a round answer', () => {
    expect(parseRound(null)).toEqual({});
    expect(parseRound([1, 2])).toEqual({});
    expect(parseRound({ A: { guess: 'x', answer: 'y' }, B: { guess: 3 }, C: 'z' })).toEqual({
      A: { guess: 'x', answer: 'y' },
    });
  });

  it('a storage that fails leaves the round for this visit only', async () => {
    const failing: RoundStorage = {
      load: () => Promise.reject(new Error('no IndexedDB')),
      save: () => Promise.reject(new Error('no IndexedDB')),
    };
    usePredictStore.getState().score('A', { guess: 'cancelled', answer: 'cancelled' });
    const stop = await keepRound(failing);
    expect(usePredictStore.getState().round).toEqual({ A: { guess: 'cancelled', answer: 'cancelled' } });
    stop();
  });
});
