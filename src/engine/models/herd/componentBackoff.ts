import type { ComponentClock, ComponentProbe } from '../../core/components';
import { LabError } from '../../core/errors';
import { backoffCeilingMs } from './backoff';

/**
 * A student's `backoffDelayMs(clientId, attempt)` (the `backoff` exercise) in the place of the herd's
 * own policy. The contract (docs/requirements.md RV-4): an integer in [0, min(capMs, baseMs·2ⁿ)]. Every answer outside
 * it is reported (`delay-in-range`) and the run goes on with the nearest wait the clock can follow: a
 * wait past the ceiling is kept (the run shows what it does), a negative one waits 0 ms, a fraction is
 * rounded. An answer that is no finite number cannot be followed: the run ends there (LAB050).
 */
export const BACKOFF_STATEMENTS = ['delay-in-range'] as const;
export type BackoffStatement = (typeof BACKOFF_STATEMENTS)[number];

export class ComponentBackoff {
  constructor(
    private readonly component: (clientId: number, attempt: number, clock: ComponentClock) => number,
    private readonly baseMs: number,
    private readonly capMs: number,
    private readonly probe: ComponentProbe,
    private readonly clock: ComponentClock,
  ) {}

  delayMs(clientId: number, attempt: number): number {
    const answered = this.component(clientId, attempt, this.clock);
    const call = `backoffDelayMs(${clientId}, ${attempt})`;
    if (typeof answered !== 'number' || !Number.isFinite(answered))
      throw new LabError(
        'LAB050',
        `${call} answered ${String(answered)}; it must answer a whole number of milliseconds`,
      );
    const ceilingMs = backoffCeilingMs(attempt, this.baseMs, this.capMs);
    const range = `[0, ${ceilingMs}] (min(${this.capMs}, ${this.baseMs}·2^${attempt}))`;
    if (!Number.isInteger(answered)) {
      this.probe.breach(
        'delay-in-range',
        `${call} answered ${answered}, not a whole number of milliseconds in ${range}`,
        this.clock,
      );
    } else if (answered < 0 || answered > ceilingMs) {
      this.probe.breach('delay-in-range', `${call} answered ${answered} ms, outside ${range}`, this.clock);
    }
    return Math.max(0, Math.round(answered));
  }
}
