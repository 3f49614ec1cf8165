import type { StoreApi } from 'zustand/vanilla';
import { DEFAULT_SPEED, eventCount, type LabState, type PlaybackSlice, type Slice, type Ticker } from './state';

/**
 * Where the replay stands. Stepping never asks the worker: the view at step k is the transcript's
 * first k events, so a step back or a jump on the time scrubber shows exactly what the run recorded.
 * Whether playback runs is `playing` alone; the ticker follows it (followPlayback).
 */
export const createPlaybackSlice: Slice<PlaybackSlice> = () => (set, get) => {
  const clamp = (step: number) => Math.max(0, Math.min(eventCount(get()), Math.trunc(step)));
  /** Moves the replay by hand: playback stops first, as a presenter expects. */
  const moveTo = (step: number, scrubMs: number | null = null) => set({ step: clamp(step), playing: false, scrubMs });
  return {
    step: 0,
    playing: false,
    speed: DEFAULT_SPEED,
    scrubMs: null,
    stepForward: () => moveTo(get().step + 1),
    stepBack: () => moveTo(get().step - 1),
    setStep: (step) => moveTo(step),
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
      const total = eventCount(get());
      if (total === 0 || get().status !== 'done') return;
      set({ playing: true, scrubMs: null, ...(get().step >= total ? { step: 0 } : {}) });
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

/**
 * Runs the ticker while the store says `playing`, at `speed` steps per second: one step a tick, and
 * a pause at the end of the run. Whatever stops playback (a step by hand, a new run, the end) stops
 * the ticker with it. Returns the function that stops following.
 */
export function followPlayback(store: StoreApi<LabState>, ticker: Ticker): () => void {
  /** The running interval's off switch: the ticker's, not page state (`playing` and `speed` are). */
  let stopTicking: (() => void) | null = null;
  const tick = () => {
    const state = store.getState();
    const total = eventCount(state);
    const next = Math.min(state.step + 1, total);
    store.setState({ step: next, scrubMs: null, ...(next >= total ? { playing: false } : {}) });
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
