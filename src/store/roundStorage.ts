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

/** Starts keeping the round: called once, when Predict's card module first loads. */
export function keepRoundInBrowser(): void {
  if (typeof indexedDB === 'undefined') return;
  void keepRound(browserRoundStorage());
}
