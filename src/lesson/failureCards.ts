import type { Settings, Transport } from '../engine';

/** A run of the lab a card links to: the scenario, and the transport and settings that differ from its defaults. */
export interface RunLink {
  scenario: string;
  transport?: Transport;
  settings?: Settings;
}

/**
 * docs/requirements.md#failure-modes-each-runnable-next-to-its-fix: the failure modes the lab shows, as cards the reviewer hands out. Every row can be run:
 * `failureRun` shows the failure, `fixRun` the correct response, side by side;
 * src/lesson/failureModes.ts checks from their transcripts that each shows what it claims.
 */
export interface FailureCard {
  id: string;
  failure: string;
  symptom: string;
  correctResponse: string;
  failureRun: RunLink;
  fixRun: RunLink;
}

export const failureCards = {
  httpPostsCancel: {
    id: 'http-posts-cancel',
    failure: 'HTTP client POSTs a cancellation notification',
    symptom: 'server and client disagree on the request’s lifetime',
    correctResponse: 'close the request’s SSE stream',
    failureRun: { scenario: 'D', transport: 'http', settings: { httpCancel: 'post-notification' } },
    fixRun: { scenario: 'D', transport: 'http' },
  },
  respondsAfterCancel: {
    id: 'responds-after-cancel',
    failure: 'server responds after accepted cancellation',
    symptom: 'client gets an unusable late result',
    correctResponse: 'stop work, suppress further messages when cancellation wins',
    failureRun: { scenario: 'A', settings: { afterCancel: 'respond' } },
    fixRun: { scenario: 'A' },
  },
  progressResetsEverything: {
    id: 'progress-resets-every-deadline',
    failure: 'progress resets every deadline',
    symptom: 'hung work survives forever',
    correctResponse: 'keep a separate absolute maximum timeout',
    failureRun: { scenario: 'C', settings: { progressResetsMax: true } },
    fixRun: { scenario: 'C' },
  },
  newIdAsDedupe: {
    id: 'new-id-as-dedupe',
    failure: 'new RPC id treated as de-duplication',
    symptom: 'charge, deployment or deletion runs twice',
    correctResponse: 'durable application idempotency key',
    failureRun: { scenario: 'ledger-new-id-retry' },
    fixRun: { scenario: 'ledger-keyed-retry' },
  },
  separateKeyCheck: {
    id: 'separate-key-check',
    failure: 'key check and effect are separate',
    symptom: 'two workers both see the key missing',
    correctResponse: 'commit key claim, effect record and result atomically',
    failureRun: { scenario: 'ledger-race-unsafe' },
    fixRun: { scenario: 'ledger-race-keyed' },
  },
  inMemoryLedger: {
    id: 'in-memory-ledger',
    failure: 'in-memory ledger across replicas',
    symptom: 'restart or another worker forgets commits',
    correctResponse: 'shared durable storage or upstream idempotency',
    failureRun: { scenario: 'ledger-keyed-retry', settings: { ledgerStore: 'per-replica-memory' } },
    fixRun: { scenario: 'ledger-keyed-retry' },
  },
  sharedMutableResult: {
    id: 'shared-mutable-result',
    failure: 'stored mutable result returned directly',
    symptom: 'caller’s mutation corrupts later replays',
    correctResponse: 'serialize results, return defensive copies',
    failureRun: { scenario: 'ledger-alias', settings: { resultCopies: 'shared' } },
    fixRun: { scenario: 'ledger-alias' },
  },
  keyReusedChangedArgs: {
    id: 'key-reused-changed-args',
    failure: 'key reused with changed arguments',
    symptom: 'one key aliases two intents',
    correctResponse: 'store and compare an argument fingerprint',
    failureRun: { scenario: 'ledger-key-mismatch', settings: { compareFingerprint: false } },
    fixRun: { scenario: 'ledger-key-mismatch' },
  },
  unboundedQueue: {
    id: 'unbounded-queue',
    failure: 'unbounded progress queue',
    symptom: 'memory grows with a slow consumer',
    correctResponse: 'coalesce and drop replaceable progress within a bound',
    failureRun: { scenario: 'buffer-overload', settings: { queue: 'unbounded' } },
    fixRun: { scenario: 'buffer-overload' },
  },
  finalDropped: {
    id: 'final-dropped',
    failure: 'final response dropped under pressure',
    symptom: 'client cannot know the outcome',
    correctResponse: 'reserve capacity or evict progress, never the final response',
    failureRun: { scenario: 'buffer-overload', settings: { queue: 'drop-oldest-any', capacity: 4 } },
    fixRun: { scenario: 'buffer-overload', settings: { capacity: 4 } },
  },
  proxyBuffers: {
    id: 'proxy-buffers',
    failure: 'proxy buffers SSE',
    symptom: 'progress arrives in bursts or after the timeout',
    correctResponse: 'disable buffering, set compatible proxy timeouts',
    failureRun: { scenario: 'proxy-buffering' },
    fixRun: { scenario: 'proxy-buffering', settings: { honourNoBuffering: true } },
  },
  lastEventIdAssumed: {
    id: 'last-event-id-assumed',
    failure: '`Last-Event-ID` assumed',
    symptom: 'client resumes from state the server does not keep',
    correctResponse: 'reconnect with a new request and refetch',
    failureRun: { scenario: 'reconnect-listen', settings: { resume: 'last-event-id' } },
    fixRun: { scenario: 'reconnect-listen' },
  },
  herd: {
    id: 'reconnect-herd',
    failure: 'every client reconnects at once',
    symptom: 'recovery causes another outage',
    correctResponse: 'capped exponential backoff with jitter',
    failureRun: { scenario: 'herd', settings: { policy: 'none' } },
    fixRun: { scenario: 'herd' },
  },
  taskAckFinal: {
    id: 'task-ack-final',
    failure: 'task ack treated as final cancellation',
    symptom: 'worker runs on after the UI says stopped',
    correctResponse: 'poll the task until a terminal status',
    failureRun: { scenario: 'task-cancel-too-late', settings: { ackIsFinal: true } },
    fixRun: { scenario: 'task-cancel-too-late' },
  },
} as const satisfies Record<string, FailureCard>;

/** The command line that replays a card's run: `npm run lab -- run D --transport http --set httpCancel=post-notification`. */
export function runCommand(run: RunLink): string {
  const transport = run.transport === undefined ? '' : ` --transport ${run.transport}`;
  const settings = Object.entries(run.settings ?? {})
    .map(([key, value]) => ` --set ${key}=${value === null ? 'none' : String(value)}`)
    .join('');
  return `npm run lab -- run ${run.scenario}${transport}${settings}`;
}
