import { useRunStore } from '../../store/runStore';
import { usePanelsStore } from '../../store/panels';
import { declaresRace, type RaceOnScreen } from '../predict';

/**
 * Where Predict stands in the run on screen. off: Predict is off; none: the run has no race to
 * predict; before: the replay has not reached the race point; asking: it stands there; revealed:
 * it passed it (the answer may show).
 */
export type PredictPhase = 'off' | 'none' | 'before' | 'asking' | 'revealed';

export function usePredictRace(): { race: RaceOnScreen | null; phase: PredictPhase } {
  const predict = usePanelsStore((s) => s.predict);
  const race = useRunStore((s) => s.race);
  const step = useRunStore((s) => s.step);
  if (!predict) return { race, phase: 'off' };
  if (race === null) return { race, phase: 'none' };
  const point = race.location.point;
  return { race, phase: step < point ? 'before' : step === point ? 'asking' : 'revealed' };
}

/** Whether predict mode is asking now (the replay stands at the race point). */
export function usePredictAsking(): boolean {
  return usePredictRace().phase === 'asking';
}

/**
 * Whether what a race scenario's page would give away stays hidden: Predict is on, the selected
 * scenario declares a race, and the run on screen has not passed its race point.
 */
export function usePredictHides(): boolean {
  const predict = usePanelsStore((s) => s.predict);
  const declared = useRunStore((s) => declaresRace(s, s.spec.scenario));
  const { phase } = usePredictRace();
  if (!predict || !declared) return false;
  return phase === 'before' || phase === 'asking';
}
