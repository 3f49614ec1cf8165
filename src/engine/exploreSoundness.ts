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
