import { selectedInfo, type RunState, type ScenarioInfo } from '../../store/runStore';

export const selectedScenario = (state: RunState): ScenarioInfo | undefined => selectedInfo(state);
export const selectedKind = (state: RunState) => selectedScenario(state)?.kind;

/**
 * Whether the Explore panel has more to show than its button: an exploration under way, its result,
 * or why it ended without one. The panel then takes a row under the diagram, where its results read
 * at a line length and its buttons stay in view (the side column is a few lines tall at 1280×720).
 */
export const exploreHasResults = (state: RunState): boolean =>
  state.exploreStatus === 'running' ||
  state.exploration !== null ||
  (state.exploreStatus === 'error' && state.exploreError !== null);

/** LabError messages already start with their code; an alert shows the code once, in bold. */
export function withoutCode(code: string, message: string): string {
  return message.startsWith(`${code} `) ? message.slice(code.length + 1) : message;
}
