import type { Transcript } from '../../engine';
import { useRunStore, type RunState, type RunStore, type StepGate } from '../../store/runStore';
import { usePanelsStore } from '../../store/panels';
import { usePredictStore } from '../../store/predictStore';
import { revealStep, type RaceOnScreen } from '../predict';

/** A run's identity for its guess: the same scenario on another transport, seed or ordering is another race. */
export function runKey(transcript: Transcript): string {
  return [
    transcript.scenario,
    transcript.transport,
    transcript.seed,
    transcript.implementation ?? 'model',
    transcript.schedule ?? '',
    transcript.faults ?? '',
    JSON.stringify(transcript.settings),
  ].join('/');
}

/**
 * Jumps to the deciding event: its step, paused, the event picked (the diagram and the inspector show it).
 * The store is the page's; a test passes its own headless one.
 */
export function reveal(race: RaceOnScreen, transcript: Transcript, store: RunStore = useRunStore): void {
  const lab = store.getState();
  lab.pause();
  // Reveal is the one move past the race point that needs no guess.
  lab.setStep(revealStep(race), { pastGate: true });
  const deciding = transcript.events[race.location.decidingIndex];
  if (deciding !== undefined) lab.selectEvent(deciding.seq);
  usePredictStore.getState().setNudged(false);
}

/**
 * Predict's gate on the replay, which every move forward goes through (a step, → and End, the time
 * slider, each tick of Play): while Predict is on, playback stops on reaching the race point, and no
 * move passes it before the room has made its guess; the card then asks for it. After a guess every
 * move goes where it is sent. Reveal alone passes without a guess (it skips the gate).
 */
export const predictGate: StepGate = (lab: RunState, from: number, to: number) => {
  const open = { step: to, hold: false };
  const { race, transcript } = lab;
  if (!usePanelsStore.getState().predict || race === null || transcript === null) return open;
  const point = race.location.point;
  // Reaching the race point: Play stops there, so the room answers before it sees.
  if (from < point && to === point) return { step: point, hold: true };
  if (from > point || to <= point) return open;
  if (usePredictStore.getState().guesses[runKey(transcript)] !== undefined) return open;
  usePredictStore.getState().setNudged(true);
  return { step: point, hold: true };
};

/**
 * A move forward (→, Space, End, Step forward, Play) at the race point, while Predict asks. With a
 * guess it reveals: the replay jumps to the deciding event. Without one it is a step forward, which the
 * gate holds at the race point while the card asks for the guess (or Reveal). Returns whether the move
 * was taken here (true: the caller does nothing more); false away from a race point.
 */
export function forwardAtRacePoint(): boolean {
  if (!usePanelsStore.getState().predict) return false;
  const lab = useRunStore.getState();
  const { race, transcript } = lab;
  if (race === null || transcript === null || lab.step !== race.location.point) return false;
  if (usePredictStore.getState().guesses[runKey(transcript)] === undefined) lab.stepForward();
  else reveal(race, transcript);
  return true;
}
