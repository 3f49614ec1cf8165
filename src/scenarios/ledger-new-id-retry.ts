import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-1, VF-6: a JSON-RPC id is not idempotency; a retry under a new id charges twice. */
export const ledgerNewIdRetry: LedgerScenario = {
  id: 'ledger-new-id-retry',
  kind: 'ledger',
  title: 'Ledger — a new JSON-RPC id alone runs the charge again',
  topic: 'Retries and idempotency',
  summary:
    'The client calls charge_account as request 41 with no idempotency key. The charge commits, but the response is ' +
    'lost when the connection breaks. The client cannot tell whether the charge ran, retries as request 42, and the ' +
    'server, which only sees a new JSON-RPC id, charges the account a second time. A request id names one message, ' +
    'not one business intent.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-1', 'VF-6', 'RT-1'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, sendKey: false, loseFirstResponse: true, retryWithoutKey: true },
  expected: { executions: 2, rejected: 0, replayed: 0 },
};
