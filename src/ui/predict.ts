import type { RunState, RaceView } from '../store/runStore';

/**
 * Predict mode's race in the run on screen, as the worker located it (worker/race.ts): the race
 * point, where the replay stops and asks, is the step at which both contenders are on screen; the
 * reveal lands on the deciding event.
 */
export type RaceOnScreen = RaceView;

/** The race point of the run on screen; null: no race. */
export const racePoint = (lab: Pick<RunState, 'race'>): number | null => lab.race?.location.point ?? null;

/** The step the reveal lands on: the deciding event is the last one shown. */
export const revealStep = (race: RaceView): number => race.location.decidingIndex + 1;

/** The scenarios whose Predict answers make up the round's score. */
export const ROUND_SCENARIOS = ['A', 'B', 'C', 'D'] as const;

/** Whether the scenario with this id declares a race (its neutral title says so). */
export const declaresRace = (lab: Pick<RunState, 'scenarios'>, scenarioId: string): boolean =>
  lab.scenarios.find((scenario) => scenario.id === scenarioId)?.neutralTitle !== undefined;
