import { useLabStore, type Transcript } from '../../store/labStore';
import { usePanelsStore } from '../../store/panels';
import { usePredictStore } from '../../store/predictStore';
import { revealStep, type RaceOnScreen } from '../predict';

/** A run's identity for its guess: the same scenario on another transport, seed or ordering is another race. */
export function runKey(transcript: Transcript): string {
  return [transcript.scenario, transcript.transport, transcript.seed, transcript.implementation ?? 'model', transcript.schedule ?? '', transcript.faults ?? '', JSON.stringify(transcript.settings)].join('/');
}

/** Jumps to the deciding event: its step, paused, the event picked (the diagram and the inspector show it). */
export function reveal(race: RaceOnScreen, transcript: Transcript): void {
  const lab = useLabStore.getState();
  lab.pause();
  lab.setStep(revealStep(race));
  const deciding = transcript.events[race.location.decidingIndex];
  if (deciding !== undefined) lab.selectEvent(deciding.seq);
  usePredictStore.getState().setNudged(false);
}

/**
 * A move forward (→, Space, End, Step forward, Play) at the race point, while Predict asks. With a
 * guess it reveals: the replay jumps to the deciding event. Without one it stays at the race point and
 * the card asks for the guess (or Reveal), so no key or button shows the answer by accident. Returns
 * whether the move was taken here (true: the caller does nothing more); false away from a race point.
 */
export function forwardAtRacePoint(): boolean {
  if (!usePanelsStore.getState().predict) return false;
  const lab = useLabStore.getState();
  const { race, transcript } = lab;
  if (race === null || transcript === null || lab.step !== race.location.point) return false;
  const predict = usePredictStore.getState();
  if (predict.guesses[runKey(transcript)] === undefined) {
    lab.pause();
    predict.setNudged(true);
  } else {
    reveal(race, transcript);
  }
  return true;
}
