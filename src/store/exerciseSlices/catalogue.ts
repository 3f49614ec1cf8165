import {
  codeKey,
  listing,
  message,
  SELECTED_KEY,
  type CatalogueSlice,
  type ExerciseListing,
  type ExerciseSlice,
} from './state';

/** The exercises the worker lists, and which one is open (remembered between visits). */
export const createCatalogueSlice: ExerciseSlice<CatalogueSlice> =
  ({ client, storage }) =>
  (set, get) => ({
    exercises: { status: 'idle' },
    selected: null,

    async load() {
      if (get().exercises.status === 'loading' || get().exercises.status === 'done') return;
      set({ exercises: { status: 'loading', value: null } });
      try {
        const answer = await client.call({ type: 'exercises' });
        set({ exercises: { status: 'done', value: answer.exercises } });
      } catch (error) {
        set({ exercises: { status: 'error', message: message(error), value: null } });
        return;
      }
      const remembered = await storage.load(SELECTED_KEY).catch(() => null);
      const first =
        listing(get(), remembered)?.id ?? (get().exercises as { value: ExerciseListing[] }).value[0]?.id ?? null;
      if (first !== null && get().selected === null) await get().select(first);
    },

    async select(id) {
      const exercise = listing(get(), id);
      if (exercise === null) return;
      // A Check of the exercise left behind is of no use any more: its worker is ended, not waited for.
      if (get().check.status === 'loading') client.stop?.();
      set({
        checkRequest: get().checkRequest + 1,
        replayRequest: get().replayRequest + 1,
        selected: id,
        check: { status: 'idle' },
        checkedCode: null,
        progress: null,
        opened: null,
        uploadError: null,
        beforeReset: null,
      });
      storage.save(SELECTED_KEY, id).catch(() => undefined);
      if (get().code[id] !== undefined) return;
      const stored = await storage.load(codeKey(id)).catch(() => null);
      // Typed while storage answered: what was typed stays.
      if (get().code[id] !== undefined) return;
      set({ code: { ...get().code, [id]: stored ?? exercise.starter } });
    },
  });
