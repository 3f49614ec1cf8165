import { CHECK_BUDGET_MS, message, type CheckSlice, type ExerciseSlice } from './state';

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
        set({
          check: { status: 'done', value: answer.report },
          progress: null,
          checksSettled: get().checksSettled + 1,
          revealError: answer.report.error?.line === undefined ? get().revealError : get().revealError + 1,
        });
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
