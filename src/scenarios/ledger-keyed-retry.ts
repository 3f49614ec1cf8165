import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-2, LG-3: same key, same arguments → the stored result, nothing runs again. */
export const ledgerKeyedRetry: LedgerScenario = {
  id: 'ledger-keyed-retry',
  kind: 'ledger',
  title: 'Ledger — the same key and arguments return the stored result',
  topic: 'Retries and idempotency',
  summary:
    'The same lost response, but the call carries idempotencyKey "checkout-7". The first request stores the key, a ' +
    'SHA-256 fingerprint of the operation and its arguments, and the result, all in one transaction. The retry under ' +
    'a new JSON-RPC id finds the key with the same fingerprint and gets the stored result back: one charge.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-2', 'LG-3', 'LG-4', 'RT-1'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, sendKey: true, loseFirstResponse: true },
  expected: { executions: 1, rejected: 0, replayed: 1 },
};
