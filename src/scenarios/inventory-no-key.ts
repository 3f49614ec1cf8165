import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-P6: with no key, automatic retry is disabled. */
export const inventoryNoKey: LedgerScenario = {
  id: 'inventory-no-key',
  kind: 'ledger',
  title: 'Practice — no key, no automatic retry',
  topic: 'Practice lab: reserve_inventory',
  summary:
    'The client sends no idempotency key. When the response is lost it does not retry on its own: without a key nothing could stop a second reservation. The operation is unsafe to retry; a person or a reconcile step decides.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-P6', 'RT-1'],
  defaultTransport: 'http',
  settings: {
    ...ledgerDefaults,
    operation: 'reserve_inventory',
    sendKey: false,
    loseFirstResponse: true,
    retryWithoutKey: false,
  },
  expected: { executions: 1, rejected: 0, replayed: 0 },
};
