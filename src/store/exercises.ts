import { createStore, get, set } from 'idb-keyval';
import { createExerciseStore, type CodeStorage } from './exerciseStore';
import { toolsClientOnFirstUse } from './panels';

/**
 * The Exercises tab's store, loaded with the tab: a tools worker of its own (a Check's QuickJS and
 * its Stop touch no other tab), and the student's code kept in IndexedDB, a database of its own
 * beside the stored ledger's.
 */
function browserCodeStorage(): CodeStorage {
  const store = createStore('mcp-reliability-lab-exercises', 'code');
  return {
    load: async (key) => {
      const value: unknown = await get(key, store);
      return typeof value === 'string' ? value : null;
    },
    save: (key, value) => set(key, value, store),
  };
}

export const useExerciseStore = createExerciseStore(toolsClientOnFirstUse(), browserCodeStorage());
