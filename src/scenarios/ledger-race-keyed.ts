import { LEDGER_CHARGES, LEDGER_CONTENDERS } from './racePatterns';
import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-4, LG-5, VF-7: two independent connections race on one key: one execution, one replay. */
export const ledgerRaceKeyed: LedgerScenario = {
  id: 'ledger-race-keyed',
  kind: 'ledger',
  title: 'Ledger — two connections race on one key: one execution',
  topic: 'Retries and idempotency',
  summary:
    'Requests 41 and 42 carry the same key and arguments and start together on two independent SQLite connections. ' +
    'Each runs BEGIN IMMEDIATE; SQLite lets one in and answers the other SQLITE_BUSY. The loser waits on the virtual ' +
    'clock and retries; by then the winner has committed key, effect and result together, so the loser finds the ' +
    'key and returns the stored result (the draft\'s "wait, then return the stored result").' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-4', 'LG-5', 'VF-7'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, sendKey: true, race: true },
  race: {
    neutralTitle: 'Ledger — two connections, one key, one transaction',
    contenders: LEDGER_CONTENDERS,
    question:
      'Requests 41 and 42 carry the same key and reach the server together, each on its own SQLite connection. How many times is the account charged?',
    answers: LEDGER_CHARGES,
    pointAt: 'first',
  },
  expected: { executions: 1, rejected: 0, replayed: 1 },
};
