import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-P7: after a drop, re-read the inventory ledger before deciding what to do next. */
export const inventorySubscriptionDrop: LedgerScenario = {
  id: 'inventory-subscription-drop',
  kind: 'ledger',
  title: 'Practice — after a drop, re-read the inventory before deciding',
  topic: 'Practice lab: reserve_inventory',
  summary:
    'The stream carrying the result drops. The client has no key to look up, so before deciding anything it re-reads the inventory with get_inventory: 2 units are already reserved for the tenant, so it does not reserve again.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-P7', 'RV-3'],
  defaultTransport: 'http',
  settings: {
    ...ledgerDefaults,
    operation: 'reserve_inventory',
    sendKey: false,
    loseFirstResponse: true,
    lostBecause: 'subscription-dropped',
    onLostResponse: 'reconcile',
  },
  expected: { executions: 1, rejected: 0, replayed: 0 },
};
