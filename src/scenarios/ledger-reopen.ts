import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-7, VF-8: a committed record survives closing and reopening the ledger file. */
export const ledgerReopen: LedgerScenario = {
  id: 'ledger-reopen',
  kind: 'ledger',
  title: 'Ledger — the committed record survives a close and reopen',
  topic: 'Retries and idempotency',
  summary:
    'The charge commits and its response is lost. Before the retry arrives the server saves the ledger file, closes ' +
    'every connection and reopens it from the saved bytes, as a restart would. The retry with the same key finds the ' +
    'committed record and gets the stored result, rebuilt from its JSON.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-7', 'VF-8', 'LG-8'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, sendKey: true, loseFirstResponse: true, reopenBeforeRetry: true },
  expected: { executions: 1, rejected: 0, replayed: 1 },
};
