import type { BoundRunStore } from '../../store/runStore';
import { TASK_SCENARIOS, type PanelsState, type TaskScenario } from '../../store/panelsStore';
import type { StoreApi } from 'zustand';
import { LEDGER_TAB_SCENARIO, tabFamily } from './tabScenario';

/** Scenario families whose views live on tabs of their own (not the workbench's Race tab). */
const OWN_TABS = ['tasks', 'buffer', 'backoff', 'proxy'] as const;

/**
 * The top bar follows the tab: opening a tab whose view belongs to other scenarios selects one of
 * them (Tasks: the tab's task scenario; Ledger: a ledger race; Buffer, Backoff, Proxy & reconnect:
 * theirs), and on Tasks the menu and the tab's Task scenario choice stay one choice. Back on Race
 * from such a tab, the scenario the Race tab showed before comes back. Starts once the store has
 * applied the page's link (a link's tab wins over its scenario); returns the function that stops it.
 */
export function startTabFollow(lab: BoundRunStore, panels: StoreApi<PanelsState>): () => void {
  /** The scenario the Race tab last showed (what it returns to). */
  let raceScenario: string | null = null;

  /** `tabChanged`: the tab was just opened (not a scenario picked on it). */
  const follow = (tabChanged: boolean) => {
    const state = lab.getState();
    if (!state.ready || state.scenarios.length === 0) return;
    const { tab, taskScenario } = panels.getState();
    if (tab === 'race') {
      // Race runs any scenario the menu picks there; opened from an own-scenario tab, it returns to its own.
      const ownFamily = OWN_TABS.some((own) => tabFamily(own, state.scenarios)?.includes(state.spec.scenario) === true);
      if (tabChanged && ownFamily && raceScenario !== null && raceScenario !== state.spec.scenario)
        state.selectScenario(raceScenario);
      else raceScenario = state.spec.scenario;
      return;
    }
    const family = tabFamily(tab, state.scenarios);
    if (family === null || family.length === 0) return;
    if (family.includes(state.spec.scenario)) {
      // The menu picked another task scenario: the tab shows it.
      if (tab === 'tasks' && state.spec.scenario !== taskScenario)
        panels.getState().setTaskScenario(state.spec.scenario as TaskScenario);
      return;
    }
    const pick =
      tab === 'tasks'
        ? taskScenario
        : tab === 'ledger' && family.includes(LEDGER_TAB_SCENARIO)
          ? LEDGER_TAB_SCENARIO
          : family[0];
    if (pick !== undefined) state.selectScenario(pick);
  };

  // The tab's own choice (Task scenario) moved: the top bar names it.
  let lastTask = panels.getState().taskScenario;
  const onPanels = () => {
    const { tab, taskScenario } = panels.getState();
    const state = lab.getState();
    if (
      tab === 'tasks' &&
      taskScenario !== lastTask &&
      state.ready &&
      (TASK_SCENARIOS as readonly string[]).includes(taskScenario) &&
      state.spec.scenario !== taskScenario
    ) {
      lastTask = taskScenario;
      state.selectScenario(taskScenario);
      return;
    }
    lastTask = taskScenario;
    follow(true);
  };

  const stopLab = lab.subscribe((state, previous) => {
    if (state.ready !== previous.ready || state.spec.scenario !== previous.spec.scenario)
      follow(state.ready !== previous.ready);
  });
  const stopPanels = panels.subscribe((state, previous) => {
    if (state.tab !== previous.tab || state.taskScenario !== previous.taskScenario) onPanels();
  });
  follow(true);
  return () => {
    stopLab();
    stopPanels();
  };
}
