import { useEffect } from 'react';
import { ROUND_SCENARIOS, type RaceOnScreen } from '../predict';
import { usePredictStore } from '../../store/predictStore';
import type { Transcript } from '../../engine';
import { forwardAtRacePoint } from './predictGate';
import type { PredictPhase } from './predictPhase';
import { OWNS_KEYS, TEXT_FIELD } from './ownsKeys';

/**
 * The round follows the card: the request for a guess goes away from the race point, and past it a
 * guess counts in the round (whichever way the replay got there).
 */
export function usePredictRound(
  phase: PredictPhase,
  race: RaceOnScreen | null,
  transcript: Transcript | null,
  guess: string | null,
): void {
  const nudged = usePredictStore((s) => s.nudged);

  // The request for a guess belongs to the race point: away from it, it goes.
  useEffect(() => {
    if (phase !== 'asking' && nudged) usePredictStore.getState().setNudged(false);
  }, [phase, nudged]);

  // Past the race point with a guess: the round counts it (whichever way the replay got there).
  useEffect(() => {
    if (phase !== 'revealed' || race === null || transcript === null || guess === null) return;
    if ((ROUND_SCENARIOS as readonly string[]).includes(transcript.scenario))
      usePredictStore.getState().score(transcript.scenario, { guess, answer: race.location.answer });
  }, [phase, race, transcript, guess]);
}

/** At the race point the room answers by number; → or Space reveals (ahead of the stepping keys). */
export function usePredictKeys(
  phase: PredictPhase,
  race: RaceOnScreen | null,
  transcript: Transcript | null,
  key: string,
  setGuess: (key: string, value: string) => void,
): void {
  useEffect(() => {
    if (phase !== 'asking' || race === null || transcript === null) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('dialog[open]') != null) return;
      const inField = target?.closest(OWNS_KEYS) != null;
      const answer = race.answers[Number(event.key) - 1];
      if (
        answer !== undefined &&
        !(inField && target?.matches('input[type="text"], input[type="number"], textarea') === true)
      ) {
        event.preventDefault();
        setGuess(key, answer.value);
        return;
      }
      if (target?.closest(TEXT_FIELD) != null) return;
      // Every key that moves forward (→, End, Space and "." unless they press a focused control) reveals
      // after a guess, and before one stays here and asks for it: no key shows the answer by accident.
      const presses =
        (event.key === ' ' || event.key === '.') && (inField || target?.closest('button, a[href], summary') != null);
      if (event.key === 'ArrowRight' || event.key === 'End' || ((event.key === ' ' || event.key === '.') && !presses)) {
        event.preventDefault();
        event.stopImmediatePropagation();
        forwardAtRacePoint();
      }
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [phase, race, transcript, key, setGuess]);
}
