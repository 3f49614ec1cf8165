import type { EventPattern, RaceAnswer } from '../engine';

/**
 * Event patterns the race scenarios' Predict questions share. The request races all race request 41
 * (the client's first call).
 */

/** The client puts its cancellation on the wire: notifications/cancelled on stdio, closing the stream on Streamable HTTP. */
export const CLIENT_CANCEL_SIGNAL: readonly EventPattern[] = [
  {
    where: {
      kind: 'message',
      from: 'client',
      'message.method': 'notifications/cancelled',
      'message.params.requestId': 41,
    },
  },
  { where: { kind: 'stream-closed', by: 'client', requestId: 41 } },
];

/** The user gives up on request 41: the client abandons it (its cancellation goes on the wire next). */
export const USER_GIVES_UP: readonly EventPattern[] = [
  { where: { kind: 'state', side: 'client', requestId: 41, to: 'abandoned' } },
];

/** The worker is running request 41. */
export const WORKER_RUNNING: readonly EventPattern[] = [{ where: { kind: 'worker', requestId: 41, step: 'started' } }];

/** The server's final response to request 41 on the wire. */
export const RESPONSE_SENT: readonly EventPattern[] = [
  { where: { kind: 'message', from: 'server', 'message.id': 41 } },
];

/** The request's single terminal state. */
export const terminal = (state: string): readonly EventPattern[] => [
  { where: { kind: 'terminal', requestId: 41, state } },
];

/** How many times the ledger race charges the account (ledger-race-keyed, ledger-race-unsafe). */
export const LEDGER_CHARGES: readonly RaceAnswer[] = [
  {
    value: 'once',
    label: "Once: the second request gets the first one's stored result",
    when: [{ where: { kind: 'ledger', action: 'replayed' } }],
    why: 'The key claim, the charge and the result commit in one transaction, so the second connection finds the key and replays the result.',
  },
  {
    value: 'twice',
    label: 'Twice: both connections charge the account',
    when: [{ where: { kind: 'sql', sql: { startsWith: 'INSERT INTO ledger.effects' } }, nth: 2 }],
    why: 'Each connection checks the key before either stores it, so both see it missing and both charge.',
  },
];

/**
 * The ledger race done wrong (check, act and store as separate statements): the second charge is not
 * yet a verdict when its INSERT runs, only when the ledger records the second request's end: a
 * second execution, or the key's constraint failing after that request's charge already committed
 * (in this mode the key is stored last, so that failure always comes after a charge).
 */
export const LEDGER_CHARGES_CHECK_THEN_ACT: readonly RaceAnswer[] = LEDGER_CHARGES.map((answer) =>
  answer.value !== 'twice'
    ? answer
    : {
        ...answer,
        when: [
          { where: { kind: 'ledger', action: 'executed' }, nth: 2 },
          { where: { kind: 'ledger', action: 'failed', detail: { startsWith: 'SQLITE_CONSTRAINT' } } },
        ],
      },
);

/** Both ledger requests, same key, have reached the server. */
export const LEDGER_CONTENDERS = [
  { label: 'request 41', on: [{ where: { kind: 'delivered', summary: 'tools/call #41' } }] },
  { label: 'request 42 (same key)', on: [{ where: { kind: 'delivered', summary: 'tools/call #42' } }] },
] as const;
