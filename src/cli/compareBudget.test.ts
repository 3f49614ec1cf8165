// Proves `lab compare --budget-ms N` bounds the whole command (both runs and their comparison), ending
// in LAB016 once N ms are spent, not after each part has had N ms of its own.
import { describe, expect, it } from 'vitest';
import { lab } from './captured';

describe('lab compare --budget-ms', () => {
  it('stops two long runs and their comparison within one budget', async () => {
    // Each run alone takes well over the budget (about 960,000 events), however fast the machine.
    const spec = 'C:workMs=240000,progressEveryMs=1,idleTimeoutMs=3600000,maxTimeoutMs=86400000,eventsMax=1000000';
    const started = performance.now();
    const r = await lab('compare', spec, spec, '--budget-ms', '500');
    const tookMs = performance.now() - started;
    expect(r).toMatchObject({ code: 1, out: '', err: expect.stringMatching(/LAB016 .*budget of 500 ms/) });
    // One budget, plus the slack of looking at the clock every 1,024 events.
    expect(tookMs).toBeLessThan(500 + 2_000);
  }, 60_000);
});
