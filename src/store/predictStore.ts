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
export function roundScore(round: Readonly<Record<string, RoundAnswer>>, scenarios: readonly string[]): { right: number; answered: number; total: number } {
  const answered = scenarios.filter((id) => round[id] !== undefined);
  const right = answered.filter((id) => round[id]?.guess === round[id]?.answer).length;
  return { right, answered: answered.length, total: scenarios.length };
}
