import type { DueEvent } from './core/scheduler';
import { Driver } from './explore/driver';
import type { ExploreResult } from './explorer';

/**
 * The latency jitters the explorer is run at besides a scenario's own range: the page's "Explore with
 * 20 ms of jitter" (ExplorePanel's EXPLORE_JITTER_MS). What the reduction's soundness matrix covers.
 */
export const EXPLORE_JITTER_PRESETS_MS: readonly number[] = [20];

/**
 * What the partial-order reduction must leave unchanged: the set of distinct endings and the set of
 * broken invariants (counts of orderings, schedules and steps may differ: fewer orderings are run).
 */
export function reductionSignature(result: Pick<ExploreResult, 'endings' | 'violations'>): string {
  const endings = result.endings.map((ending) => JSON.stringify(ending.distinct)).sort();
  const broken = [...new Set(result.violations.map((violation) => violation.invariant))].sort();
  return JSON.stringify({ endings, broken });
}

/**
 * Runs `body` (explorations) and counts the distinct orders of events among the complete orderings
 * its explorations ran: each run's events by actor and label, times left out (two arrival instants
 * that give one order are one class). What scripts/arrivalBound.ts measures a reduction over arrival
 * instants against: a search that keeps every such order runs at least that many complete orderings.
 * It watches every driver made meanwhile (the explorer makes its own), and stops watching after.
 */
export function countEventOrders<T>(body: () => T): { readonly result: T; readonly orders: number } {
  const orders = new Set<string>();
  const seen = new WeakMap<object, string[]>();
  const driver = Driver.prototype as unknown as { step(event: DueEvent): void; finish(): void };
  const { step, finish } = driver;
  driver.step = function (this: object, event: DueEvent) {
    let events = seen.get(this);
    if (events === undefined) seen.set(this, (events = []));
    events.push(`${event.actor} ${event.label}`);
    step.call(this, event);
  };
  driver.finish = function (this: object) {
    orders.add((seen.get(this) ?? []).join('\n'));
    finish.call(this);
  };
  try {
    return { result: body(), orders: orders.size };
  } finally {
    driver.step = step;
    driver.finish = finish;
  }
}

/**
 * Runs `body` (explorations) with every same-instant choice handed its first event due only: what a
 * reduction that pruned every other order of events due at one instant would leave (not sound: it
 * drops orders that matter). What scripts/arrivalBound.ts measures the reach of any reduction of
 * same-instant orders by. It changes every driver made meanwhile, and restores them after.
 */
export function firstOrderOnly<T>(body: () => T): T {
  const driver = Driver.prototype as unknown as { choose(candidates: readonly DueEvent[]): number };
  const { choose } = driver;
  driver.choose = function (this: object, candidates: readonly DueEvent[]) {
    return choose.call(this, candidates.slice(0, 1));
  };
  try {
    return body();
  } finally {
    driver.choose = choose;
  }
}
