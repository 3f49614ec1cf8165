// Proves the reconnect backoff of docs/requirements.md RV-4: full jitter waits a deterministic amount drawn from (seed, client id, attempt) within [0, min(capMs, baseMs·2ⁿ)] — 250, 500, 1000 … 8000 ms with the lab's numbers — and every policy stays inside its stated bounds for any input.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BACKOFF_POLICIES,
  ClientBackoff,
  backoffBoundsMs,
  backoffCeilingMs,
  backoffDelayMs,
  jitterFraction,
  type BackoffConfig,
} from './backoff';

const lab: BackoffConfig = { policy: 'full-jitter', baseMs: 250, capMs: 8_000, seed: 1 };

describe('RV-4 capped exponential backoff with deterministic jitter', () => {
  it('the ceiling is exactly 250, 500, 1000, … capped at 8000 ms', () => {
    const ceilings = Array.from({ length: 9 }, (_, attempt) => backoffCeilingMs(attempt, 250, 8_000));
    expect(ceilings).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000]);
    expect(backoffCeilingMs(1_000, 250, 8_000)).toBe(8_000);
  });

  it('full jitter (the default policy) waits an integer in [0, ceiling] for every client and attempt', () => {
    const outside: string[] = [];
    for (let client = 0; client < 2_000; client += 1) {
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const delayMs = backoffDelayMs(lab, client, attempt);
        if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > backoffCeilingMs(attempt, 250, 8_000))
          outside.push(`client ${client} attempt ${attempt}: ${delayMs}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('is a function of (seed, client id, attempt): the same triple gives the same wait, in any order of asking', () => {
    const forward = Array.from({ length: 50 }, (_, client) => backoffDelayMs(lab, client, 3));
    const backward = Array.from({ length: 50 }, (_, index) => backoffDelayMs(lab, 49 - index, 3)).reverse();
    expect(backward).toEqual(forward);
    expect(backoffDelayMs({ ...lab, seed: 2 }, 7, 3)).not.toBe(backoffDelayMs(lab, 7, 3));
  });

  it('spreads clients over the whole interval (what breaks the lockstep)', () => {
    const delays = Array.from({ length: 10_000 }, (_, client) => backoffDelayMs(lab, client, 2));
    const meanMs = delays.reduce((sum, value) => sum + value, 0) / delays.length;
    expect(meanMs).toBeGreaterThan(450);
    expect(meanMs).toBeLessThan(550);
    expect(new Set(delays).size).toBeGreaterThan(900);
    // Every tenth of [0, 1000] gets a fair share.
    for (let decile = 0; decile < 10; decile += 1) {
      const share = delays.filter((value) => Math.min(9, Math.floor(value / 100)) === decile).length / delays.length;
      expect(share).toBeGreaterThan(0.08);
      expect(share).toBeLessThan(0.12);
    }
  });

  it('the other policies: none waits 0, exponential waits the ceiling, equal jitter at least half of it', () => {
    expect(backoffDelayMs({ ...lab, policy: 'none' }, 3, 4)).toBe(0);
    expect(
      Array.from({ length: 7 }, (_, attempt) => backoffDelayMs({ ...lab, policy: 'exponential' }, 3, attempt)),
    ).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 8_000]);
    for (let client = 0; client < 500; client += 1) {
      const delayMs = backoffDelayMs({ ...lab, policy: 'equal-jitter' }, client, 3);
      expect(delayMs).toBeGreaterThanOrEqual(1_000);
      expect(delayMs).toBeLessThanOrEqual(2_000);
    }
  });

  it('decorrelated jitter grows from the previous wait, between base and 3× that, capped', () => {
    const backoff = new ClientBackoff({ ...lab, policy: 'decorrelated-jitter' }, 42);
    let previousMs = 250;
    for (let step = 0; step < 30; step += 1) {
      const { attempt, delayMs } = backoff.next();
      expect(attempt).toBe(step);
      expect(delayMs).toBeGreaterThanOrEqual(250);
      expect(delayMs).toBeLessThanOrEqual(Math.min(8_000, previousMs * 3));
      previousMs = delayMs;
    }
    expect(backoff.nextAttempt).toBe(30);
  });

  it('jitter fractions lie in [0, 1)', () => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const fraction = jitterFraction(0xffff_ffff, 99_999, attempt);
      expect(fraction).toBeGreaterThanOrEqual(0);
      expect(fraction).toBeLessThan(1);
    }
  });
});

describe('property: every draw of every policy is within its bound', () => {
  it('for any seed, client, attempt, base ≤ cap and previous wait', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BACKOFF_POLICIES),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.integer({ min: 0, max: 99_999 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 0, max: 3_600_000 }),
        fc.option(fc.integer({ min: 0, max: 3_600_000 }), { nil: null }),
        (policy, seed, client, attempt, baseMs, extraMs, previousDelayMs) => {
          const config: BackoffConfig = { policy, seed, baseMs, capMs: Math.min(3_600_000, baseMs + extraMs) };
          const ceilingMs = backoffCeilingMs(attempt, config.baseMs, config.capMs);
          const { minMs, maxMs } = backoffBoundsMs(config, attempt, previousDelayMs);
          const delayMs = backoffDelayMs(config, client, attempt, previousDelayMs);
          expect(Number.isInteger(delayMs)).toBe(true);
          expect(delayMs).toBeGreaterThanOrEqual(minMs);
          expect(delayMs).toBeLessThanOrEqual(maxMs);
          expect(delayMs).toBeLessThanOrEqual(config.capMs);
          if (policy === 'full-jitter') {
            expect(minMs).toBe(0);
            expect(maxMs).toBe(ceilingMs);
          }
          expect(backoffDelayMs(config, client, attempt, previousDelayMs)).toBe(delayMs);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
