import { createStore, get, set } from 'idb-keyval';
import { keepRound, type RoundStorage } from './predictStore';

/**
 * The Predict round kept in the page's IndexedDB (a database of its own, beside the exercises' and
 * the stored ledger's), loaded with Predict's card: the score survives a reload.
 */
function browserRoundStorage(): RoundStorage {
  const store = createStore('mcp-reliability-lab-predict', 'round');
  return {
    load: () => get('round', store),
    save: (round) => set('round', round, store),
  };
}

let started = false;

/** Starts keeping the round (once per page). */
export function keepRoundInBrowser(): void {
  if (started || typeof indexedDB === 'undefined') return;
  started = true;
  void keepRound(browserRoundStorage());
}
