// Proves compareRuns is linear in the number of events (two 80,000-event runs compare in well under a second
// of CPU; grouping by instant once, not filtering every event for every instant) and that its tick lets the
// host stop it part-way.
import { describe, expect, it } from 'vitest';
import { compareRuns, runScenario, type Transcript } from '.';
import { findScenario } from '../scenarios/index';

const long = (workMs: number, seed = 1): Transcript =>
  runScenario(findScenario('C'), {
    seed,
    settings: { workMs, progressEveryMs: 1, idleTimeoutMs: 3_600_000, maxTimeoutMs: 86_400_000 },
  });

describe('compareRuns at scale', () => {
  it('two runs of 80,000 events each compare in linear time', () => {
    const a = long(20_000);
    expect(a.events.length).toBeGreaterThan(80_000);
    const before = process.cpuUsage();
    const result = compareRuns(a, a);
    const cpu = process.cpuUsage(before);
    expect(result.divergence).toBeNull();
    // Quadratic, this took 38 s of CPU on the machine where linear takes 0.65 s.
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(5_000);
  }, 60_000);

  it('the tick is called as the comparison goes, and what it throws ends the comparison', () => {
    const a = long(5_000);
    const seen: number[] = [];
    expect(() =>
      compareRuns(a, a, {
        tick: (events) => {
          seen.push(events);
          if (events > 10_000) throw new Error('stopped by the host');
        },
      }),
    ).toThrow('stopped by the host');
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((n, i) => i === 0 || n > (seen[i - 1] as number))).toBe(true);
  });

  it('the first parting is the same as before the rewrite: the earliest instant, its first unmatched event each side', () => {
    const a = long(50);
    const b = long(60);
    const d = compareRuns(a, b).divergence;
    expect(d).not.toBeNull();
    expect(d?.indexA).not.toBeNull();
    expect(a.events[d?.indexA as number]?.atMs).toBe(d?.atMs);
  });
});
