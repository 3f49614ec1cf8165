import { LabError } from '../engine';
import type { RunOptions } from '../engine';

/**
 * The command line's wall-clock budget for one run. The engine keeps no wall clock, so the
 * host watches it: the scheduler's trace hook looks at the clock every 1,024 events and ends the run with
 * LAB016 once the budget is spent. A run that fails part-way saves nothing, so a --ledger file is kept.
 */
export const RUN_BUDGET_MS = 60_000;

export function wallClockBudget(
  budgetMs: number,
  now: () => number = () => performance.now(),
): NonNullable<RunOptions['trace']> {
  const startedAt = now();
  let events = 0;
  return {
    push() {},
    pop(atMs) {
      events += 1;
      if ((events & 1023) !== 0) return;
      if (now() - startedAt > budgetMs) {
        throw new LabError(
          'LAB016',
          `the run used its wall-clock budget of ${budgetMs} ms after ${events} events (virtual time ${atMs} ms) and was stopped; nothing was saved. Raise --budget-ms or shorten the run`,
        );
      }
    },
  };
}

/**
 * One budget for a command that runs several things (`compare`: two runs and their comparison): every
 * part looks at the same deadline, so `--budget-ms` bounds the whole command, not each part.
 */
export function commandBudget(
  budgetMs: number,
  now: () => number = () => performance.now(),
): { trace(): NonNullable<RunOptions['trace']>; check(what: string): void } {
  const startedAt = now();
  const check = (what: string) => {
    if (now() - startedAt > budgetMs)
      throw new LabError(
        'LAB016',
        `the command used its wall-clock budget of ${budgetMs} ms ${what} and was stopped; nothing was saved. Raise --budget-ms or shorten the runs`,
      );
  };
  return {
    trace() {
      let events = 0;
      return {
        push() {},
        pop(atMs) {
          events += 1;
          if ((events & 1023) === 0) check(`after ${events} events of a run (virtual time ${atMs} ms)`);
        },
      };
    },
    check,
  };
}
