/** SPEC §9: the failure modes the lab shows, as cards the reviewer hands out. */
export interface FailureCard {
  id: string;
  failure: string;
  symptom: string;
  correctResponse: string;
}

export const failureCards = {
  httpPostsCancel: { id: 'http-posts-cancel', failure: 'HTTP client POSTs a cancellation notification', symptom: 'server and client disagree on the request’s lifetime', correctResponse: 'close the request’s SSE stream' },
  respondsAfterCancel: { id: 'responds-after-cancel', failure: 'server responds after accepted cancellation', symptom: 'client gets an unusable late result', correctResponse: 'stop work, suppress further messages when cancellation wins' },
  progressResetsEverything: { id: 'progress-resets-every-deadline', failure: 'progress resets every deadline', symptom: 'hung work survives forever', correctResponse: 'keep a separate absolute maximum timeout' },
  newIdAsDedupe: { id: 'new-id-as-dedupe', failure: 'new RPC id treated as de-duplication', symptom: 'charge, deployment or deletion runs twice', correctResponse: 'durable application idempotency key' },
  separateKeyCheck: { id: 'separate-key-check', failure: 'key check and effect are separate', symptom: 'two workers both see the key missing', correctResponse: 'commit key claim, effect record and result atomically' },
  inMemoryLedger: { id: 'in-memory-ledger', failure: 'in-memory ledger across replicas', symptom: 'restart or another worker forgets commits', correctResponse: 'shared durable storage or upstream idempotency' },
  sharedMutableResult: { id: 'shared-mutable-result', failure: 'stored mutable result returned directly', symptom: 'caller’s mutation corrupts later replays', correctResponse: 'serialize results, return defensive copies' },
  keyReusedChangedArgs: { id: 'key-reused-changed-args', failure: 'key reused with changed arguments', symptom: 'one key aliases two intents', correctResponse: 'store and compare an argument fingerprint' },
  unboundedQueue: { id: 'unbounded-queue', failure: 'unbounded progress queue', symptom: 'memory grows with a slow consumer', correctResponse: 'coalesce and drop replaceable progress within a bound' },
  finalDropped: { id: 'final-dropped', failure: 'final response dropped under pressure', symptom: 'client cannot know the outcome', correctResponse: 'reserve capacity or evict progress, never the final response' },
  proxyBuffers: { id: 'proxy-buffers', failure: 'proxy buffers SSE', symptom: 'progress arrives in bursts or after the timeout', correctResponse: 'disable buffering, set compatible proxy timeouts' },
  lastEventIdAssumed: { id: 'last-event-id-assumed', failure: '`Last-Event-ID` assumed', symptom: 'client resumes from state the server does not keep', correctResponse: 'reconnect with a new request and refetch' },
  herd: { id: 'reconnect-herd', failure: 'every client reconnects at once', symptom: 'recovery causes another outage', correctResponse: 'capped exponential backoff with jitter' },
  taskAckFinal: { id: 'task-ack-final', failure: 'task ack treated as final cancellation', symptom: 'worker runs on after the UI says stopped', correctResponse: 'poll the task until a terminal status' },
} as const satisfies Record<string, FailureCard>;
