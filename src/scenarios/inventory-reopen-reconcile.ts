import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-P10: close and reopen the ledger file, then reconcile the reservation by key. */
export const inventoryReopenReconcile: LedgerScenario = {
  id: 'inventory-reopen-reconcile',
  kind: 'ledger',
  title: 'Practice — reopen the ledger file, then reconcile by key',
  topic: 'Practice lab: reserve_inventory',
  summary:
    "The server restarts between the lost response and the client's next move: the ledger file is saved, closed and " +
    'reopened. The client reconciles by key and finds the committed reservation. If the inventory lived in another ' +
    'service, that service would have to accept the same key (or the reservation would go through a transactional ' +
    'outbox); a ledger here cannot make a remote effect atomic.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-P10', 'LG-7', 'LG-8'],
  defaultTransport: 'http',
  settings: {
    ...ledgerDefaults,
    operation: 'reserve_inventory',
    loseFirstResponse: true,
    reopenBeforeRetry: true,
    onLostResponse: 'reconcile',
  },
  expected: { executions: 1, rejected: 0, replayed: 0 },
};
