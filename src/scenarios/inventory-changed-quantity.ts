import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-P3: a retry with a changed quantity fails and makes no second reservation. */
export const inventoryChangedQuantity: LedgerScenario = {
  id: 'inventory-changed-quantity',
  kind: 'ledger',
  title: 'Practice — a changed quantity under the same key is refused',
  topic: 'Practice lab: reserve_inventory',
  summary:
    'The retry asks for 3 units under the key first used for 2. The fingerprint differs, the request is refused with IDEMPOTENCY_KEY_REUSED, and stock stays reserved once.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-P3'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, operation: 'reserve_inventory', loseFirstResponse: true, retryArguments: 'changed' },
  expected: { executions: 1, rejected: 1, replayed: 0 },
};
