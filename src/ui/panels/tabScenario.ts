import type { ScenarioInfo } from '../../store/runStore';
import { TASK_SCENARIOS, TABS, type TabId } from '../../store/panelsStore';

/**
 * The tabs whose view runs its own scenarios (the tools worker computes them, on their own settings):
 * the top bar follows such a tab (it selects one of its scenarios and its menu offers only those), so
 * the page never shows one scenario under another's name. Transport, Seed, Implementation, Run and
 * Predict drive the Race and Ledger workbench, not these views: there they are off, with this reason.
 */
export const TAB_OWN_SCENARIOS: Readonly<Partial<Record<TabId, string>>> = {
  tasks: 'the task scenario in the menu (or its Task scenario choice)',
  buffer: 'buffer-overload (a proxy buffering a burst of progress)',
  backoff: 'herd (many clients reconnecting after one drop)',
  proxy: 'the proxy and reconnect scenarios (proxy-buffering, reconnect-listen)',
};

/** The id of the top bar's note that says why a control does not apply on this tab. */
export const TAB_NOTE_ID = 'lab-tab-scenario-note';

/** Why the top bar's run controls do not apply on `tab`, or null where they do. */
export function notApplyingReason(tab: TabId): string | null {
  const own = TAB_OWN_SCENARIOS[tab];
  const label = TABS.find((t) => t.id === tab)?.label ?? tab;
  return own === undefined
    ? null
    : `The ${label} tab runs ${own} on its own settings, shown on the tab; Transport, Seed, Implementation, Run and Predict apply on the Race and Ledger tabs.`;
}

/** The Ledger tab shows a ledger scenario: opened over another kind, it picks this one. */
export const LEDGER_TAB_SCENARIO = 'ledger-race-keyed';

/** The scenarios a tab's view belongs to (the menu offers only these there); null: every scenario (Race, and tabs that show none). */
export function tabFamily(tab: TabId, scenarios: readonly ScenarioInfo[]): readonly string[] | null {
  switch (tab) {
    case 'ledger':
      return scenarios.filter((scenario) => scenario.kind === 'ledger').map((scenario) => scenario.id);
    case 'tasks':
      return TASK_SCENARIOS;
    case 'buffer':
      return ['buffer-overload'];
    case 'backoff':
      return ['herd'];
    case 'proxy':
      return ['proxy-buffering', 'reconnect-listen'];
    case 'race':
    case 'verification':
    case 'reviewer':
    case 'compare':
    case 'exercises':
      return null;
    default: {
      // Every tab is named above: a new tab fails to compile here until it says what it shows.
      const unnamed: never = tab;
      return unnamed;
    }
  }
}
