import { fillRaceText, locateRace, type Transcript } from '../engine';
import { findScenario } from '../scenarios/index';

/**
 * Predict mode's race in one run, as the page shows it: the question its scenario declares with the
 * run's settings filled in, the contenders, and where the race stands in this transcript (engine
 * predict.ts). Null when the scenario declares no race or the run has none.
 */
export interface RaceView {
  question: string;
  contenders: [string, string];
  answers: { value: string; label: string; why: string; winner: 0 | 1 | null }[];
  /** Steps count events shown (step k shows events 0…k-1); see engine RaceLocation. */
  location: { point: number; decidingIndex: number; answer: string; contenderIndexes: [number, number] };
}

export function raceView(transcript: Transcript): RaceView | null {
  const question = findScenario(transcript.scenario).race;
  if (question === undefined) return null;
  const location = locateRace(question, transcript.events);
  if (location === null) return null;
  const settings = transcript.settings as Readonly<Record<string, unknown>>;
  return {
    question: fillRaceText(question.question, settings),
    contenders: [question.contenders[0].label, question.contenders[1].label],
    answers: question.answers.map((answer) => ({
      value: answer.value,
      label: fillRaceText(answer.label, settings),
      why: fillRaceText(answer.why, settings),
      winner: answer.winner ?? null,
    })),
    location: { ...location, contenderIndexes: [location.contenderIndexes[0], location.contenderIndexes[1]] },
  };
}
