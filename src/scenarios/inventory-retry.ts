import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-P2: a retry with the same key and arguments returns the first reservation. */
export const inventoryRetry: LedgerScenario = {
  id: 'inventory-retry',
  kind: 'ledger',
  title: 'Practice — a keyed retry returns the first reservation',
  topic: 'Practice lab: reserve_inventory',
  summary:
    'The reservation commits, its response is lost, and the client retries with the same key and arguments: it gets reservation res_1 back and no second reservation is made.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-P2'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, operation: 'reserve_inventory', loseFirstResponse: true },
  expected: { executions: 1, rejected: 0, replayed: 1 },
};
