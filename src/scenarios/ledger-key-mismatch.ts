import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-3: the same key with other arguments is refused (422-like) and nothing executes. */
export const ledgerKeyMismatch: LedgerScenario = {
  id: 'ledger-key-mismatch',
  kind: 'ledger',
  title: 'Ledger — a key reused with other arguments is refused',
  topic: 'Retries and idempotency',
  summary:
    'The retry reuses key "checkout-7" but asks for 1500 cents instead of 1200. The stored fingerprint does not match, ' +
    'so the server refuses with IDEMPOTENCY_KEY_REUSED (like HTTP 422 in the IETF Idempotency-Key draft) as a tool ' +
    'error result, and nothing executes. One key must never alias two intents.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-2', 'LG-3'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, sendKey: true, loseFirstResponse: true, retryArguments: 'changed' },
  expected: { executions: 1, rejected: 1, replayed: 0 },
};
