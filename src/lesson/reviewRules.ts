import { failureCards, type FailureCard } from './failureCards';

/**
 * The reliability reviewer's rules as data: every check `review` runs, with the
 * requirement it comes from, its condition, its threshold and its message. `review` evaluates this
 * table and the skill generator (skill.ts) prints it, so the lab and the skill document cannot say
 * different things. A condition is a list of tests on the input's fields (all must hold); a message
 * is a template whose `{/json/pointer}` placeholders are filled with the input's values.
 */

/** One JSON value the input can hold at a field. */
export type FieldValue = string | number | boolean | null;

/** A test on one field of the input, named by JSON Pointer. A field left out never equals anything. */
export type Condition =
  | { path: string; is: FieldValue }
  | { path: string; isNot: FieldValue }
  | { path: string; oneOf: readonly FieldValue[] }
  | { path: string; below: number }
  | { path: string; above: number }
  | { path: string; atLeast: number }
  | { path: string; notBelowField: string }
  | { path: string; isEmpty: true }
  /** The retry classifier found tool annotations that contradict the operation's contract (RT-1). */
  | { hintWarnings: true };

/** Text that depends on the input: the first variant whose condition holds. */
export type Variants = readonly { when: readonly Condition[]; text: string }[];
export type Text = string | Variants;

export type Severity = 'unsafe' | 'warning';

export interface ReviewRule {
  /** Stable id, printed with each flag and in the skill document. */
  id: string;
  /** The requirement(s) of docs/requirements.md the rule enforces, most specific first. */
  requirements: readonly [string, ...string[]];
  /** The input field the flag points at. */
  field: string;
  severity: Severity;
  /** All must hold for the rule to fire. */
  when: readonly Condition[];
  /** The flag's reason; null: each hint warning of the retry classifier is its own flag. */
  reason: string | null;
  /** The failure card the flag hands out (docs/requirements.md#failure-modes-each-runnable-next-to-its-fix). */
  card: FailureCard | null;
  /** How a person checks the same thing in a codebase, without the lab. */
  byHand: string;
}

export type RuleSection =
  'Cancellation and deadlines' | 'Retries and idempotency' | 'Backoff' | 'Flow control' | 'Recovery';

const isMutationWithKey: readonly Condition[] = [
  { path: '/operation/mutates', is: true },
  { path: '/operation/idempotencyKey', is: true },
];

/** The rules in the order `review` reports them, grouped by section. */
export const reviewRuleSections: readonly { section: RuleSection; rules: readonly ReviewRule[] }[] = [
  {
    section: 'Cancellation and deadlines',
    rules: [
      {
        id: 'cancel-http-posts-notification',
        requirements: ['RC-5', 'VF-2'],
        field: '/cancellation',
        severity: 'unsafe',
        when: [
          { path: '/transport', is: 'http' },
          { path: '/cancellation', is: 'post-notification' },
        ],
        reason:
          'on Streamable HTTP closing the request’s response stream is the cancellation; a POSTed notifications/cancelled is not',
        card: failureCards.httpPostsCancel,
        byHand:
          'Find where the HTTP client gives up on a call (user abort, timeout). It must abort the fetch / close that POST’s SSE response stream; a second POST carrying notifications/cancelled is the bug.',
      },
      {
        id: 'cancel-http-uses-stdio-signal',
        requirements: ['RC-5', 'VF-2'],
        field: '/cancellation',
        severity: 'unsafe',
        when: [
          { path: '/transport', is: 'http' },
          { path: '/cancellation', is: 'notifications/cancelled' },
        ],
        reason: 'notifications/cancelled is the stdio signal; on Streamable HTTP close the response stream',
        card: failureCards.httpPostsCancel,
        byHand:
          'Same place as above: on Streamable HTTP the only cancellation is closing the request’s response stream (AbortController.abort() on the fetch); no message is sent.',
      },
      {
        id: 'cancel-stdio-without-notification',
        requirements: ['RC-5', 'VF-1'],
        field: '/cancellation',
        severity: 'unsafe',
        when: [
          { path: '/transport', is: 'stdio' },
          { path: '/cancellation', isNot: 'notifications/cancelled' },
        ],
        reason: 'stdio has no per-request stream to close: send notifications/cancelled',
        card: null,
        byHand:
          'On stdio the client must write {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":…}} to the server’s stdin and expect no answer to it or to the cancelled request.',
      },
      {
        id: 'timeout-no-maximum',
        requirements: ['RC-1', 'VF-5'],
        field: '/timeouts/maxMs',
        severity: 'unsafe',
        when: [{ path: '/timeouts/maxMs', is: null }],
        reason: 'no maximum timeout: steady progress keeps hung work alive forever',
        card: failureCards.progressResetsEverything,
        byHand:
          'Look for an absolute budget per call (maxTotalTimeout in the MCP TypeScript SDK, a deadline or context timeout elsewhere). A single timeout that progress resets is not one.',
      },
      {
        id: 'timeout-progress-resets-maximum',
        requirements: ['RC-2', 'VF-5'],
        field: '/timeouts/progressResetsMax',
        severity: 'unsafe',
        when: [{ path: '/timeouts/progressResetsMax', is: true }],
        reason: 'progress must reset the idle clock only, never the absolute budget',
        card: failureCards.progressResetsEverything,
        byHand:
          'Read the progress handler: it may restart the idle timer (resetTimeoutOnProgress: true) but must leave the maximum deadline where the request’s start put it.',
      },
      {
        id: 'timeout-idle-not-below-maximum',
        requirements: ['RC-1'],
        field: '/timeouts/idleMs',
        severity: 'warning',
        when: [
          { path: '/timeouts/maxMs', isNot: null },
          { path: '/timeouts/idleMs', notBelowField: '/timeouts/maxMs' },
        ],
        reason:
          'the idle timeout ({/timeouts/idleMs} ms) is not shorter than the maximum ({/timeouts/maxMs} ms), so it never fires first',
        card: null,
        byHand:
          'Compare the two numbers: the idle timeout (time allowed with no progress) must be shorter than the absolute maximum, or it never fires first.',
      },
    ],
  },
  {
    section: 'Retries and idempotency',
    rules: [
      {
        id: 'retry-unkeyed-mutation',
        requirements: ['LG-1', 'VF-6'],
        field: '/retry/automatic',
        severity: 'unsafe',
        when: [
          { path: '/operation/mutates', is: true },
          { path: '/operation/idempotencyKey', is: false },
          { path: '/retry/automatic', is: true },
        ],
        reason: 'a retry under a new JSON-RPC id runs the mutation again; no key lets the server recognise the intent',
        card: failureCards.newIdAsDedupe,
        byHand:
          'Find every loop that re-sends tools/call after an error or timeout. If the tool changes state and its arguments carry no business idempotency key, the retry runs the effect again: a new JSON-RPC id is not de-duplication.',
      },
      {
        id: 'retry-key-not-durable',
        requirements: ['LG-2', 'LG-8'],
        field: '/retry/automatic',
        severity: 'unsafe',
        when: [
          ...isMutationWithKey,
          { path: '/ledger', isNot: 'shared-durable' },
          { path: '/retry/automatic', is: true },
        ],
        reason: 'the key is only as durable as its ledger ({/ledger}); a retry can run the effect twice',
        card: failureCards.newIdAsDedupe,
        byHand:
          'Follow the key on the server: where is it stored? A retry is safe only if the record of the key outlives a restart and is seen by every replica.',
      },
      {
        id: 'retry-changes-key',
        requirements: ['LG-3'],
        field: '/retry/sameKey',
        severity: 'unsafe',
        when: [...isMutationWithKey, { path: '/retry/automatic', is: true }, { path: '/retry/sameKey', is: false }],
        reason: 'a retry must repeat the same key with identical arguments, or it is a new intent',
        card: failureCards.newIdAsDedupe,
        byHand:
          'In the retry loop, check the key is generated once per business intent (before the first attempt) and reused with the identical arguments, not minted per attempt.',
      },
      {
        id: 'ledger-not-shared',
        requirements: ['LG-8'],
        field: '/ledger',
        severity: 'unsafe',
        when: [...isMutationWithKey, { path: '/ledger', oneOf: ['in-memory', 'per-replica'] }],
        reason: 'an {/ledger} ledger forgets keys on restart and does not span replicas',
        card: failureCards.inMemoryLedger,
        byHand:
          'A Map, an LRU cache or a per-process SQLite file holding keys is in-memory or per-replica: it forgets on restart and another replica never sees it. Use the shared database, or the upstream service’s own idempotency key.',
      },
      {
        id: 'ledger-missing',
        requirements: ['LG-2'],
        field: '/ledger',
        severity: 'unsafe',
        when: [...isMutationWithKey, { path: '/ledger', is: 'none' }],
        reason: 'a key with nowhere durable to record it de-duplicates nothing',
        card: failureCards.inMemoryLedger,
        byHand: 'If the key is accepted but never written anywhere, it de-duplicates nothing.',
      },
      {
        id: 'key-check-not-atomic',
        requirements: ['LG-4', 'LG-5', 'VF-7'],
        field: '/operation/atomicKeyCheck',
        severity: 'unsafe',
        when: [...isMutationWithKey, { path: '/operation/atomicKeyCheck', is: false }],
        reason: 'checking the key and running the effect as separate steps lets two workers both see the key missing',
        card: failureCards.separateKeyCheck,
        byHand:
          'Read the handler: “SELECT key … if missing then do the effect then INSERT key” in separate statements is the bug. The key claim, the effect record and the stored result must commit in one transaction (BEGIN IMMEDIATE, SELECT … FOR UPDATE, or a unique-constraint insert first).',
      },
      {
        id: 'key-without-fingerprint',
        requirements: ['LG-3', 'LG-2'],
        field: '/operation/fingerprint',
        severity: 'unsafe',
        when: [...isMutationWithKey, { path: '/operation/fingerprint', is: false }],
        reason: 'without an argument fingerprint one key can alias two intents',
        card: failureCards.keyReusedChangedArgs,
        byHand:
          'The ledger row must store a hash of the operation name and its arguments (without the key) and refuse the same key with other arguments (422-like), not replay the old result.',
      },
      {
        id: 'result-not-copied',
        requirements: ['LG-6', 'VF-9'],
        field: '/operation/defensiveCopies',
        severity: 'unsafe',
        when: [...isMutationWithKey, { path: '/operation/defensiveCopies', is: false }],
        reason: 'returning the stored object lets a caller corrupt later replays',
        card: failureCards.sharedMutableResult,
        byHand:
          'A replay must return a result rebuilt from the stored JSON (or a deep copy), never the cached object itself.',
      },
      {
        id: 'remote-effect-outside-ledger',
        requirements: ['LG-8'],
        field: '/operation/remoteEffect',
        severity: 'warning',
        when: [
          { path: '/operation/remoteEffect', is: true },
          { path: '/operation/mutates', is: true },
        ],
        reason:
          'a local ledger makes the local record atomic, not the remote effect: the other service must accept the same key, or write the effect to a transactional outbox in the same transaction',
        card: null,
        byHand:
          'If the handler calls a payment API, a deployment API or another service, check it passes the same idempotency key upstream or writes the call to an outbox table in the ledger’s transaction.',
      },
      {
        id: 'annotation-contradicts-contract',
        requirements: ['RT-1'],
        field: '/operation/annotations',
        severity: 'warning',
        when: [{ hintWarnings: true }],
        reason: null,
        card: null,
        byHand:
          'Compare the tool’s annotations (readOnlyHint, idempotentHint) with what the handler does. Annotations are hints from the server’s author; the implementation decides whether a retry is safe.',
      },
    ],
  },
  {
    section: 'Backoff',
    rules: [
      {
        id: 'backoff-none',
        requirements: ['RV-4', 'RV-5'],
        field: '/retry/backoff',
        severity: 'unsafe',
        when: [
          { path: '/retry/automatic', is: true },
          { path: '/retry/attemptsMax', above: 0 },
          { path: '/retry/backoff', is: 'none' },
        ],
        reason: 'retrying without backoff turns recovery into a thundering herd',
        card: failureCards.herd,
        byHand:
          'Find the delay between attempts (and between reconnects). None, or a fixed sleep, means every client comes back at once.',
      },
      {
        id: 'backoff-without-jitter',
        requirements: ['RV-4', 'RV-5'],
        field: '/retry/backoff',
        severity: 'warning',
        when: [
          { path: '/retry/automatic', is: true },
          { path: '/retry/attemptsMax', above: 0 },
          { path: '/retry/backoff', is: 'exponential' },
        ],
        reason: 'exponential backoff without jitter keeps clients in lockstep waves',
        card: failureCards.herd,
        byHand:
          'A delay of base × 2^attempt with no random part keeps clients in lockstep; it needs jitter (full, equal or decorrelated) and a cap.',
      },
    ],
  },
  {
    section: 'Flow control',
    rules: [
      {
        id: 'queue-unbounded',
        requirements: ['BF-6', 'BF-2'],
        field: '/queue/policy',
        severity: 'unsafe',
        when: [{ path: '/queue/policy', is: 'unbounded' }],
        reason: 'an unbounded queue grows without limit behind a slow consumer',
        card: failureCards.unboundedQueue,
        byHand:
          'Find the buffer between the handler’s progress callback and the SSE writer (an array, a stream’s highWaterMark, a channel). It must have a fixed capacity.',
      },
      {
        id: 'queue-final-droppable',
        requirements: ['BF-4', 'VF-10'],
        field: '/queue/reserveForFinal',
        severity: 'unsafe',
        when: [{ path: '/queue/reserveForFinal', is: false }],
        reason: 'the final response must never be dropped',
        card: failureCards.finalDropped,
        byHand:
          'When that buffer is full, check what gets evicted: progress may be dropped, the final JSON-RPC response never.',
      },
      {
        id: 'queue-capacity-too-small',
        requirements: ['BF-5'],
        field: '/queue/capacityEvents',
        severity: 'warning',
        when: [{ path: '/queue/capacityEvents', below: 2 }],
        reason: 'a capacity under 2 cannot hold a progress value and a final response',
        card: null,
        byHand: 'The capacity must hold at least one progress value and the final response (2 events).',
      },
      {
        id: 'proxy-buffers-sse',
        requirements: ['RV-1', 'RV-2'],
        field: '/proxy/bufferingDisabled',
        severity: 'unsafe',
        when: [
          { path: '/transport', is: 'http' },
          { path: '/proxy/bufferingDisabled', is: false },
        ],
        reason:
          'a buffering proxy turns progress into bursts that trip the idle timeout; send X-Accel-Buffering: no and Cache-Control: no-cache',
        card: failureCards.proxyBuffers,
        byHand:
          'Check the SSE response headers (Content-Type: text/event-stream, Cache-Control: no-cache, X-Accel-Buffering: no) and the reverse proxy’s config (nginx proxy_buffering, idle/read timeouts longer than the keep-alive comment interval).',
      },
    ],
  },
  {
    section: 'Recovery',
    rules: [
      {
        id: 'recovery-last-event-id',
        requirements: ['RV-3', 'VF-11'],
        field: '/recovery/lastEventId',
        severity: 'unsafe',
        when: [{ path: '/recovery/lastEventId', is: true }],
        reason: 'this protocol revision keeps no stream state: Last-Event-ID resumes nothing',
        card: failureCards.lastEventIdAssumed,
        byHand:
          'Search the reconnect code for Last-Event-ID / lastEventId / resumption tokens: MCP 2026-07-28 keeps no stream state to resume.',
      },
      {
        id: 'recovery-same-request-id',
        requirements: ['RV-3', 'VF-11'],
        field: '/recovery/newRequestId',
        severity: 'unsafe',
        when: [{ path: '/recovery/newRequestId', is: false }],
        reason: 'a reconnect is a new request and needs a new JSON-RPC id',
        card: failureCards.lastEventIdAssumed,
        byHand:
          'A reconnect re-issues the request (subscriptions/listen, or the call) with a new JSON-RPC id; re-sending the old id is wrong.',
      },
      {
        id: 'recovery-no-refetch',
        requirements: ['RV-3', 'VF-11'],
        field: '/recovery/refetch',
        severity: 'unsafe',
        when: [{ path: '/recovery/refetch', isEmpty: true }],
        reason:
          'after a drop, refetch the affected state from its authoritative methods (tools/list, resources/list, prompts/list, tasks/get …)',
        card: failureCards.lastEventIdAssumed,
        byHand:
          'After a dropped stream, list what the client re-reads from authoritative methods (tools/list, resources/list, prompts/list, tasks/get …). An empty list means missed changes stay missed.',
      },
      {
        id: 'recovery-replays-unsafe-mutation',
        requirements: ['RV-3', 'LG-1'],
        field: '/recovery/replayUnsafeMutations',
        severity: 'unsafe',
        when: [{ path: '/recovery/replayUnsafeMutations', is: true }],
        reason: 'never repeat an unsafe mutation because its response was lost: reconcile first',
        card: failureCards.newIdAsDedupe,
        byHand:
          'Check what the client does with calls in flight when the connection dropped: an unkeyed mutation must be reconciled (read the authoritative state) before anything is re-sent.',
      },
      {
        id: 'task-ack-as-final',
        requirements: ['TK-1', 'TK-2', 'VF-12'],
        field: '/recovery/pollTasksUntilTerminal',
        severity: 'unsafe',
        when: [{ path: '/recovery/pollTasksUntilTerminal', is: false }],
        reason: 'a tasks/cancel acknowledgement is not a cancellation: poll until a terminal status',
        card: failureCards.taskAckFinal,
        byHand:
          'After tasks/cancel, the client must keep polling tasks/get until completed, failed or cancelled; showing “stopped” on the acknowledgement is the bug.',
      },
    ],
  },
];

export const reviewRules: readonly ReviewRule[] = reviewRuleSections.flatMap((s) => s.rules);

/** A flow-control check: always reported, ok or not, with a detail that depends on the input. */
export interface FlowCheck {
  id: string;
  requirements: readonly [string, ...string[]];
  check: string;
  ok: readonly Condition[];
  detail: Variants;
}

export const flowChecks: readonly FlowCheck[] = [
  {
    id: 'flow-bounded',
    requirements: ['BF-6'],
    check: 'the progress queue is bounded',
    ok: [{ path: '/queue/policy', isNot: 'unbounded' }],
    detail: [
      { when: [{ path: '/queue/policy', is: 'unbounded' }], text: 'memory grows with a slow consumer' },
      { when: [], text: '{/queue/capacityEvents} events, {/queue/policy}' },
    ],
  },
  {
    id: 'flow-drops-progress',
    requirements: ['BF-1', 'BF-2', 'BF-3'],
    check: 'replaceable progress is what gets dropped',
    ok: [{ path: '/queue/policy', is: 'coalesce-drop-oldest' }],
    detail: [
      {
        when: [{ path: '/queue/policy', is: 'coalesce-drop-oldest' }],
        text: 'adjacent progress coalesces; the oldest progress is dropped first',
      },
      {
        when: [{ path: '/queue/policy', is: 'drop-newest' }],
        text: 'dropping the newest progress keeps stale values and can drop a final response',
      },
      { when: [{ path: '/queue/policy', is: 'unbounded' }], text: 'nothing is ever dropped, so nothing bounds memory' },
    ],
  },
  {
    id: 'flow-keeps-final',
    requirements: ['BF-4'],
    check: 'the final response is never dropped',
    ok: [{ path: '/queue/reserveForFinal', is: true }],
    detail: [
      { when: [{ path: '/queue/reserveForFinal', is: true }], text: 'capacity is reserved for the final response' },
      { when: [], text: 'under pressure the final response can be dropped' },
    ],
  },
  {
    id: 'flow-capacity',
    requirements: ['BF-5', 'BF-6'],
    check: 'capacity leaves room for progress and a final',
    ok: [{ path: '/queue/capacityEvents', atLeast: 2 }],
    detail: [{ when: [], text: '{/queue/capacityEvents} events' }],
  },
];

const httpSignal: Variants = [
  { when: [{ path: '/transport', is: 'http' }], text: 'closing the request’s SSE response stream' },
  { when: [], text: 'notifications/cancelled' },
];

/** The race table (RC-8): the two orders of the cancel/complete race and the deadline, worded for the input. */
export const raceRows: readonly {
  requirements: readonly string[];
  ordering: Text;
  server: Text;
  client: Text;
  wire: Text;
}[] = [
  {
    requirements: ['RC-8', 'RC-6', 'VF-3'],
    ordering: 'cancellation wins',
    server: 'marks the request cancelled, stops work, suppresses the response (complete() returns nothing)',
    client: 'has abandoned the request; expects nothing more',
    wire: httpSignal,
  },
  {
    requirements: ['RC-8', 'RC-7', 'VF-4'],
    ordering: 'completion wins',
    server: 'sends the response; ignores the late cancellation without error or reply',
    client: 'ignores the response of a request it already abandoned',
    wire: httpSignal.map((v) => ({ ...v, text: `${v.text}, crossing the response` })),
  },
  {
    requirements: ['RC-1', 'RC-2', 'VF-5'],
    ordering: [
      { when: [{ path: '/timeouts/maxMs', is: null }], text: 'maximum deadline: none (flagged)' },
      { when: [], text: 'maximum deadline at {/timeouts/maxMs} ms' },
    ],
    server: 'receives the cancellation the timeout sends and stops',
    client: 'gives up at the deadline (idle {/timeouts/idleMs} ms, reset by progress only), then cancels',
    wire: httpSignal,
  },
];

/** The idempotency boundary (LG-2 … LG-4, LG-8): the first case that holds gives the lines. */
export const boundaryCases: readonly { when: readonly Condition[]; lines: readonly Text[] }[] = [
  {
    when: [{ path: '/operation/mutates', is: false }],
    lines: ['A read with no side effect: retry with a new JSON-RPC id once the failure boundary is understood.'],
  },
  {
    when: [{ path: '/operation/idempotencyKey', is: true }],
    lines: [
      [
        {
          when: [{ path: '/operation/atomicKeyCheck', is: false }],
          text: 'The key is checked and recorded in the {/ledger} ledger — in separate steps (flagged).',
        },
        {
          when: [],
          text: 'The key is checked and recorded in the {/ledger} ledger, in one transaction with the effect record and the result.',
        },
      ],
      [
        {
          when: [{ path: '/operation/remoteEffect', is: true }],
          text: 'The remote effect is outside that transaction: the other service must accept the same key, or deliver the effect from a transactional outbox.',
        },
        { when: [], text: 'The effect is recorded locally, inside the boundary.' },
      ],
      'A retry must carry the same key and identical arguments; other arguments under the same key are refused (422-like).',
    ],
  },
  {
    when: [],
    lines: ['No idempotency key: nothing de-duplicates this mutation. Do not retry automatically; reconcile first.'],
  },
];

/**
 * How the retry class is derived from the input (docs/requirements.md#retry-classification-rt): the operation's contract, never its
 * annotations. `durableKey` is what makes a keyed mutation conditional rather than unsafe.
 */
export const retryContract = {
  mutates: '/operation/mutates',
  durableKey: [
    { path: '/operation/idempotencyKey', is: true },
    { path: '/ledger', is: 'shared-durable' },
  ] as readonly Condition[],
  deterministicRead: 'not /operation/mutates',
} as const;

// ── evaluation ───────────────────────────────────────────────────────────────────────────────────

const ABSENT = Symbol('absent');

/** The value at a JSON Pointer, or ABSENT. */
function at(input: unknown, pointer: string): unknown {
  let value: unknown = input;
  for (const key of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return ABSENT;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export interface RuleFacts {
  hintWarnings: readonly string[];
}

export function holds(condition: Condition, input: unknown, facts: RuleFacts): boolean {
  if ('hintWarnings' in condition) return facts.hintWarnings.length > 0;
  const value = at(input, condition.path);
  if ('is' in condition) return value === condition.is;
  if ('isNot' in condition) return value !== condition.isNot;
  if ('oneOf' in condition) return (condition.oneOf as readonly unknown[]).includes(value);
  if ('below' in condition) return typeof value === 'number' && value < condition.below;
  if ('above' in condition) return typeof value === 'number' && value > condition.above;
  if ('atLeast' in condition) return typeof value === 'number' && value >= condition.atLeast;
  if ('notBelowField' in condition) {
    const other = at(input, condition.notBelowField);
    return typeof value === 'number' && typeof other === 'number' && value >= other;
  }
  return Array.isArray(value) && value.length === 0;
}

export const allHold = (conditions: readonly Condition[], input: unknown, facts: RuleFacts): boolean =>
  conditions.every((c) => holds(c, input, facts));

/** Fills `{/pointer}` placeholders with the input's values (strings bare, the rest as JSON). */
export function fill(template: string, input: unknown): string {
  return template.replace(/\{(\/[^}]*)\}/g, (_match, pointer: string) => {
    const value = at(input, pointer);
    if (value === ABSENT) throw new Error(`template field ${pointer} is absent from the input`);
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

export function render(text: Text, input: unknown, facts: RuleFacts): string {
  if (typeof text === 'string') return fill(text, input);
  const variant = text.find((v) => allHold(v.when, input, facts));
  if (variant === undefined) throw new Error('no variant of the text applies to this input');
  return fill(variant.text, input);
}
