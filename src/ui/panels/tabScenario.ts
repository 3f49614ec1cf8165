import type { TabId } from '../../store/panelsStore';

/**
 * The tabs whose view runs its own scenarios (the tools worker computes them), named in the top bar
 * so the page never shows one scenario under another's name. The top bar's Transport, Seed,
 * Implementation, Run and Predict drive the Race and Ledger workbench, not these views.
 */
export const TAB_OWN_SCENARIOS: Readonly<Partial<Record<TabId, string>>> = {
  tasks: 'the task scenario chosen on the tab (Task scenario)',
  buffer: 'buffer-overload (a proxy buffering a burst of progress)',
  backoff: 'herd (many clients reconnecting after one drop)',
  proxy: 'the proxy and reconnect scenarios (proxy-buffering, reconnect-listen)',
};

/** The id of the top bar's note that says why a control does not apply on this tab. */
export const TAB_NOTE_ID = 'lab-tab-scenario-note';

/** Why the top bar's run controls do not apply on `tab`, or null where they do. */
export function notApplyingReason(tab: TabId): string | null {
  const own = TAB_OWN_SCENARIOS[tab];
  return own === undefined ? null : `This tab shows ${own}, not the scenario in the menu; Transport, Seed, Implementation, Run and Predict apply on the Race and Ledger tabs.`;
}

/** The Ledger tab shows a ledger scenario: opened over another kind, it picks this one. */
export const LEDGER_TAB_SCENARIO = 'ledger-race-keyed';
