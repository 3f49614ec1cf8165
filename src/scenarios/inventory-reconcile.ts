import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-P4: an execution that committed but lost its response is reconciled by key. */
export const inventoryReconcile: LedgerScenario = {
  id: 'inventory-reconcile',
  kind: 'ledger',
  title: 'Practice — committed, response lost: reconcile by key',
  topic: 'Practice lab: reserve_inventory',
  summary:
    'Instead of retrying blindly, the client first reads the ledger with get_mutation_by_key. The reservation is there, so the client has its answer and sends no second reservation at all.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-P4'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, operation: 'reserve_inventory', loseFirstResponse: true, onLostResponse: 'reconcile' },
  expected: { executions: 1, rejected: 0, replayed: 0 },
};
