import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-P1: the key binds SKU, quantity, tenant and operation name — the same key for another tenant is refused. */
export const inventoryKeyBinding: LedgerScenario = {
  id: 'inventory-key-binding',
  kind: 'ledger',
  title: 'Practice — the key binds SKU, quantity, tenant and operation',
  topic: 'Practice lab: reserve_inventory',
  summary:
    'reserve_inventory fingerprints exactly what the key stands for: the operation name, the SKU, the quantity and ' +
    'the tenant. A retry that reuses key "cart-9-reserve" for another tenant is a different intent, so it is refused ' +
    'and nothing is reserved for tenant-b.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-P1', 'LG-3'],
  defaultTransport: 'http',
  settings: {
    ...ledgerDefaults,
    operation: 'reserve_inventory',
    loseFirstResponse: true,
    retryArguments: 'other-tenant',
  },
  expected: { executions: 1, rejected: 1, replayed: 0 },
};
