import { LEDGER_CHARGES_CHECK_THEN_ACT, LEDGER_CONTENDERS } from './racePatterns';
import { ledgerDefaults, KEY_IS_APPLICATION_CONTRACT } from '../engine';
import type { LedgerScenario } from '../engine';

/** LG-4 done wrong: check, act and store as separate steps run the effect twice under the same interleaving. */
export const ledgerRaceUnsafe: LedgerScenario = {
  id: 'ledger-race-unsafe',
  kind: 'ledger',
  title: 'Ledger — check-then-act on two connections charges twice',
  topic: 'Retries and idempotency',
  summary:
    'The same race, but the server checks the key, runs the charge and stores the result as three separate autocommit ' +
    'statements. Both connections look up the key before either stores it, both see it missing, and both charge. The ' +
    'second key insert then fails with a constraint error — after its charge already committed.' +
    ' ' +
    KEY_IS_APPLICATION_CONTRACT,
  requirements: ['LG-4'],
  defaultTransport: 'http',
  settings: { ...ledgerDefaults, sendKey: true, race: true, mode: 'unsafe' },
  race: {
    neutralTitle: 'Ledger — two connections, one key, separate statements',
    contenders: LEDGER_CONTENDERS,
    question:
      'Requests 41 and 42 carry the same key and reach the server together, each on its own SQLite connection. How many times is the account charged?',
    answers: LEDGER_CHARGES_CHECK_THEN_ACT,
    pointAt: 'first',
  },
  expected: { executions: 2, rejected: 0, replayed: 0 },
};
