import { assert } from '../../core/assert';

/**
 * Reconnect backoff (docs/requirements.md RV-4): how long a client waits before reconnect attempt n. Every amount
 * is a pure function of (seed, client id, attempt), so a herd of 10,000 clients replays exactly
 * and a test can name the wait of client 7's third attempt. Production may draw from runtime or
 * cryptographic randomness; the lab must not.
 *
 * Policies (AWS Architecture Blog, "Exponential Backoff and Jitter", names kept):
 * - `full-jitter` (the lab's default, docs/requirements.md RV-4): uniform in [0, min(capMs, baseMs·2ⁿ)].
 * - `none`: no backoff, retry at once.
 * - `exponential`: exactly min(capMs, baseMs·2ⁿ), no jitter: every client that failed together
 *   retries together.
 * - `equal-jitter`: half the ceiling fixed, the other half uniform: in [c/2, c].
 * - `decorrelated-jitter`: min(capMs, uniform in [baseMs, 3·previous]), previous starting at baseMs;
 *   it grows from the client's own last wait instead of from the attempt number.
 */
export const BACKOFF_POLICIES = ['full-jitter', 'none', 'exponential', 'equal-jitter', 'decorrelated-jitter'] as const;
export type BackoffPolicy = (typeof BACKOFF_POLICIES)[number];

export interface BackoffConfig {
  readonly policy: BackoffPolicy;
  readonly baseMs: number;
  readonly capMs: number;
  /** The run's seed: two runs with different seeds draw different (but each replayable) jitter. */
  readonly seed: number;
}

/** Above this exponent baseMs·2ⁿ exceeds any cap the settings allow; the ceiling is the cap. */
const EXPONENT_MAX = 52;

/** min(capMs, baseMs·2ⁿ): the largest wait before attempt n (docs/requirements.md RV-4: 250, 500, 1000, … 8000). */
export function backoffCeilingMs(attempt: number, baseMs: number, capMs: number): number {
  assert(Number.isInteger(attempt) && attempt >= 0, () => `attempt must be a non-negative integer, got ${attempt}`);
  assert(Number.isInteger(baseMs) && baseMs >= 0, () => `baseMs must be a non-negative integer, got ${baseMs}`);
  assert(Number.isInteger(capMs) && capMs >= 0, () => `capMs must be a non-negative integer, got ${capMs}`);
  if (attempt > EXPONENT_MAX) return capMs;
  return Math.min(capMs, baseMs * 2 ** attempt);
}

/** murmur3's 32-bit finaliser: spreads every input bit over the output. */
function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85eb_ca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2_ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A uniform-looking number in [0, 1) that depends only on (seed, client id, attempt): a hash, not a
 * generator, so the herd can draw client 9,999's attempt 4 without drawing anything else first.
 */
export function jitterFraction(seed: number, clientId: number, attempt: number): number {
  assert(Number.isSafeInteger(seed), () => `seed must be a safe integer, got ${seed}`);
  assert(
    Number.isInteger(clientId) && clientId >= 0,
    () => `client id must be a non-negative integer, got ${clientId}`,
  );
  assert(Number.isInteger(attempt) && attempt >= 0, () => `attempt must be a non-negative integer, got ${attempt}`);
  let h = fmix32(seed ^ 0x9e37_79b9);
  h = fmix32(h ^ Math.imul(clientId + 1, 0x27d4_eb2f));
  h = fmix32(h ^ Math.imul(attempt + 1, 0x1656_67b1));
  return h / 0x1_0000_0000;
}

/** An integer in [fromMs, toMs] drawn from (seed, client id, attempt). */
export function jitterIntMs(seed: number, clientId: number, attempt: number, fromMs: number, toMs: number): number {
  assert(Number.isInteger(fromMs) && Number.isInteger(toMs), 'jitter bounds must be integers');
  assert(fromMs <= toMs, () => `jitter bounds reversed: ${fromMs} > ${toMs}`);
  const value = fromMs + Math.floor(jitterFraction(seed, clientId, attempt) * (toMs - fromMs + 1));
  assert(value >= fromMs && value <= toMs, () => `jitter ${value} escaped [${fromMs}, ${toMs}]`);
  return value;
}

/** The interval a policy may choose from for attempt n: what the property tests hold every draw to. */
export function backoffBoundsMs(
  config: BackoffConfig,
  attempt: number,
  previousDelayMs: number | null,
): { minMs: number; maxMs: number } {
  const ceilingMs = backoffCeilingMs(attempt, config.baseMs, config.capMs);
  switch (config.policy) {
    case 'none':
      return { minMs: 0, maxMs: 0 };
    case 'exponential':
      return { minMs: ceilingMs, maxMs: ceilingMs };
    case 'full-jitter':
      return { minMs: 0, maxMs: ceilingMs };
    case 'equal-jitter':
      return { minMs: Math.floor(ceilingMs / 2), maxMs: ceilingMs };
    case 'decorrelated-jitter': {
      const lowMs = Math.min(config.baseMs, config.capMs);
      const previousMs = Math.max(previousDelayMs ?? config.baseMs, config.baseMs);
      return { minMs: lowMs, maxMs: Math.min(config.capMs, Math.max(lowMs, previousMs * 3)) };
    }
  }
}

/**
 * The wait before attempt n, in whole milliseconds. `previousDelayMs` is the client's last wait
 * (null before its first); only `decorrelated-jitter` reads it.
 */
export function backoffDelayMs(
  config: BackoffConfig,
  clientId: number,
  attempt: number,
  previousDelayMs: number | null = null,
): number {
  assert(config.baseMs <= config.capMs, () => `baseMs ${config.baseMs} exceeds capMs ${config.capMs}`);
  const { minMs, maxMs } = backoffBoundsMs(config, attempt, previousDelayMs);
  if (config.policy === 'decorrelated-jitter') {
    // Drawn over [base, 3·previous] and then capped, as the published formula does: the cap holds a mass.
    const previousMs = Math.max(previousDelayMs ?? config.baseMs, config.baseMs);
    return Math.min(config.capMs, jitterIntMs(config.seed, clientId, attempt, minMs, Math.max(minMs, previousMs * 3)));
  }
  if (minMs === maxMs) return minMs;
  return jitterIntMs(config.seed, clientId, attempt, minMs, maxMs);
}

/** One client's reconnect schedule: remembers its previous wait for decorrelated jitter. */
export class ClientBackoff {
  private previousDelayMs: number | null = null;
  private attempt = 0;

  constructor(
    private readonly config: BackoffConfig,
    readonly clientId: number,
  ) {}

  get nextAttempt(): number {
    return this.attempt;
  }

  /** The wait before the next attempt; advances the attempt number. */
  next(): { attempt: number; delayMs: number } {
    const attempt = this.attempt;
    const delayMs = backoffDelayMs(this.config, this.clientId, attempt, this.previousDelayMs);
    this.previousDelayMs = delayMs;
    this.attempt += 1;
    return { attempt, delayMs };
  }
}
