import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-P9: mutating the first returned reservation object leaves the stored result unchanged. */
export const inventoryAlias: LedgerScenario = {
  id: 'inventory-alias',
  kind: 'ledger',
  title: 'Practice — mutating the returned reservation changes nothing stored',
  topic: 'Practice lab: reserve_inventory',
  summary:
    'The server code zeroes the quantity on the reservation object it got back. A later replay with the same key still returns quantity 2: the ledger rebuilds every value from its stored JSON.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-P9', 'LG-6'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, operation: 'reserve_inventory', replayAfterResponse: true, callerMutatesResult: true },
  expected: { executions: 1, rejected: 0, replayed: 1, aliasIntact: true },
};
