import type { CheckReport } from '../../exercise/types';
import { CHECK_BUDGET_MS, message, type CheckSlice, type ExerciseSlice } from './state';

/** The first statement the report found broken with an ordering to replay, in the exercise's order. */
function firstBroken(report: CheckReport): string | undefined {
  return report.statements.find((statement) => !statement.holds && statement.failing !== undefined)?.id;
}

/** Check: the worker grades the code the editor holds; a newer Check or another exercise leaves an answer unread. */
export const createCheckSlice: ExerciseSlice<CheckSlice> =
  ({ client }) =>
  (set, get) => ({
    check: { status: 'idle' },
    checkedCode: null,
    progress: null,
    revealError: 0,
    checksSettled: 0,
    checkRequest: 0,

    async runCheck() {
      const id = get().selected;
      const code = id === null ? undefined : get().code[id];
      if (id === null || code === undefined || get().check.status === 'loading') return;
      const current = get().checkRequest + 1;
      const superseded = () => current !== get().checkRequest;
      set({
        checkRequest: current,
        replayRequest: get().replayRequest + 1,
        check: { status: 'loading', value: null },
        checkedCode: code,
        progress: null,
        opened: null,
      });
      try {
        const answer = await client.call(
          { type: 'exercise-check', exercise: id, code },
          {
            verifyProgress: (progress) =>
              !superseded() && set({ progress: { done: progress.runsDone, total: progress.runsTotal } }),
            budget: { ms: CHECK_BUDGET_MS, what: 'check', after: '; your code is kept' },
          },
        );
        if (superseded()) return;
        const { report } = answer;
        set({
          check: { status: 'done', value: report },
          progress: null,
          checksSettled: get().checksSettled + 1,
          revealError: report.error?.line === undefined ? get().revealError : get().revealError + 1,
        });
        // The first broken statement's shortest failing ordering opens at once: the Check's answer is the
        // ordering, not a button to find (a failure of the code opens from its note, beside the editor).
        const broken = report.error === undefined ? firstBroken(report) : undefined;
        if (broken !== undefined) await get().openFailing(broken);
      } catch (error) {
        if (superseded()) return;
        set({
          check: { status: 'error', message: message(error), value: null },
          progress: null,
          checksSettled: get().checksSettled + 1,
        });
      }
    },

    stopCheck() {
      if (get().check.status !== 'loading') return;
      client.stop?.();
    },
  });
