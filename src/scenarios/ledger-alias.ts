import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-6, VF-9: mutating a returned result cannot change what a later replay returns. */
export const ledgerAlias: LedgerScenario = {
  id: 'ledger-alias',
  kind: 'ledger',
  title: 'Ledger — mutating a returned result leaves the stored one intact',
  topic: 'Retries and idempotency',
  summary:
    'After the charge, the server code that called the ledger changes the result object it got back (it zeroes the ' +
    'amount while redacting a log line). The client then replays the call with the same key. Because every value ' +
    'the ledger hands out is rebuilt from the stored JSON, the replay returns the committed result unchanged. Set ' +
    'resultCopies=shared to see the failure mode: a cached object shared with callers, corrupted for every replay.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-6', 'VF-9'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, sendKey: true, replayAfterResponse: true, callerMutatesResult: true },
  expected: { executions: 1, rejected: 0, replayed: 1, aliasIntact: true },
};
