import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-P8: two ledger connections at a barrier send the same key → one reservation committed. */
export const inventoryRace: LedgerScenario = {
  id: 'inventory-race',
  kind: 'ledger',
  title: 'Practice — two connections, one key: one reservation',
  topic: 'Practice lab: reserve_inventory',
  summary:
    'Two reservation requests with the same key start together on two SQLite connections. One wins the write lock and commits; the other gets SQLITE_BUSY, waits, and returns the committed reservation.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-P8', 'LG-5'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, operation: 'reserve_inventory', race: true },
  expected: { executions: 1, rejected: 0, replayed: 1 },
};
