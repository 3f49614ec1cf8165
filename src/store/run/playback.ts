import type { StoreApi } from 'zustand/vanilla';
import { DEFAULT_SPEED, eventCount, type RunState, type PlaybackSlice, type Slice, type Ticker } from './state';

/**
 * Where the replay stands. Stepping never asks the worker: the view at step k is the transcript's
 * first k events, so a step back or a jump on the time scrubber shows exactly what the run recorded.
 * Whether playback runs is `playing` alone; the ticker follows it (followPlayback).
 */
export const createPlaybackSlice: Slice<PlaybackSlice> = () => (set, get) => {
  const clamp = (step: number) => Math.max(0, Math.min(eventCount(get()), Math.trunc(step)));
  /**
   * Moves the replay by hand: playback stops first, as a presenter expects. A move forward goes only
   * as far as the gate lets it; where it holds, the time scrubbed to no longer applies.
   */
  const moveTo = (step: number, scrubMs: number | null = null, pastGate = false) => {
    const to = clamp(step);
    const allowed = pastGate ? to : gated(get(), to);
    set({ step: allowed, playing: false, scrubMs: allowed === to ? scrubMs : null });
  };
  return {
    step: 0,
    playing: false,
    speed: DEFAULT_SPEED,
    scrubMs: null,
    stepGate: null,
    setStepGate: (stepGate) => set({ stepGate }),
    stepForward: () => moveTo(get().step + 1),
    stepBack: () => moveTo(get().step - 1),
    setStep: (step, options) => moveTo(step, null, options?.pastGate === true),
    seekTime(atMs) {
      const events = get().transcript?.events ?? [];
      // Events are in time order: show every one at or before atMs.
      let shown = 0;
      while (shown < events.length && (events[shown]?.atMs ?? Infinity) <= atMs) shown += 1;
      moveTo(shown, atMs);
    },
    rewind: () => moveTo(0),
    toEnd: () => moveTo(eventCount(get())),
    play() {
      const state = get();
      const total = eventCount(state);
      if (total === 0 || state.status !== 'done') return;
      const from = state.step >= total ? 0 : state.step;
      // Held here already (Predict asking for its guess): Play does not start, the gate says why.
      if (from < total && gate(state, from, from + 1).step === from) return;
      set({ playing: true, scrubMs: null, step: from });
    },
    pause: () => set({ playing: false }),
    togglePlay() {
      if (get().playing) get().pause();
      else get().play();
    },
    setSpeed(speed) {
      if (!Number.isFinite(speed) || speed <= 0) return;
      set({ speed });
    },
  };
};

/** The gate's answer for a move from `from` to `to`: a move back, or no gate, is never held. */
function gate(state: RunState, from: number, to: number): { step: number; hold: boolean } {
  if (to <= from || state.stepGate === null) return { step: to, hold: false };
  const answer = state.stepGate(state, from, to);
  if (answer.step < from || answer.step > to)
    throw new Error(
      `A step gate keeps a move between where it starts and where it was sent (${from} → ${to}, held at ${answer.step}).`,
    );
  return answer;
}

/** Where a move by hand to `to` lands. */
const gated = (state: RunState, to: number): number => gate(state, state.step, to).step;

/**
 * Runs the ticker while the store says `playing`, at `speed` steps per second: one step a tick, and
 * a pause at the end of the run. Whatever stops playback (a step by hand, a new run, the end) stops
 * the ticker with it. Returns the function that stops following.
 */
export function followPlayback(store: StoreApi<RunState>, ticker: Ticker): () => void {
  /** The running interval's off switch: the ticker's, not page state (`playing` and `speed` are). */
  let stopTicking: (() => void) | null = null;
  // Each tick asks the gate in the same update that moves the step: no render or effect can come in
  // between, so no speed runs past a hold.
  const tick = () => {
    const state = store.getState();
    const total = eventCount(state);
    const { step: next, hold } = gate(state, state.step, Math.min(state.step + 1, total));
    store.setState({ step: next, scrubMs: null, ...(next >= total || hold ? { playing: false } : {}) });
  };
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.playing === previous.playing && state.speed === previous.speed) return;
    stopTicking?.();
    stopTicking = state.playing ? ticker.every(1000 / state.speed, tick) : null;
  });
  return () => {
    unsubscribe();
    stopTicking?.();
  };
}
