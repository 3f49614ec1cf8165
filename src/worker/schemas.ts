import * as v from 'valibot';
import { passes } from './quickCheck';
import type {
  ExploreResult,
  JsonObject,
  JsonRpcMessage,
  LabErrorCode,
  LabEvent,
  Outcome,
  OutcomeByKind,
  RunComparison,
  SettingsSpec,
  Transcript,
} from '../engine';
import type { DiagramLayout } from '../diagram/geometry/model';
import {
  BAR_DEADLINES,
  BAR_END_ACTIONS,
  explainPackedRows,
  MARKER_LOOKS,
  MARKER_TONES,
  WIRE_FATES,
  WIRE_KINDS,
  type PackedRows,
} from './layoutCodec';
import type { FailureModeResult, PanelView, ReviewResult, VerificationResult } from './panelTypes';
import { FAULTS_MAX, RUN_SPEC_CHARS_MAX, SCHEDULE_CHARS_MAX, SCHEDULE_CHOICES_MAX } from '../runs/runSpecLimits';
// The engine's lists through its second front door (pure data): the page's bundle, which holds these schemas, stays engine-free.
import { BACKOFF_POLICIES, IMPLEMENTATIONS, TRANSPORTS } from '../engine/settingsSpecs';
import type { RunSelection, RunSpec } from '../runs/runSpec';
import type { ProbeTranscript } from '../probe/run';
import type { CheckReport } from '../exercise/types';
// The JSON-RPC guards beside their types, through the engine's pure door for them (a file that imports nothing).
import { isJsonObject, isJsonRpcMessage, JSON_DEPTH_MAX } from '../engine/core/jsonrpc';
import { INVARIANTS } from '../engine/core/invariantNames';
// The faults' and orderings' values, through the engine's pure doors for their grammars.
import { DELAY_MS_MAX, type MessageFault } from '../engine/core/faults';
import type { Choice } from '../engine/core/schedule';

/**
 * The worker protocol's messages, defined once as runtime schemas (valibot), for both workers (the
 * lab engine and the lab tools). protocol.ts infers every message type from these; the page checks
 * what the workers send and the workers check what the page sends with the same definitions, so a
 * field can neither drift nor be trusted unchecked. Payloads the engine defines (the
 * transcript, its events and outcomes) are checked here too, and a compile-time check at the end
 * keeps each schema in step with the engine's own type.
 *
 * Unknown fields are allowed (an object schema ignores them, and `check` returns the value as sent): a newer engine may add fields (extend, never rename); a
 * missing or mistyped field of a known shape, or an unknown event kind, is refused.
 */

const int = v.pipe(v.number(), v.safeInteger());
const nonNegativeInt = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const finite = v.pipe(v.number(), v.finite());
const requestId = v.union([v.string(), v.number()]);
const side = v.picklist(['client', 'server']);
const stringRecord = v.record(v.string(), v.string());
const terminalState = v.picklist(['completed', 'cancelled', 'timeout-idle', 'timeout-max']);
/** RC-8: the client's own ending of a request, kept beside the server's terminal state. */
const clientOutcome = v.picklist(['completed', 'cancelled', 'timeout-idle', 'timeout-max']);
/** An object whose values nobody reads as a type (an exploration's distinct fields, a recorded message before its own check). */
const unknownRecord = v.record(v.string(), v.unknown());
/** A JSON object (JSON values only, bounded depth: json.ts), typed as the engine's JsonObject. */
const jsonObject = v.custom<JsonObject>(isJsonObject, `must be a JSON object nested at most ${JSON_DEPTH_MAX} deep`);
const taskStatus = v.picklist(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const taskAction = v.picklist([
  'created',
  'polled',
  'cancel-acknowledged',
  'cancel-skipped',
  'cancelled',
  'completed',
  'reported',
  'crashed',
  'restarted',
  'retried',
  'retry-skipped',
  'request-lost',
]);
const bufferAction = v.picklist(['enqueued', 'coalesced', 'dropped', 'needs-refetch', 'refused', 'released']);

export const TransportSchema = v.picklist(TRANSPORTS);
export const SettingValueSchema = v.union([v.number(), v.boolean(), v.string(), v.null()]);
export const SettingsSchema = v.record(v.string(), SettingValueSchema);

// ── events ───────────────────────────────────────────────────────────────────────────────────────

const base = {
  seq: nonNegativeInt,
  atMs: finite,
  causeSeq: v.nullable(nonNegativeInt),
} as const;

const event = <K extends string, E extends v.ObjectEntries>(kind: K, entries: E) =>
  v.object({ ...base, kind: v.literal(kind), ...entries });

/** A JSON-RPC 2.0 message as the engine types it; `params` may be omitted, as JSON-RPC allows (json.ts). */
const JsonRpcMessageSchema = v.custom<JsonRpcMessage>(
  isJsonRpcMessage,
  'must be a JSON-RPC 2.0 request, notification, result (an object) or error',
);

const ReconnectPlanSchema = v.object({
  previousRequestId: requestId,
  newRequestId: requestId,
  restoredFilter: jsonObject,
  refetch: v.array(v.string()),
  dedupeBy: stringRecord,
  reconcileInsteadOfReplay: v.array(requestId),
  replayUnsafeMutations: v.literal(false),
  sendLastEventId: v.boolean(),
  backoff: v.object({
    policy: v.picklist(BACKOFF_POLICIES),
    attempt: nonNegativeInt,
    delayMs: finite,
    ceilingMs: finite,
  }),
});

const eventSchemas = [
  event('message', {
    from: side,
    to: side,
    channel: v.string(),
    message: JsonRpcMessageSchema,
    arrivesAtMs: finite,
    ignoredBy: v.optional(side),
    lost: v.optional(v.literal(true)),
    reason: v.optional(v.string()),
    malformed: v.optional(v.string()),
    fault: v.optional(v.string()),
    duplicateOf: v.optional(nonNegativeInt),
    headers: v.optional(stringRecord),
  }),
  event('delivered', {
    messageSeq: nonNegativeInt,
    from: side,
    to: side,
    summary: v.string(),
    ignoredBy: v.optional(side),
    reason: v.optional(v.string()),
  }),
  event('message-lost', { messageSeq: nonNegativeInt, summary: v.string(), reason: v.string() }),
  event('stream-opened', { by: side, requestId, headers: stringRecord }),
  event('stream-closed', { by: side, requestId, reason: v.string() }),
  event('disconnect-observed', { by: side, requestId, reason: v.string() }),
  event('request-started', {
    requestId,
    idleTimeoutMs: finite,
    maxTimeoutMs: finite,
    progressToken: v.nullable(v.union([v.string(), v.number()])),
  }),
  event('deadline', {
    requestId,
    deadline: v.picklist(['idle', 'max']),
    action: v.picklist(['armed', 'reset', 'fired', 'disarmed']),
    dueAtMs: finite,
    reason: v.string(),
  }),
  event('state', { side, requestId, from: v.string(), to: v.string(), reason: v.string() }),
  event('terminal', {
    requestId,
    state: v.picklist(['completed', 'cancelled', 'timeout-idle', 'timeout-max']),
    reason: v.string(),
  }),
  event('worker', {
    requestId,
    step: v.picklist(['started', 'checkpoint', 'finished', 'stopped']),
    reason: v.string(),
  }),
  event('suppressed', { by: side, requestId, what: v.picklist(['response', 'progress']), reason: v.string() }),
  event('cancel-ignored', { by: side, requestId: v.nullable(requestId), reason: v.string() }),
  event('cancel-accepted', { by: side, requestId: v.nullable(requestId), reason: v.string() }),
  event('views-diverge', {
    requestId,
    side,
    serverView: v.literal('completed'),
    serverEndedAtMs: finite,
    clientView: clientOutcome,
    clientEndedAtMs: finite,
    reason: v.string(),
  }),
  event('sql', {
    connection: v.string(),
    requestId,
    sql: v.string(),
    params: v.array(v.union([v.string(), v.number(), v.null()])),
    purpose: v.string(),
    ok: v.boolean(),
    rows: v.optional(v.array(v.record(v.string(), v.union([v.string(), v.number(), v.null()])))),
    changes: v.optional(nonNegativeInt),
    error: v.optional(v.object({ code: v.string(), message: v.string() })),
  }),
  event('ledger', {
    action: v.picklist([
      'opened',
      'barrier',
      'busy-wait',
      'executed',
      'replayed',
      'rejected',
      'failed',
      'caller-mutated',
      'saved',
      'closed',
      'reopened',
      'retry',
      'no-retry',
      'reconcile',
      'reconciled',
      'aborted',
      'unknown',
    ]),
    requestId: v.optional(requestId),
    connection: v.optional(v.string()),
    detail: v.string(),
  }),
  event('task', { action: taskAction, taskId: v.string(), status: v.nullable(taskStatus), detail: v.string() }),
  event('buffer', {
    action: bufferAction,
    requestId,
    what: v.picklist(['progress', 'final']),
    summary: v.string(),
    occupancyEvents: nonNegativeInt,
    capacityEvents: v.nullable(nonNegativeInt),
    reason: v.string(),
    heldMs: v.optional(finite),
  }),
  event('proxy', {
    action: v.picklist(['headers', 'held', 'flushed', 'discarded']),
    requestId,
    heldEvents: nonNegativeInt,
    events: nonNegativeInt,
    reason: v.string(),
  }),
  event('sse-comment', {
    action: v.picklist(['sent', 'received']),
    requestId,
    channel: v.string(),
    line: v.string(),
    arrivesAtMs: v.nullable(finite),
    reason: v.string(),
  }),
  event('http-request', { requestId, method: v.literal('POST'), headers: stringRecord }),
  event('stream-dropped', { requestId, channel: v.string(), reason: v.string() }),
  event('reconnect-plan', { plan: ReconnectPlanSchema, reason: v.string() }),
  event('recovery', {
    step: v.picklist([
      'backoff',
      'restored-filter',
      'refetched',
      'deduplicated',
      'not-replayed',
      'reconciled',
      'resume-assumed',
    ]),
    requestId: v.nullable(requestId),
    reason: v.string(),
  }),
  event('herd-window', {
    window: nonNegativeInt,
    startMs: finite,
    endMs: finite,
    attempts: nonNegativeInt,
    admitted: nonNegativeInt,
    refused: nonNegativeInt,
    waiting: nonNegativeInt,
  }),
  // A recording's own events (a `lab probe` transcript opened in the page; no model records them).
  event('probe-note', { probe: v.string(), text: v.string() }),
  event('http-response', {
    probe: v.string(),
    channel: v.string(),
    requestId: v.nullable(requestId),
    status: int,
    headers: stringRecord,
  }),
  event('verdict', {
    probe: v.string(),
    check: v.string(),
    result: v.picklist(['holds', 'broken', 'not followed', 'not observable']),
    sentence: v.object({ revision: v.string(), level: v.string(), page: v.string(), text: v.string() }),
    detail: v.string(),
  }),
] as const;

const eventVariant = v.variant('kind', eventSchemas);
type EventOption = (typeof eventSchemas)[number];
const eventOptions = new Map<unknown, EventOption>(eventSchemas.map((schema) => [schema.entries.kind.literal, schema]));
/**
 * An event: the schema of its kind. valibot's variant tries each kind's literal in turn and records an
 * issue for every kind that does not match before the one that does, which made reading a long run's
 * events (20,000 in a part-by-part answer) a large share of the page's work. This goes straight to the
 * event's kind and runs the same schema the variant would, so the same events pass and the same
 * issues are reported; an event whose kind is unknown or missing goes through the variant itself.
 */
export const EventSchema: typeof eventVariant = {
  ...eventVariant,
  '~run'(dataset, config) {
    const input: unknown = dataset.value;
    const option =
      input !== null && typeof input === 'object' ? eventOptions.get((input as { kind?: unknown }).kind) : undefined;
    if (option === undefined) return eventVariant['~run'](dataset, config);
    return option['~run']({ typed: false, value: input }, config) as ReturnType<(typeof eventVariant)['~run']>;
  },
};
export const EVENT_KINDS = eventSchemas.map((schema) => schema.entries.kind.literal);

// ── outcomes and transcripts ─────────────────────────────────────────────────────────────────────

const outcomeSchemas = {
  'request-race': v.object({
    requestId,
    terminalState: v.picklist(['completed', 'cancelled', 'timeout-idle', 'timeout-max']),
    terminalAtMs: finite,
    finalResponse: v.boolean(),
    cancellationSignal: v.nullable(v.picklist(['notifications/cancelled', 'stream-close'])),
    clientIgnores: v.array(v.object({ seq: nonNegativeInt, atMs: finite, summary: v.string(), reason: v.string() })),
    clientOutcome,
    clientOutcomeAtMs: finite,
    viewsDiverge: v.boolean(),
    cancelDelayMs: v.nullable(finite),
  }),
  ledger: v.object({
    executions: nonNegativeInt,
    rejected: nonNegativeInt,
    replayed: nonNegativeInt,
    failed: nonNegativeInt,
    requests: nonNegativeInt,
    busyRetries: nonNegativeInt,
    keyRecords: nonNegativeInt,
    storedResult: v.nullable(jsonObject),
    aliasIntact: v.nullable(v.boolean()),
    responses: v.array(
      v.object({
        requestId,
        connection: v.string(),
        status: v.picklist(['executed', 'replayed', 'rejected', 'failed']),
        body: jsonObject,
      }),
    ),
    paymentTokenInLedger: v.nullable(v.boolean()),
    keyProfile: v.object({
      name: v.picklist(['ietf', 'stripe', 'wait']),
      inFlightStatus: v.union([v.literal(409), v.literal('wait')]),
      reusedStatus: v.union([v.literal(400), v.literal(422)]),
      expiresAfterMs: v.nullable(finite),
      summary: v.string(),
      source: v.string(),
    }),
    clientRecord: v.optional(
      v.array(
        v.object({
          requestId,
          tool: v.string(),
          state: v.picklist(['answered', 'unknown', 'reconciled']),
          reconciledBy: v.optional(requestId),
          server: v.picklist(['executed', 'replayed', 'rejected', 'failed', 'read', 'not-received']),
        }),
      ),
    ),
    duplicateEffect: v.optional(v.nullable(v.object({ requestIds: v.array(requestId), detail: v.string() }))),
  }),
  task: v.object({
    taskId: v.string(),
    taskStatus: v.nullable(taskStatus),
    cancelAcknowledged: v.boolean(),
    statusAfterAck: v.nullable(taskStatus),
    statusesSeen: v.array(taskStatus),
    polls: nonNegativeInt,
    resultRetrieved: v.boolean(),
    streamClosed: v.boolean(),
    clientReported: v.nullable(taskStatus),
    lostRequests: v.optional(v.array(v.object({ requestId, method: v.string(), reissuedAs: v.nullable(requestId) }))),
    outcomeUnknown: v.optional(v.boolean()),
  }),
  buffer: v.object({
    capacity: v.nullable(nonNegativeInt),
    maxOccupancy: nonNegativeInt,
    dropped: nonNegativeInt,
    coalesced: nonNegativeInt,
    needsRefetch: v.boolean(),
    finalDelivered: v.boolean(),
    refusedPushes: nonNegativeInt,
    producerHeldMs: finite,
  }),
  proxy: v.object({
    requestEndedAs: terminalState,
    idleTimeoutFired: v.boolean(),
    progressSent: nonNegativeInt,
    progressDelivered: nonNegativeInt,
    bursts: nonNegativeInt,
    largestBurstEvents: nonNegativeInt,
    longestSilenceMs: finite,
    keepAlivesSent: nonNegativeInt,
    keepAlivesDelivered: nonNegativeInt,
    sseHeaders: v.nullable(stringRecord),
  }),
  reconnect: v.object({
    reconnectPlan: ReconnectPlanSchema,
    listenRequestIds: v.array(requestId),
    refetchedMethods: v.array(v.string()),
    messagesLost: nonNegativeInt,
    mutationsReplayed: nonNegativeInt,
    reconnectedAtMs: finite,
    clientStateStale: v.boolean(),
  }),
  herd: v.object({
    clients: nonNegativeInt,
    totalAttempts: nonNegativeInt,
    peakAttemptsPerWindow: nonNegativeInt,
    allReconnectedAtMs: finite,
    windowMs: finite,
    attemptsPerWindow: v.array(nonNegativeInt),
    firstWindowAttempts: nonNegativeInt,
    peakRetryAttemptsPerWindow: nonNegativeInt,
    admissionFloorMs: finite,
    droppedAtDrop: nonNegativeInt,
  }),
  listen: v.object({
    listenRequestId: requestId,
    serverEndSignal: v.picklist(['notifications/cancelled', 'stream-close']),
    listenEndedAtMs: v.nullable(finite),
    serverCancelled: v.array(requestId),
    clientCancelled: v.array(requestId),
    toolCallRequestId: requestId,
    toolCallTerminal: terminalState,
    notificationsReceived: nonNegativeInt,
    listensReissued: v.optional(v.array(requestId)),
  }),
  recording: v.object({
    server: v.object({ name: v.string(), version: v.string() }),
    startedAt: v.string(),
    target: v.string(),
    negotiatedVia: v.string(),
    fallbackReason: v.nullable(v.string()),
    probes: v.array(v.object({ probe: v.string(), first: nonNegativeInt, last: nonNegativeInt })),
    holds: nonNegativeInt,
    broken: nonNegativeInt,
    notFollowed: nonNegativeInt,
    notObservable: nonNegativeInt,
  }),
} as const;

export const ImplementationSchema = v.picklist(IMPLEMENTATIONS);

/** A seq, a delay or a choice's value as the faults' and orderings' grammars write it: up to nine digits. */
const grammarNumber = v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(999_999_999));

/** One choice of an ordering (`c1`, `j115`), parsed (engine/core/schedule.ts). */
const ChoiceSchema = v.strictObject({ kind: v.picklist(['c', 'j']), value: grammarNumber });

/** An explored ordering, parsed: its choices in the order the run meets them. */
export const ScheduleSchema = v.pipe(
  v.array(ChoiceSchema),
  v.maxLength(SCHEDULE_CHOICES_MAX, `an ordering has at most ${SCHEDULE_CHOICES_MAX} choices`),
  v.transform((choices): readonly Choice[] => choices),
);

/** One fault on one message, parsed (engine/core/faults.ts): a delay says how much later, no other fault does. */
const MessageFaultSchema = v.variant('kind', [
  v.strictObject({
    kind: v.literal('delay'),
    seq: grammarNumber,
    ms: v.pipe(grammarNumber, v.maxValue(DELAY_MS_MAX, `a delay is at most ${DELAY_MS_MAX} ms`)),
  }),
  v.strictObject({ kind: v.picklist(['drop', 'duplicate', 'stream-drop', 'crash']), seq: grammarNumber }),
]);

/** A run's faults, parsed as `parseFaults` gives them: one per message, ordered by seq. */
export const FaultsSchema = v.pipe(
  v.array(MessageFaultSchema),
  v.maxLength(FAULTS_MAX, `a run takes at most ${FAULTS_MAX} faults`),
  v.check(
    (faults) => faults.every((fault, index) => index === 0 || (faults[index - 1]?.seq ?? -1) < fault.seq),
    'faults name each message once, ordered by seq',
  ),
  v.transform((faults): readonly MessageFault[] => faults),
);

/**
 * Which run: the lab's one run description (`RunSpec` in src/runs/runSpec.ts) as the page sends it,
 * settings typed. The run, explore and panel requests and the link's resolved view are built on it
 * (whole, or the fields they read), so a new run dimension is added here and in `RunSpec` only; a
 * compile-time check at the end fails when the two disagree on a field. Values are the engine's to
 * judge (LAB001–LAB005, LAB022–LAB025 name what is wrong); this checks their types and bounds.
 */
export const RunSelectionSchema = v.object({
  scenario: v.string(),
  /** `ts-sdk` or `ts-sdk-v2` runs A–D on the real MCP TypeScript SDK (loaded in the worker when first asked for); absent: the model. */
  impl: v.optional(ImplementationSchema),
  transport: TransportSchema,
  seed: v.number(),
  /** Typed, in the order given; read-only, as the page's selection holds them. */
  settings: v.pipe(SettingsSchema, v.readonly()),
  /** Replays exactly this explored ordering, parsed; absent: the seeded run. */
  schedule: v.optional(ScheduleSchema),
  /** Faults on given messages, parsed (`drop:12,delay:14:300` in a link); absent: none. */
  faults: v.optional(FaultsSchema),
});
const SdkRunInfoSchema = v.object({
  package: v.string(),
  version: v.string(),
  negotiatedProtocolVersion: v.string(),
  settingsNotApplied: stringRecord,
  invariants: v.array(v.object({ id: v.string(), statement: v.string(), holds: v.boolean(), detail: v.string() })),
  postHeaders: v.optional(v.array(v.object({ channel: v.string(), headers: stringRecord }))),
});

const transcriptOf = <K extends keyof typeof outcomeSchemas>(kind: K) =>
  v.object({
    scenario: v.string(),
    transport: TransportSchema,
    seed: nonNegativeInt,
    settings: SettingsSchema,
    kind: v.literal(kind),
    title: v.string(),
    requirements: v.array(v.string()),
    protocolVersion: v.string(),
    /** Absent on the lab's model; `ts-sdk` on a run of the real SDK, with `sdk` beside it; `probe` on a recording of a real server (`lab probe`), opened in the page. */
    implementation: v.optional(v.picklist([...ImplementationSchema.options, 'probe'])),
    sdk: v.optional(SdkRunInfoSchema),
    events: v.array(EventSchema),
    outcome: outcomeSchemas[kind],
  });

/** The transcript's check without its cast: what a test compares with the engine's own transcript. */
export const checkedTranscript = v.variant('kind', [
  transcriptOf('request-race'),
  transcriptOf('ledger'),
  transcriptOf('task'),
  transcriptOf('buffer'),
  transcriptOf('proxy'),
  transcriptOf('reconnect'),
  transcriptOf('herd'),
  transcriptOf('listen'),
  transcriptOf('recording'),
]);

/** A transcript as the engine's own type once checked (the check is the schema; the type is the engine's). */
export const TranscriptSchema = v.pipe(
  checkedTranscript,
  v.transform((t): Transcript => t),
);

// ── a `lab probe` transcript, as the probe writes it (`--json`) ──────────────────────────────────

/**
 * The file the page opens with **Open recorded transcript**: the probe's transcript exactly as
 * `lab probe --json` writes it (src/probe/run.ts). The worker checks it here before it draws a
 * thing, so a malformed file is refused with the path of the first field that fails. A compile-time
 * check at the end keeps this schema in step with the probe's own type.
 */
/** A recorded JSON object: checked as JSON (bounded depth, json.ts), typed as the probe types it (its values read as unknown). */
const recordedObject = v.custom<Record<string, unknown>>(
  isJsonObject,
  `must be a JSON object nested at most ${JSON_DEPTH_MAX} deep`,
);
const probeBase = { seq: nonNegativeInt, atMs: v.pipe(finite, v.minValue(0)), probe: v.string() } as const;
const probeEvent = <K extends string, E extends v.ObjectEntries>(kind: K, entries: E) =>
  v.object({ ...probeBase, kind: v.literal(kind), ...entries });
export const ProbeEventSchema = v.variant('kind', [
  probeEvent('message', { from: side, to: side, channel: v.string(), message: recordedObject, bytes: nonNegativeInt }),
  probeEvent('http-response', { channel: v.string(), status: int, headers: stringRecord }),
  probeEvent('sse-comment', { channel: v.string(), text: v.string() }),
  probeEvent('stream-closed', { channel: v.string(), by: side, reason: v.string() }),
  probeEvent('deadline', {
    requestId,
    deadline: v.picklist(['idle', 'max']),
    action: v.picklist(['armed', 'reset', 'fired', 'disarmed']),
    dueAtMs: finite,
  }),
  probeEvent('note', { text: v.string() }),
]);
const ProbeVerdictSchema = v.object({
  probe: v.string(),
  check: v.string(),
  sentence: v.object({
    revision: v.picklist(['2026-07-28', '2025-11-25', 'lesson']),
    level: v.picklist(['MUST', 'MUST NOT', 'REQUIRED', 'SHOULD', 'SHOULD NOT', 'encouraged', 'MAY']),
    page: v.string(),
    text: v.string(),
  }),
  result: v.picklist(['holds', 'broken', 'not observable']),
  /** `result` with the level taken into account; absent in a recording made before the probe wrote it (then derived from result and level). */
  finding: v.optional(v.picklist(['holds', 'broken', 'not followed', 'not observable'])),
  detail: v.string(),
});
const taskPoll = v.object({
  requestId: finite,
  atMs: finite,
  status: v.nullable(v.string()),
  afterAck: v.boolean(),
  error: v.nullable(recordedObject),
});
const ProbeTaskTraceSchema = v.object({
  flavour: v.picklist(['extension', '2025-11-25']),
  tool: v.string(),
  callRequestId: finite,
  taskId: v.nullable(v.string()),
  createdStatus: v.nullable(v.string()),
  cancelRequestId: v.nullable(finite),
  cancelSentAtMs: v.nullable(finite),
  acknowledgement: v.nullable(recordedObject),
  acknowledgedAtMs: v.nullable(finite),
  polls: v.array(taskPoll),
  terminal: v.nullable(v.object({ status: v.string(), atMs: finite })),
  endedBy: v.picklist(['terminal', 'max-deadline', 'no task']),
});
const positive = v.pipe(finite, v.minValue(0));
const checkedProbeTranscript = v.object({
  scenario: v.literal('probe'),
  implementation: v.literal('probe'),
  transport: TransportSchema,
  target: v.string(),
  startedAt: v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 time')),
  server: v.object({ name: v.string(), version: v.string() }),
  protocolVersion: v.string(),
  negotiatedVia: v.picklist(['server/discover', 'initialize']),
  fallbackReason: v.nullable(v.string()),
  capabilities: recordedObject,
  tool: v.nullable(v.object({ name: v.string(), arguments: recordedObject, listed: v.nullable(recordedObject) })),
  idempotency: v.nullable(
    v.object({
      mutation: v.string(),
      keyField: v.string(),
      key: v.string(),
      concurrentKey: v.string(),
      calls: v.array(
        v.object({
          call: v.picklist(['first', 'replay', 'changed-arguments', 'no-key', 'concurrent-1', 'concurrent-2']),
          requestId: finite,
          arguments: recordedObject,
          outcome: v.picklist(['result', 'tool-error', 'error', 'no answer']),
          answer: v.nullable(recordedObject),
          atMs: finite,
        }),
      ),
    }),
  ),
  reconnectPlan: v.nullable(
    v.object({
      sendLastEventId: v.literal(false),
      firstListenId: finite,
      secondListenId: finite,
      filter: recordedObject,
      refetched: v.array(v.string()),
    }),
  ),
  /** Absent in a recording made before the probe had a tasks probe. */
  tasksOffered: v.optional(v.nullable(v.picklist(['extension', '2025-11-25']))),
  tasks: v.optional(v.nullable(ProbeTaskTraceSchema)),
  times: v.object({ cancelAfterMs: positive, observeMs: positive, idleTimeoutMs: positive, maxTimeoutMs: positive }),
  bounds: v.object({
    budgetMs: positive,
    messagesMax: positive,
    bytesMax: positive,
    messageBytesMax: positive,
    answerTimeoutMs: positive,
    startupTimeoutMs: positive,
  }),
  probes: v.array(v.string()),
  events: v.array(ProbeEventSchema),
  verdicts: v.array(ProbeVerdictSchema),
  stderr: v.string(),
  received: v.object({ messages: nonNegativeInt, bytes: nonNegativeInt }),
});
export const ProbeTranscriptSchema = checkedProbeTranscript;

/** A probe transcript as checked (a recording may lack what later probes write: recording.ts fills it in). */
export type CheckedProbeTranscript = v.InferOutput<typeof checkedProbeTranscript>;

export { RECORDING_BYTES_MAX } from '../engine/core/recordingLimits';

// ── what the page shows besides a transcript ─────────────────────────────────────────────────────

const markerSchema = v.object({
  text: v.string(),
  tone: v.picklist(['plain', 'muted', 'good', 'warn', 'bad', 'strong']),
});
/** The engine's wording of one event (describe.ts `wordEvent`): the page words nothing itself. */
export const EventWordingSchema = v.object({
  text: v.string(),
  label: v.nullable(v.string()),
  marker: v.nullable(markerSchema),
  fate: v.optional(v.string()),
});

const index = v.pipe(v.number(), v.safeInteger(), v.minValue(-1));
export const RaceFactStepsSchema = v.object({
  terminalState: index,
  finalResponse: index,
  cancellationSignal: index,
  clientIgnores: v.array(index),
});

// ── the diagram's layout (computed in the worker, sent with the run) ────────────────────────────────

export const TimeScaleSchema = v.picklist(['ordinal', 'linear']);
const LaneSchema = v.object({ id: v.string(), label: v.string(), x: finite });
const WireSchema = v.object({
  id: v.string(),
  kind: v.picklist(WIRE_KINDS),
  index: nonNegativeInt,
  seq: nonNegativeInt,
  from: v.string(),
  to: v.string(),
  x1: finite,
  y1: finite,
  x2: finite,
  y2: finite,
  labelX: finite,
  labelY: finite,
  tagX: finite,
  tagY: finite,
  label: v.string(),
  sentAtMs: finite,
  arrivesAtMs: v.nullable(finite),
  fate: v.picklist(WIRE_FATES),
  resolvedAt: nonNegativeInt,
  reason: v.nullable(v.string()),
  description: v.string(),
  /** The top of its instant's band: the key it is found by on the time axis. */
  bandY: finite,
});
const MarkerSchema = v.object({
  id: v.string(),
  index: nonNegativeInt,
  seq: nonNegativeInt,
  kind: v.string(),
  lane: v.string(),
  x: finite,
  y: finite,
  text: v.string(),
  tone: v.picklist(MARKER_TONES),
  title: v.string(),
  width: finite,
  height: finite,
  lines: v.pipe(v.number(), v.integer(), v.minValue(1)),
  look: v.picklist(MARKER_LOOKS),
  bandY: finite,
});
const TimeMarkSchema = v.object({ id: v.string(), index: nonNegativeInt, y: finite, atMs: finite });
const TimeBreakSchema = v.object({ id: v.string(), index: nonNegativeInt, y: finite, ms: finite });
const DeadlineBarSchema = v.object({
  id: v.string(),
  deadline: v.picklist(BAR_DEADLINES),
  index: nonNegativeInt,
  x: finite,
  y1: finite,
  dueAtMs: finite,
  yDue: finite,
  endIndex: v.nullable(nonNegativeInt),
  endAction: v.nullable(v.picklist(BAR_END_ACTIONS)),
  yEnd: v.nullable(finite),
});
/** The layout's lists that follow the events: a run's answer sends them in parts (see runParts.ts). */
const layoutRowEntries = {
  rowY: v.array(finite),
  wires: v.array(WireSchema),
  markers: v.array(MarkerSchema),
  times: v.array(TimeMarkSchema),
  bars: v.array(DeadlineBarSchema),
  breaks: v.array(TimeBreakSchema),
};
/** A long answer's part carries the rows packed (layoutCodec.ts): typed arrays and a string table, checked in loops over the numbers. */
const PackedListSchema = v.object({ count: nonNegativeInt, values: v.instance(Float64Array) });
export const PackedRowsSchema = v.pipe(
  v.object({
    strings: v.array(v.string()),
    rowY: v.instance(Float64Array),
    wireMarks: v.instance(Float64Array),
    messageIndexes: v.instance(Float64Array),
    resolvedSorted: v.instance(Float64Array),
    wires: PackedListSchema,
    markers: PackedListSchema,
    times: PackedListSchema,
    bars: PackedListSchema,
    breaks: PackedListSchema,
  }),
  v.check(
    (rows) => explainPackedRows(rows) === null,
    (issue) => `the packed layout rows are not well formed: ${explainPackedRows(issue.input as PackedRows) ?? ''}`,
  ),
);
const ReachSchema = v.object({ above: finite, below: finite, long: v.array(nonNegativeInt) });
const checkedLayout = v.object({
  lanes: v.array(LaneSchema),
  width: finite,
  height: finite,
  /** The time column's right edge: as wide as its widest label. */
  timeRight: finite,
  messageIndexes: v.array(nonNegativeInt),
  scale: TimeScaleSchema,
  spans: v.object({
    markers: ReachSchema,
    wires: ReachSchema,
    times: ReachSchema,
    breaks: ReachSchema,
    bars: ReachSchema,
    barLives: ReachSchema,
  }),
  wireMarks: v.array(nonNegativeInt),
  resolvedSorted: v.array(nonNegativeInt),
  ...layoutRowEntries,
});
export const DiagramLayoutSchema = v.pipe(
  checkedLayout,
  v.transform((layout): DiagramLayout => layout),
);

const settingSpecSchema = v.variant('kind', [
  v.object({
    kind: v.literal('integer'),
    min: finite,
    max: finite,
    nullable: v.optional(v.boolean()),
    unit: v.optional(v.string()),
    description: v.string(),
  }),
  v.object({ kind: v.literal('boolean'), description: v.string() }),
  v.object({ kind: v.literal('enum'), values: v.array(v.string()), description: v.string() }),
]);
const checkedScenarioInfo = v.object({
  id: v.string(),
  kind: v.picklist(['request-race', 'ledger', 'task', 'buffer', 'proxy', 'reconnect', 'herd', 'listen']),
  title: v.string(),
  topic: v.string(),
  summary: v.string(),
  requirements: v.array(v.string()),
  defaultTransport: TransportSchema,
  settings: SettingsSchema,
  settingsSpec: v.record(v.string(), settingSpecSchema),
  /** A race scenario's name while Predict is on: what races, never who wins. */
  neutralTitle: v.optional(v.string()),
});
export const ScenarioInfoSchema = v.pipe(
  checkedScenarioInfo,
  v.transform((info) => info as Omit<typeof info, 'settingsSpec'> & { settingsSpec: SettingsSpec }),
);

export const LedgerRowSchema = v.record(v.string(), v.union([v.string(), v.number(), v.null()]));
export const LedgerViewSchema = v.object({
  stored: v.boolean(),
  bytes: nonNegativeInt,
  idempotencyKeys: v.array(LedgerRowSchema),
  effects: v.array(LedgerRowSchema),
  executions: v.array(LedgerRowSchema),
  totals: v.optional(
    v.object({ idempotencyKeys: nonNegativeInt, effects: nonNegativeInt, executions: nonNegativeInt }),
  ),
  /** Which opened ledger file these rows are from: a page of rows (ledger-rows) names the same one, or the ledger changed since. */
  ledgerId: v.optional(v.string()),
  scopeNotes: v.array(v.string()),
});

/** The ledger tables the page shows, by the names LedgerView gives them. */
export const LedgerTableSchema = v.picklist(['idempotencyKeys', 'effects', 'executions']);
/** Rows one `ledger-rows` request may ask for (docs/architecture.md#a-limit-on-everything); the page asks for one page of them. */
export const LEDGER_ROWS_LIMIT_MAX = 1_000;
/** Beyond any offset a ledger of LEDGER_BYTES_MAX can reach (a row takes more than one byte). */
const LEDGER_ROWS_OFFSET_MAX = 16 * 1024 * 1024;
/** One page of a stored ledger table: `total` is the table's row count as the page was read. */
export const LedgerRowsSchema = v.object({
  table: LedgerTableSchema,
  offset: nonNegativeInt,
  rows: v.array(LedgerRowSchema),
  total: nonNegativeInt,
  /** The opened ledger file the rows are from (LedgerView's ledgerId). */
  ledgerId: v.string(),
});

/** A link's run as the worker judged it (see `resolve`): the selection, less the ordering and faults that travel beside it. */
export const ResolvedViewSchema = v.object({
  ...v.omit(RunSelectionSchema, ['schedule', 'faults']).entries,
  seed: finite,
});
export const ViewProblemSchema = v.object({
  param: v.string(),
  value: v.string(),
  code: v.string(),
  message: v.string(),
});

const bytes = v.custom<Uint8Array>((value) => value instanceof Uint8Array, 'must be a Uint8Array');

const checkedVerificationResult = v.object({
  id: v.string(),
  statement: v.string(),
  holds: v.boolean(),
  evidence: v.array(
    v.object({ scenario: v.string(), transport: TransportSchema, seq: v.nullable(nonNegativeInt), detail: v.string() }),
  ),
  problems: v.array(v.string()),
  runs: nonNegativeInt,
  scope: v.string(),
});
export const VerificationResultSchema = v.pipe(
  checkedVerificationResult,
  v.transform((result): VerificationResult => result),
);

/** A catalogued failure's run: its scenario, and the transport and settings it is run with where not the defaults. */
const runLink = v.object({
  ...v.pick(RunSelectionSchema, ['scenario']).entries,
  ...v.partial(v.pick(RunSelectionSchema, ['transport', 'settings'])).entries,
});
/** The requirements a review's rule enforces, as the reviewer lists them (read-only). */
const requirementIds = v.custom<readonly string[]>(
  (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  'must be a list of requirement ids',
);
const ReviewInner = v.object({
  operation: v.string(),
  raceTable: v.array(v.object({ ordering: v.string(), server: v.string(), client: v.string(), wire: v.string() })),
  retryClassification: v.object({
    operation: v.string(),
    retryClass: v.picklist(['safe', 'conditional', 'unsafe']),
    rule: v.string(),
    hintWarnings: v.array(v.string()),
  }),
  idempotencyBoundary: v.array(v.string()),
  flowControl: v.array(
    v.object({ check: v.string(), ok: v.boolean(), detail: v.string(), id: v.string(), requirements: requirementIds }),
  ),
  flags: v.array(
    v.object({
      field: v.string(),
      severity: v.picklist(['unsafe', 'warning']),
      reason: v.string(),
      card: v.nullable(v.string()),
      rule: v.string(),
      requirements: requirementIds,
    }),
  ),
  failureCards: v.array(
    v.object({
      id: v.string(),
      failure: v.string(),
      symptom: v.string(),
      correctResponse: v.string(),
      failureRun: runLink,
      fixRun: runLink,
    }),
  ),
});
const checkedReviewResult = v.variant('ok', [
  v.object({ ok: v.literal(true), review: ReviewInner }),
  v.object({
    ok: v.literal(false),
    errors: v.array(v.object({ field: v.string(), message: v.string() })),
    errorsTotal: v.optional(nonNegativeInt),
  }),
]);
export const ReviewResultSchema = v.pipe(
  checkedReviewResult,
  v.transform((result): ReviewResult => result),
);

const bufferRefusal = v.object({
  summary: v.string(),
  refusedAtMs: finite,
  releasedAtMs: finite,
  heldMs: finite,
  seq: nonNegativeInt,
});
const bufferPoint = v.object({
  seq: nonNegativeInt,
  atMs: finite,
  occupancyEvents: nonNegativeInt,
  action: bufferAction,
  what: v.picklist(['progress', 'final']),
  summary: v.string(),
});
const checkedPanelView = v.variant('kind', [
  v.object({
    kind: v.literal('buffer'),
    capacityEvents: nonNegativeInt,
    maxOccupancy: nonNegativeInt,
    dropped: nonNegativeInt,
    coalesced: nonNegativeInt,
    needsRefetch: v.boolean(),
    finalDelivered: v.boolean(),
    points: v.array(bufferPoint),
    finals: v.array(bufferPoint),
    refetchMark: v.nullable(bufferPoint),
    refusedPushes: nonNegativeInt,
    producerHeldMs: finite,
    refusals: v.array(bufferRefusal),
  }),
  v.object({
    kind: v.literal('herd'),
    ...outcomeSchemas.herd.entries,
    policy: v.string(),
    baseMs: finite,
    capMs: finite,
  }),
  v.object({
    kind: v.literal('task'),
    scenario: v.string(),
    outcome: outcomeSchemas.task,
    rows: v.array(
      v.object({
        seq: nonNegativeInt,
        atMs: finite,
        action: taskAction,
        status: v.nullable(taskStatus),
        detail: v.string(),
      }),
    ),
  }),
  v.object({
    kind: v.literal('proxy'),
    honourNoBuffering: v.boolean(),
    keepAliveEveryMs: v.nullable(finite),
    idleTimeoutMs: v.nullable(finite),
    outcome: outcomeSchemas.proxy,
  }),
  v.object({ kind: v.literal('reconnect'), outcome: outcomeSchemas.reconnect }),
]);
export const PanelViewSchema = v.pipe(
  checkedPanelView,
  v.transform((view): PanelView => view),
);

const checkedFailureMode = v.object({
  id: v.string(),
  failure: v.string(),
  symptom: v.string(),
  correctResponse: v.string(),
  failureRun: runLink,
  fixRun: runLink,
  failureShown: v.boolean(),
  fixShown: v.boolean(),
  failureDetail: v.string(),
  fixDetail: v.string(),
  problems: v.array(v.string()),
});
/** A catalogued failure mode's failure run and fix run, each checked from its transcript. */
export const FailureModeResultSchema = v.pipe(
  checkedFailureMode,
  v.transform((result): FailureModeResult => result),
);

// ── page → worker ────────────────────────────────────────────────────────────────────────────────

const id = int;

export const RunRequestSchema = v.object({
  type: v.literal('run'),
  requestId: id,
  ...RunSelectionSchema.entries,
  /** `fresh`: a new empty ledger; `kept`: the one stored in the browser, saved back after a completed run. */
  ledger: v.picklist(['fresh', 'kept']),
  /** The diagram's time axis to lay the run out on (ordinal when absent). */
  scale: v.optional(TimeScaleSchema),
});

/** The part of the selection an exploration reads: it runs the model in every ordering, so no implementation, ordering or faults. */
export const ExploredRunSchema = v.pick(RunSelectionSchema, ['scenario', 'transport', 'seed', 'settings']);

/** Runs the scenario in every ordering; `explore-progress` reports come first, then one `exploration`. */
export const ExploreRequestSchema = v.object({
  type: v.literal('explore'),
  requestId: id,
  ...ExploredRunSchema.entries,
  bound: v.pipe(v.number(), v.safeInteger(), v.minValue(1), v.maxValue(10_000_000)),
});

/** The diagram of a run this worker answered (by that run's requestId) on another time axis: the Linear time toggle. */
export const LayoutRequestSchema = v.object({
  type: v.literal('layout'),
  requestId: id,
  run: id,
  scale: TimeScaleSchema,
});

/** The longest query an `open` request carries (the early start sends a longer link's run the usual way). */
export const OPEN_SEARCH_CHARS_MAX = 65_536;

/**
 * The page's link, sent by the built page's early start (labWorker.ts) before the page has booted: the
 * worker reads it as the page will (worker/link.ts) and answers `opened` (the scenarios, the link's
 * values as `resolve` judges them, the run the page's store will ask for first); when that names a run,
 * `opened` comes first as a report, and the run's own answer (a `transcript`, or its error) follows.
 */
export const OpenRequestSchema = v.object({
  type: v.literal('open'),
  requestId: id,
  search: v.pipe(v.string(), v.maxLength(OPEN_SEARCH_CHARS_MAX)),
});

/** Requests the engine worker answers. */
export const labRequestSchemas = [
  RunRequestSchema,
  OpenRequestSchema,
  LayoutRequestSchema,
  ExploreRequestSchema,
  v.object({ type: v.literal('list'), requestId: id }),
  v.object({ type: v.literal('resolve'), requestId: id, params: v.record(v.string(), v.string()) }),
  v.object({ type: v.literal('ledger-snapshot'), requestId: id }),
  v.object({ type: v.literal('ledger-import'), requestId: id, bytes }),
  v.object({ type: v.literal('ledger-export'), requestId: id }),
  v.object({ type: v.literal('ledger-reset'), requestId: id }),
  /** A `lab probe --json` file to draw like a run: the worker checks it (ProbeTranscriptSchema) and answers a `transcript`. */
  v.object({ type: v.literal('recording'), requestId: id, scale: v.optional(TimeScaleSchema), bytes }),
  /** Rows `offset`… of one table of the stored ledger, in the order the Ledger section shows them. */
  v.object({
    type: v.literal('ledger-rows'),
    requestId: id,
    table: LedgerTableSchema,
    offset: v.pipe(nonNegativeInt, v.maxValue(LEDGER_ROWS_OFFSET_MAX)),
    limit: v.pipe(nonNegativeInt, v.minValue(1), v.maxValue(LEDGER_ROWS_LIMIT_MAX)),
  }),
] as const;

/** Compare's runs, each a run spec (`C:impl=ts-sdk,transport=http`), as long as the parser accepts. */
const runSpecText = v.pipe(v.string(), v.maxLength(RUN_SPEC_CHARS_MAX));

/** The student's code as the Exercises tab sends it (a module of a few hundred lines at most). */
export const EXERCISE_CODE_CHARS_MAX = 200_000;
const exerciseId = v.pipe(v.string(), v.maxLength(64));
const exerciseCode = v.pipe(v.string(), v.maxLength(EXERCISE_CODE_CHARS_MAX));
/** `step` and `events` are numbers, not safe integers: an ordering that cannot run to its end breaks "at the end" (Number.MAX_SAFE_INTEGER, grade.ts). */
const FailingRunSchema = v.object({
  scenario: v.string(),
  transport: TransportSchema,
  settings: unknownRecord,
  schedule: v.string(),
  step: v.pipe(finite, v.minValue(0)),
  atMs: finite,
  events: v.pipe(finite, v.minValue(0)),
});
/** One ordering of one of an exercise's runs to replay with the student's component: the CheckReport's FailingRun as the page was given it, its schedule bounded. */
const ReplayedFailingRunSchema = v.object({
  ...FailingRunSchema.entries,
  schedule: v.pipe(v.string(), v.maxLength(SCHEDULE_CHARS_MAX)),
});

/** Requests of the Exercises tab (answered by a tools worker of its own, with QuickJS loaded on first use). */
export const exerciseRequestSchemas = [
  v.object({ type: v.literal('exercises'), requestId: id }),
  /** grade(): every statement of the exercise over the student's code, in every ordering of its runs. */
  v.object({ type: v.literal('exercise-check'), requestId: id, exercise: exerciseId, code: exerciseCode }),
  /** One ordering replayed with a fresh instance of the student's component: the transcript the diagram draws. */
  v.object({
    type: v.literal('exercise-run'),
    requestId: id,
    exercise: exerciseId,
    code: exerciseCode,
    run: ReplayedFailingRunSchema,
  }),
] as const;

/** Requests the tools worker answers. */
export const toolRequestSchemas = [
  v.object({ type: v.literal('verify'), requestId: id }),
  v.object({ type: v.literal('evidence'), requestId: id }),
  /** The reviewer as a skill folder, zipped. */
  v.object({ type: v.literal('skill'), requestId: id }),
  v.object({ type: v.literal('review'), requestId: id, input: v.unknown() }),
  /** A panel's run: the model's seeded run of a selection (a panel draws the model, so no implementation, ordering or faults). */
  v.object({ type: v.literal('panel'), requestId: id, ...ExploredRunSchema.entries }),
  v.object({
    type: v.literal('compare'),
    requestId: id,
    runs: v.union([v.tuple([runSpecText, runSpecText]), v.tuple([runSpecText, runSpecText, runSpecText])]),
    /** A run that is not a spec: one probe of an opened recording, standing for the run written `spec`. */
    recorded: v.optional(v.object({ spec: runSpecText, probe: v.string(), transcript: TranscriptSchema })),
  }),
  ...exerciseRequestSchemas,
] as const;

export const LabRequestSchema = v.variant('type', labRequestSchemas);
export const ToolRequestSchema = v.variant('type', toolRequestSchemas);

// ── worker → page ────────────────────────────────────────────────────────────────────────────────

/**
 * `code`: a LabError code (LAB0xx/LAB1xx, kept end to end from the engine), LAB008 for a message a
 * worker could not read, STORAGE when IndexedDB refused, INTERNAL for anything else (a bug).
 */
export const WorkerErrorCodeSchema = v.pipe(
  v.string(),
  v.regex(/^(LAB\d{3}|STORAGE|INTERNAL)$/, 'must be a catalogued LAB code, STORAGE or INTERNAL'),
  v.transform((code) => code as LabErrorCode | 'STORAGE' | 'INTERNAL'),
);

export const ErrorResponseSchema = v.object({
  type: v.literal('error'),
  requestId: v.nullable(id),
  code: WorkerErrorCodeSchema,
  message: v.string(),
});
export const ProgressResponseSchema = v.object({
  type: v.literal('progress'),
  requestId: id,
  eventsRun: nonNegativeInt,
  atMs: finite,
});
/** How far an exploration got: states visited, orderings told apart, violations found, an estimated fraction done. */
export const ExploreProgressSchema = v.object({
  type: v.literal('explore-progress'),
  requestId: id,
  states: nonNegativeInt,
  schedules: nonNegativeInt,
  violations: nonNegativeInt,
  fraction: v.pipe(finite, v.minValue(0), v.maxValue(1)),
});
/** How far the engine worker got opening a recording: the stage it is in, and how many of the file's events it has done. */
export const RecordingProgressSchema = v.object({
  type: v.literal('recording-progress'),
  requestId: id,
  stage: v.picklist(['checking', 'converting', 'wording', 'laying out']),
  done: nonNegativeInt,
  total: nonNegativeInt,
});
/** The longest `statement` a progress report carries: a checklist statement's id (VF-5) or an evidence artifact's file name. */
export const PROGRESS_STATEMENT_CHARS_MAX = 40;
/** How far the checklist (or the evidence export) got: distinct runs made of those it makes, and the statement being checked (VF-5) or the file being built. */
export const VerifyProgressSchema = v.object({
  type: v.literal('verify-progress'),
  requestId: id,
  runsDone: nonNegativeInt,
  runsTotal: nonNegativeInt,
  statement: v.pipe(v.string(), v.maxLength(PROGRESS_STATEMENT_CHARS_MAX)),
});

const anyOutcome = v.union(Object.values(outcomeSchemas));
/** The invariants' contract names, as the explorer checks them. */
const invariantName = v.picklist(INVARIANTS);
/** An exploration: every ending's `outcome` is a run outcome, the type a run's transcript carries (null when the ending is a failure). */
const checkedExploreResult = v.object({
  scenario: v.string(),
  kind: v.picklist(Object.keys(outcomeSchemas) as (keyof typeof outcomeSchemas)[]),
  transport: TransportSchema,
  settings: SettingsSchema,
  schedules: nonNegativeInt,
  states: nonNegativeInt,
  complete: v.boolean(),
  endings: v.array(
    v.object({
      outcome: v.nullable(anyOutcome),
      distinct: unknownRecord,
      error: v.optional(v.string()),
      count: nonNegativeInt,
      schedule: v.string(),
    }),
  ),
  violations: v.array(
    v.object({
      invariant: invariantName,
      schedule: v.string(),
      step: nonNegativeInt,
      explanation: v.string(),
    }),
  ),
  shortest: v.array(
    v.object({
      invariant: invariantName,
      schedule: v.string(),
      step: nonNegativeInt,
      atMs: v.number(),
      explanation: v.string(),
      explored: v.string(),
      faults: v.optional(v.string()),
    }),
  ),
  verdict: v.string(),
});
export const ExploreResultSchema = v.pipe(
  checkedExploreResult,
  v.transform((result): ExploreResult => result),
);

/**
 * One part of a long answer (a run's or a layout's), sent before it: the events, their wording and
 * the layout's rows from event `from` on. Each part is checked as it arrives, so no single message
 * takes the page long to read; the answer then says how many parts it had (`parts`).
 */
export const RunPartSchema = v.object({
  type: v.literal('run-part'),
  requestId: id,
  from: nonNegativeInt,
  events: v.pipe(
    v.array(EventSchema),
    v.transform((events): LabEvent[] => events),
  ),
  wording: v.array(EventWordingSchema),
  layout: v.nullable(PackedRowsSchema),
});
const parts = v.optional(nonNegativeInt);

const RaceViewSchema = v.object({
  question: v.string(),
  contenders: v.tuple([v.string(), v.string()]),
  answers: v.pipe(
    v.array(
      v.object({ value: v.string(), label: v.string(), why: v.string(), winner: v.nullable(v.picklist([0, 1])) }),
    ),
    v.minLength(2),
    v.maxLength(4),
  ),
  location: v.object({
    point: nonNegativeInt,
    decidingIndex: nonNegativeInt,
    answer: v.string(),
    contenderIndexes: v.tuple([nonNegativeInt, nonNegativeInt]),
  }),
});

/**
 * What the worker read of the page's link (an `open` request): the scenarios (what `list` answers), the
 * link's params with their values as `resolve` judges them (null: the link names none), and the run the
 * page's store asks for first on that link, as a run request less its envelope (null: none is started).
 */
export const OpenedSchema = v.object({
  type: v.literal('opened'),
  requestId: id,
  scenarios: v.array(ScenarioInfoSchema),
  link: v.nullable(
    v.object({
      params: v.record(v.string(), v.string()),
      view: ResolvedViewSchema,
      problems: v.array(ViewProblemSchema),
    }),
  ),
  run: v.nullable(v.omit(RunRequestSchema, ['type', 'requestId'])),
});

export const labResponseSchemas = [
  v.object({
    type: v.literal('transcript'),
    requestId: id,
    transcript: TranscriptSchema,
    facts: v.nullable(RaceFactStepsSchema),
    /** Predict mode's race in the run (worker/race.ts); absent or null: none. */
    race: v.optional(v.nullable(RaceViewSchema)),
    wording: v.array(EventWordingSchema),
    /** The diagram of the run, laid out in the worker on the scale the run asked for. */
    layout: DiagramLayoutSchema,
    parts,
  }),
  v.object({ type: v.literal('layout'), requestId: id, layout: DiagramLayoutSchema, parts }),
  RunPartSchema,
  ProgressResponseSchema,
  ExploreProgressSchema,
  RecordingProgressSchema,
  v.object({ type: v.literal('exploration'), requestId: id, result: ExploreResultSchema }),
  v.object({ type: v.literal('scenarios'), requestId: id, scenarios: v.array(ScenarioInfoSchema) }),
  OpenedSchema,
  v.object({
    type: v.literal('resolved'),
    requestId: id,
    view: ResolvedViewSchema,
    problems: v.array(ViewProblemSchema),
  }),
  v.object({ type: v.literal('ledger'), requestId: id, ledger: LedgerViewSchema }),
  v.object({ type: v.literal('ledger-file'), requestId: id, bytes }),
  v.object({ type: v.literal('ledger-rows'), requestId: id, page: LedgerRowsSchema }),
  ErrorResponseSchema,
] as const;

const checkedComparison = v.object({
  facts: v.array(v.object({ name: v.string(), a: v.string(), b: v.string(), differs: v.boolean() })),
  divergence: v.nullable(
    v.object({
      atMs: finite,
      indexA: v.nullable(nonNegativeInt),
      indexB: v.nullable(nonNegativeInt),
      a: v.nullable(v.string()),
      b: v.nullable(v.string()),
    }),
  ),
  note: v.string(),
});
const comparedRun = v.object({ spec: v.string(), transcript: TranscriptSchema, wording: v.array(EventWordingSchema) });
const divergenceSchema = v.nullable(
  v.object({
    atMs: finite,
    indexA: v.nullable(nonNegativeInt),
    indexB: v.nullable(nonNegativeInt),
    a: v.nullable(v.string()),
    b: v.nullable(v.string()),
  }),
);
/** Three runs: every run's facts in one table, and where each pair parts. */
const checkedMany = v.object({
  facts: v.array(v.object({ name: v.string(), values: v.array(v.string()), differs: v.boolean() })),
  pairs: v.array(v.object({ a: nonNegativeInt, b: nonNegativeInt, divergence: divergenceSchema, note: v.string() })),
});

const StatementSchema = v.object({ id: v.string(), text: v.string(), requirements: v.array(v.string()) });
const ComponentCallSchema = v.object({ atMs: finite, call: v.string(), returned: v.string() });
const checkedCheckReport = v.object({
  exercise: v.string(),
  statements: v.array(
    v.object({
      id: v.string(),
      holds: v.boolean(),
      explanation: v.optional(v.string()),
      failing: v.optional(FailingRunSchema),
      calls: v.optional(v.array(ComponentCallSchema)),
    }),
  ),
  orderings: nonNegativeInt,
  states: nonNegativeInt,
  elapsedMs: finite,
  complete: v.boolean(),
  error: v.optional(
    v.object({
      kind: v.picklist(['syntax', 'exception', 'budget', 'shape', 'missing-export', 'process']),
      message: v.string(),
      line: v.optional(int),
      column: v.optional(int),
      where: v.optional(FailingRunSchema),
    }),
  ),
  passed: v.boolean(),
});
export const CheckReportSchema = v.pipe(
  checkedCheckReport,
  v.transform((report): CheckReport => report),
);
const ExerciseListingSchema = v.object({
  id: v.string(),
  title: v.string(),
  summary: v.string(),
  exports: v.array(v.string()),
  statements: v.array(StatementSchema),
  starter: v.string(),
});

export const toolResponseSchemas = [
  VerifyProgressSchema,
  v.object({
    type: v.literal('verification'),
    requestId: id,
    results: v.array(VerificationResultSchema),
    failureModes: v.array(FailureModeResultSchema),
  }),
  v.object({
    type: v.literal('evidence-zip'),
    requestId: id,
    files: v.array(v.object({ path: v.string(), description: v.string() })),
    bytes,
  }),
  v.object({
    type: v.literal('skill-zip'),
    requestId: id,
    files: v.array(v.object({ path: v.string(), description: v.string() })),
    bytes,
  }),
  v.object({ type: v.literal('review-result'), requestId: id, result: ReviewResultSchema }),
  v.object({ type: v.literal('panel-view'), requestId: id, view: PanelViewSchema }),
  v.object({
    type: v.literal('comparison'),
    requestId: id,
    runs: v.union([v.tuple([comparedRun, comparedRun]), v.tuple([comparedRun, comparedRun, comparedRun])]),
    comparison: checkedComparison,
    many: v.optional(checkedMany),
  }),
  v.object({ type: v.literal('exercise-list'), requestId: id, exercises: v.array(ExerciseListingSchema) }),
  v.object({ type: v.literal('exercise-report'), requestId: id, report: CheckReportSchema }),
  /** A replayed ordering: its transcript and wording, the calls into the student's code, or why the run stopped (then no transcript). */
  v.object({
    type: v.literal('exercise-transcript'),
    requestId: id,
    transcript: v.nullable(TranscriptSchema),
    wording: v.array(EventWordingSchema),
    calls: v.array(ComponentCallSchema),
    failure: v.nullable(v.string()),
  }),
  ErrorResponseSchema,
] as const;

export const LabResponseSchema = v.variant('type', labResponseSchemas);
export const ToolResponseSchema = v.variant('type', toolResponseSchemas);

// ── checking ─────────────────────────────────────────────────────────────────────────────────────

/** A readable reason from the first issues, naming the path (e.g. `transcript.events.12.kind`). */
export function explainIssues(issues: readonly v.BaseIssue<unknown>[], prefix: string | null = null): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const inner = v.getDotPath(issue);
      // A value checked on its own (one event of a recording) is named by its place in the whole.
      const path = prefix === null ? inner : inner === null ? prefix : `${prefix}.${inner}`;
      return path === null ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Checks `value` against `schema` and returns the value itself (not valibot's copy: a transcript of
 * 100,000 events is checked, never duplicated), or the reason it is refused. So every `v.transform` in
 * these schemas is the identity that names the engine's type: a transform that changed a value would
 * never run (old recordings are filled in by `src/worker/recording.ts`, after the check).
 */
export function check<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
): { ok: true; value: v.InferOutput<S> } | { ok: false; problem: string } {
  // The fast predicate says yes only when valibot would (quickCheck.ts); valibot words a refusal.
  if (passes(schema)(value)) return { ok: true, value: value as v.InferOutput<S> };
  const result = v.safeParse(schema, value, { abortEarly: true });
  return result.success
    ? { ok: true, value: value as v.InferOutput<S> }
    : { ok: false, problem: explainIssues(result.issues) };
}

// ── the engine's types and these schemas agree (checked by the compiler) ────────────────────────

type Assignable<A, B> = [A] extends [B] ? true : false;
/** Every event the engine records passes the event schema's shape. */
export const eventsAgree: Assignable<LabEvent, v.InferInput<typeof EventSchema>> = true;
/** Every outcome the engine reports passes one of the outcome schemas. */
export const outcomesAgree: Assignable<
  Outcome,
  v.InferInput<(typeof outcomeSchemas)[keyof typeof outcomeSchemas]>
> = true;
/** Every transcript the engine builds passes the transcript schema. */
export const transcriptsAgree: Assignable<Transcript, v.InferInput<typeof checkedTranscript>> = true;
/**
 * The other way, field by field: assignability alone lets a schema leave out a field the engine writes
 * (valibot then drops it, and the page reads undefined). For every event kind and every model's outcome,
 * the engine's fields and the schema's are the same set, optional fields included: a field added on one
 * side only fails the type-check here, naming the kind and the field.
 */
type SchemaEvent = v.InferInput<typeof EventSchema>;
/** The engine's event of kind K (one engine interface may declare two kinds, as cancel-accepted and cancel-ignored do). */
type EngineEvent<K> = LabEvent extends infer E
  ? E extends { kind: infer EK }
    ? K extends EK
      ? E
      : never
    : never
  : never;
type EventFieldDrift = {
  [K in LabEvent['kind']]: {
    onlyInEngine: Exclude<keyof EngineEvent<K>, keyof Extract<SchemaEvent, { kind: K }>>;
    onlyInSchema: Exclude<keyof Extract<SchemaEvent, { kind: K }>, keyof EngineEvent<K>>;
  };
};
type OutcomeFieldDrift = {
  [K in keyof OutcomeByKind]: {
    onlyInEngine: Exclude<keyof OutcomeByKind[K], keyof v.InferInput<(typeof outcomeSchemas)[K]>>;
    onlyInSchema: Exclude<keyof v.InferInput<(typeof outcomeSchemas)[K]>, keyof OutcomeByKind[K]>;
  };
};
type NoDrift<T> = { [K in keyof T]: { onlyInEngine: never; onlyInSchema: never } };
export const eventFieldsAgree: EventFieldDrift extends NoDrift<EventFieldDrift> ? true : EventFieldDrift = true;
export const outcomeFieldsAgree: OutcomeFieldDrift extends NoDrift<OutcomeFieldDrift> ? true : OutcomeFieldDrift = true;
/** Every event kind the engine declares has a schema, and no schema checks a kind the engine lacks. */
export const eventKindsAgree: [LabEvent['kind'], SchemaEvent['kind']] extends [SchemaEvent['kind'], LabEvent['kind']]
  ? true
  : false = true;
/** And the tools' results. */
export const panelsAgree: Assignable<PanelView, v.InferInput<typeof checkedPanelView>> = true;
export const reviewsAgree: Assignable<ReviewResult, v.InferInput<typeof checkedReviewResult>> = true;
export const verificationsAgree: Assignable<VerificationResult, v.InferInput<typeof checkedVerificationResult>> = true;
export const comparisonsAgree: Assignable<RunComparison, v.InferInput<typeof checkedComparison>> = true;
export const explorationsAgree: Assignable<ExploreResult, v.InferInput<typeof checkedExploreResult>> = true;
export const failureModesAgree: Assignable<FailureModeResult, v.InferInput<typeof checkedFailureMode>> = true;
/** What `lab probe --json` writes passes the recording's check. */
export const probeTranscriptsAgree: Assignable<ProbeTranscript, v.InferInput<typeof checkedProbeTranscript>> = true;
/** And the diagram's layout. */
export const layoutsAgree: Assignable<DiagramLayout, v.InferInput<typeof checkedLayout>> = true;

/**
 * The run selection and the lab's run description have the same fields, both ways: a field added to
 * `RunSpec` and not to `RunSelectionSchema` (or the other way) fails the type-check here. Each field
 * carries the selection's type (`impl`, `transport` and `seed` may be absent on the wire, where the
 * worker fills in the defaults).
 */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type RunSelectionOutput = v.InferOutput<typeof RunSelectionSchema>;
type FieldTypes<T> = { -readonly [K in keyof T]-?: Exclude<T[K], undefined> };
export const runSelectionFieldsAgree: Equals<keyof RunSelectionOutput, keyof RunSpec> = true;
/** And the parsed faults are the engine's, both ways. */
export const faultsAgree: Equals<v.InferOutput<typeof FaultsSchema>, readonly MessageFault[]> = true;
export const runSelectionTypesAgree: Equals<FieldTypes<RunSelectionOutput>, FieldTypes<RunSelection>> = true;
