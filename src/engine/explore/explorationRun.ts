import type { Components } from '../core/components';
import type { RunOptions } from '../core/model';
import type { Chooser } from '../core/scheduler';

/**
 * The run an exploration explores the orderings of, and a shrink replays: the engine's run options
 * without an ordering (each ordering brings its own chooser) and without a trace or a choice of
 * recording (an ordering keeps no events), so a new run dimension reaches the explorer and the shrink
 * through `RunOptions`.
 */
export interface ExplorationRun extends Omit<RunOptions, 'chooser' | 'schedule' | 'trace' | 'record' | 'components'> {
  /**
   * Also offer the arrivals where a timer the delivery re-arms lands on a queued instant (default true);
   * false offers only the window's ends and the queued instants inside it (what the tests compare with).
   */
  readonly criticalArrivals?: boolean;
  /**
   * A student's parts (the graded exercises): made afresh for every run, so no state leaks from one
   * ordering into another.
   */
  readonly components?: () => Components;
}

/**
 * One ordering's run: the exploration's run with the ordering's chooser, keeping no events, with the
 * student's parts made for this ordering (`components`, when the exploration has them).
 */
export function orderingRun(run: ExplorationRun, chooser: Chooser, components: Components | undefined): RunOptions {
  return { ...orderingsRun(run), chooser, ...(components === undefined ? {} : { components }) };
}

/**
 * What every ordering's run shares (`orderingRun` without the chooser and the parts): the run an
 * explorer resolves once for all its orderings (`scenarioRunner`).
 */
export function orderingsRun(run: ExplorationRun): RunOptions {
  // Everything of the run but what an ordering replaces; the engine reads the run dimensions it knows.
  const { components: _factory, criticalArrivals: _arrivals, ...shared } = run;
  return { ...shared, record: false };
}
