import type { StoreApi } from 'zustand';
import type { RunState } from './run/state';
import type { PanelsState } from './panelsStore';

/**
 * Compare opens on the scenario the Scenario menu shows: each scenario the menu picks (and the first,
 * once the lab is ready) goes to the panels store, whose Compare runs follow it until runs are set
 * by hand, an example, a link or a recording. Returns the function that stops it.
 */
export function startCompareFollow(lab: StoreApi<RunState>, panels: StoreApi<PanelsState>): () => void {
  const follow = (state: RunState) => {
    if (state.ready && state.spec.scenario !== '') panels.getState().followScenario(state.spec.scenario);
  };
  const stop = lab.subscribe((state, previous) => {
    if (state.ready !== previous.ready || state.spec.scenario !== previous.spec.scenario) follow(state);
  });
  follow(lab.getState());
  return stop;
}
