import { create } from 'zustand';

/**
 * Predict mode's answers (a slice of its own beside the panels' `predict` switch): the guess made
 * for each run on screen, and the round's score over the request races A–D, which the instructor
 * resets between groups. The race itself (where it stops, what decides it) is computed from the
 * transcript (ui/predict.ts); this store only remembers what the room said.
 */
export interface RoundAnswer {
  guess: string;
  answer: string;
}

export interface PredictState {
  /** The first-visit card: the page was opened without a link and the card was not closed yet. */
  introOpen: boolean;
  setIntroOpen(open: boolean): void;
  /** A move forward at the race point found no guess: the card asks for one (cleared by a guess or a reveal). */
  nudged: boolean;
  setNudged(nudged: boolean): void;
  /** The guess for each run, by its key (see runKey). */
  guesses: Record<string, string>;
  /** The round's answers, by scenario id: the latest reveal of each of A–D. */
  round: Record<string, RoundAnswer>;
  guess(runKey: string, value: string): void;
  /** A reveal: counts towards the round when the scenario is one of the round's and a guess was made. */
  score(scenario: string, answer: RoundAnswer): void;
  resetRound(): void;
}

/**
 * Where the round is kept between visits (the page's IndexedDB; a test passes its own). The round
 * survives a reload, so an instructor who reloads mid-round keeps the room's score.
 */
export interface RoundStorage {
  load(): Promise<unknown>;
  save(round: Readonly<Record<string, RoundAnswer>>): Promise<void>;
}

/** Guesses kept at most (a long session of runs never grows the store without bound). */
export const GUESSES_MAX = 200;

export const usePredictStore = create<PredictState>()((set, get) => ({
  introOpen: false,
  setIntroOpen(introOpen) {
    set({ introOpen });
  },
  nudged: false,
  setNudged(nudged) {
    if (get().nudged !== nudged) set({ nudged });
  },
  guesses: {},
  round: {},
  guess(runKey, value) {
    if (get().nudged) set({ nudged: false });
    const kept = Object.entries(get().guesses).filter(([key]) => key !== runKey);
    set({ guesses: Object.fromEntries([...kept.slice(-(GUESSES_MAX - 1)), [runKey, value]]) });
  },
  score(scenario, answer) {
    set({ round: { ...get().round, [scenario]: answer } });
  },
  resetRound() {
    set({ round: {} });
  },
}));

/** The right answers and the answered count of a round. */
export function roundScore(
  round: Readonly<Record<string, RoundAnswer>>,
  scenarios: readonly string[],
): { right: number; answered: number; total: number } {
  const answered = scenarios.filter((id) => round[id] !== undefined);
  const right = answered.filter((id) => round[id]?.guess === round[id]?.answer).length;
  return { right, answered: answered.length, total: scenarios.length };
}

/** A kept round as read back: only well-formed answers (anything else in storage is left out). */
export function parseRound(value: unknown): Record<string, RoundAnswer> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const round: Record<string, RoundAnswer> = {};
  for (const [scenario, entry] of Object.entries(value as Record<string, unknown>)) {
    if (entry === null || typeof entry !== 'object') continue;
    const { guess, answer } = entry as Record<string, unknown>;
    if (typeof guess === 'string' && typeof answer === 'string') round[scenario] = { guess, answer };
  }
  return round;
}

/**
 * Keeps the round in `storage`: reads the kept one back (answers given since, in this visit, win over
 * it) and saves every change after that. Returns the unsubscribe.
 */
export async function keepRound(
  storage: RoundStorage,
  store: typeof usePredictStore = usePredictStore,
): Promise<() => void> {
  let kept: Record<string, RoundAnswer> = {};
  try {
    kept = parseRound(await storage.load());
  } catch {
    // Storage unavailable (a private window may refuse IndexedDB): the round lasts for this visit only.
  }
  store.setState({ round: { ...kept, ...store.getState().round } });
  const save = (round: Readonly<Record<string, RoundAnswer>>) => void storage.save(round).catch(() => undefined);
  save(store.getState().round);
  return store.subscribe((state, previous) => {
    if (state.round !== previous.round) save(state.round);
  });
}
