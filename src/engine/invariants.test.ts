// Proves raceInvariants refuses a transcript its checks would misjudge (events out of order, no maximum
// deadline) instead of reporting that every invariant holds.
import { describe, expect, it } from 'vitest';
import { runRaceById } from '../scenarios/index';
import { raceInvariants } from './invariants';

describe('raceInvariants', () => {
  const transcript = runRaceById('A', { transport: 'stdio' });

  it('judges a transcript as it was recorded', () => {
    expect(raceInvariants(transcript).every((check) => check.holds)).toBe(true);
  });

  it('refuses events out of seq order', () => {
    const events = [...transcript.events];
    [events[1], events[2]] = [events[2]!, events[1]!];
    expect(() => raceInvariants({ ...transcript, events })).toThrow(/keeps its events in seq order/);
  });

  it('refuses a run with no maximum deadline', () => {
    const settings = { ...transcript.settings };
    delete settings.maxTimeoutMs;
    expect(() => raceInvariants({ ...transcript, settings })).toThrow(/not a number of milliseconds/);
  });
});
