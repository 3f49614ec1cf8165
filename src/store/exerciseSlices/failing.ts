import type { ExerciseSliceDeps, ExerciseState, FailingSlice, OpenedOrdering } from './state';
import { CHECK_BUDGET_MS, message, type ExerciseSlice } from './state';

/** Replays one ordering with the code that was checked, and opens it in the diagram; a newer replay leaves the answer unread. */
async function replay(
  { client }: ExerciseSliceDeps,
  set: (patch: Partial<ExerciseState>) => void,
  get: () => ExerciseState,
  opened: Omit<OpenedOrdering, 'run'>,
): Promise<void> {
  const id = get().selected;
  const code = get().checkedCode;
  if (id === null || code === null) return;
  const { failing } = opened;
  const current = get().replayRequest + 1;
  set({ replayRequest: current, opened: { ...opened, run: { status: 'loading', value: null } } });
  try {
    // The failing run as the Check answer gave it: the worker replays its scenario, transport, settings and schedule.
    const answer = await client.call(
      { type: 'exercise-run', exercise: id, code, run: { ...failing, settings: { ...failing.settings } } },
      { budget: { ms: CHECK_BUDGET_MS, what: 'replay of the failing ordering' } },
    );
    if (current !== get().replayRequest) return;
    const { transcript, wording, calls, failure } = answer;
    set({ opened: { ...opened, run: { status: 'done', value: { transcript, wording, calls, failure } } } });
  } catch (error) {
    if (current !== get().replayRequest) return;
    set({ opened: { ...opened, run: { status: 'error', message: message(error), value: null } } });
  }
}

/** The failing ordering opened from the report (a broken statement's, or where the code itself failed). */
export const createFailingSlice: ExerciseSlice<FailingSlice> = (deps) => (set, get) => ({
  opened: null,
  replayRequest: 0,

  async openFailing(statement) {
    const check = get().check;
    if (check.status !== 'done') return;
    const result = check.value.statements.find((candidate) => candidate.id === statement);
    const failing = result?.failing;
    if (result === undefined || failing === undefined) return;
    await replay(deps, set, get, {
      statement,
      failing,
      calls: result.calls ?? [],
      explanation: result.explanation ?? '',
    });
  },

  async openWhere() {
    const check = get().check;
    const error = check.status === 'done' ? check.value.error : undefined;
    if (error?.where === undefined) return;
    // The calls are the replay's own (the report keeps none for a failure of the code).
    await replay(deps, set, get, {
      statement: `your code failed (${error.kind})`,
      failing: error.where,
      calls: [],
      explanation: error.message,
    });
  },

  closeFailing() {
    set({ replayRequest: get().replayRequest + 1, opened: null });
  },
});
