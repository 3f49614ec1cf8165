import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ToolsClient } from '../worker/toolsClient';
import { createCatalogueSlice } from './exerciseSlices/catalogue';
import { createCheckSlice } from './exerciseSlices/check';
import { createCodeSlice } from './exerciseSlices/code';
import { createFailingSlice } from './exerciseSlices/failing';
import type { CodeStorage, ExerciseSliceDeps, ExerciseState } from './exerciseSlices/state';

/**
 * The Exercises tab's store: one zustand store made of slices (src/store/exerciseSlices/) — which
 * exercise is open, the student's code for each (kept in the browser, so a reload loses nothing), the
 * last Check's report, and the failing ordering opened from it. The tools worker of the tab's own
 * (QuickJS loads there) grades and replays; the page computes nothing itself.
 */

export {
  CHECK_BUDGET_MS,
  CODE_CHARS_MAX,
  codeKey,
  SELECTED_KEY,
  type CodeStorage,
  type ExerciseListing,
  type ExerciseRun,
  type ExerciseState,
  type OpenedOrdering,
} from './exerciseSlices/state';
export { readStudentFile } from './exerciseSlices/code';

/** The store's core: zustand's vanilla store (no React), over the tab's tools worker and code storage. */
export function createExerciseStoreCore(client: ToolsClient, storage: CodeStorage): StoreApi<ExerciseState> {
  const deps: ExerciseSliceDeps = { client, storage };
  return createStore<ExerciseState>()((...args) => ({
    ...createCatalogueSlice(deps)(...args),
    ...createCodeSlice(deps)(...args),
    ...createCheckSlice(deps)(...args),
    ...createFailingSlice(deps)(...args),
  }));
}

/** A React hook over the vanilla store, with the store's own methods (getState, setState, subscribe) on it. */
export type ExerciseStore = StoreApi<ExerciseState> & (<T>(selector: (state: ExerciseState) => T) => T);

/** The store as the page uses it: a hook over the vanilla core. */
export function createExerciseStore(client: ToolsClient, storage: CodeStorage): ExerciseStore {
  const api = createExerciseStoreCore(client, storage);
  const useExercises = <T>(selector: (state: ExerciseState) => T): T => useStore(api, selector);
  return Object.assign(useExercises, api);
}
