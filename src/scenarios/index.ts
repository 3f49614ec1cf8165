import { LabError } from '../engine/errors';
import { runScenario, type RunOptions, type Scenario } from '../engine/scenario';
import type { Transcript } from '../engine/transcript';
import { scenarioA } from './A';
import { scenarioB } from './B';
import { scenarioC } from './C';
import { scenarioD } from './D';

/** Every scenario, in the order the picker and `lab list` show them. */
export const scenarios: readonly Scenario[] = [scenarioA, scenarioB, scenarioC, scenarioD];

export function findScenario(id: string): Scenario {
  const scenario = scenarios.find((candidate) => candidate.id === id);
  if (scenario === undefined) throw new LabError('LAB001', `"${id}" is not a scenario; known: ${scenarios.map((s) => s.id).join(', ')}`);
  return scenario;
}

export function runScenarioById(id: string, options: RunOptions = {}): Transcript {
  return runScenario(findScenario(id), options);
}
