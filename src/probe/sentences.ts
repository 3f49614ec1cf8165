/**
 * The sentences of the MCP specification the probe checks, quoted word for word from the
 * specification pages of each revision (modelcontextprotocol/modelcontextprotocol,
 * docs/specification/<revision>/…). Where a revision has no sentence for a check the lesson makes
 * (RV-1's `Cache-Control` and, before 2026-07-28, `X-Accel-Buffering`), the verdict says the
 * lesson asks for it, never the specification.
 */
export interface Sentence {
  /** The revision the quote is from, or `lesson` for the lab's own requirements (docs/requirements.md). */
  revision: '2026-07-28' | '2025-11-25' | 'lesson';
  /** The requirement level the sentence uses (`MAY`: a permission the probe shows it respected, never a defect). */
  level: 'MUST' | 'MUST NOT' | 'REQUIRED' | 'SHOULD' | 'SHOULD NOT' | 'encouraged' | 'MAY';
  /** The page, relative to docs/specification/<revision>/ (or the lab's requirement id, or the extension's page). */
  page: string;
  text: string;
}

const s = (revision: Sentence['revision'], level: Sentence['level'], page: string, text: string): Sentence => ({
  revision,
  level,
  page,
  text,
});

const CANCEL_26 = 'basic/patterns/cancellation';
const CANCEL_25 = 'basic/utilities/cancellation';
const PROGRESS_26 = 'basic/patterns/progress';
const PROGRESS_25 = 'basic/utilities/progress';
const HTTP_26 = 'basic/transports/streamable-http';
const HTTP_25 = 'basic/transports';
const BASIC_26 = 'basic/index';
const BASIC_25 = 'basic/index';
const TASKS_25 = 'basic/utilities/tasks';
/** The tasks extension of 2026-07-28 (modelcontextprotocol/experimental-ext-tasks, docs/specification/draft/tasks.mdx). */
const TASKS_EXT = 'io.modelcontextprotocol/tasks extension (draft), tasks';

/**
 * Whether a verdict on this level is a MUST: not meeting it is `broken`; not meeting a SHOULD or an
 * encouragement is `not followed`. Only MUST breaks set the probe's exit status.
 */
export const isMustLevel = (level: Sentence['level']): boolean =>
  level === 'MUST' || level === 'MUST NOT' || level === 'REQUIRED';

export const SENTENCES = {
  '2026-07-28': {
    stopProcessing: s(
      '2026-07-28',
      'SHOULD',
      CANCEL_26,
      'Servers receiving cancellation notifications **SHOULD**: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request',
    ),
    noResponse: s(
      '2026-07-28',
      'SHOULD',
      CANCEL_26,
      'Servers receiving cancellation notifications **SHOULD**: … Not send a response for the cancelled request',
    ),
    closeIsCancel: s(
      '2026-07-28',
      'MUST',
      HTTP_26,
      'Closing the SSE response stream **MUST** be treated by the server as cancellation of that request. … The server **SHOULD** stop work on the cancelled request as soon as practical and **MUST NOT** send any further messages for it.',
    ),
    ignoreInvalid: s(
      '2026-07-28',
      'SHOULD',
      CANCEL_26,
      'Invalid cancellation notifications **SHOULD** be ignored: Unknown request IDs; Already completed requests; Malformed notifications',
    ),
    progressIncreases: s(
      '2026-07-28',
      'MUST',
      PROGRESS_26,
      'The `progress` value **MUST** increase with each notification, even if the total is unknown.',
    ),
    progressStops: s('2026-07-28', 'MUST', PROGRESS_26, 'Progress notifications **MUST** stop after completion'),
    finalEndsStream: s(
      '2026-07-28',
      'SHOULD',
      HTTP_26,
      'The final JSON-RPC _response_ **SHOULD** terminate the stream.',
    ),
    notification202: s(
      '2026-07-28',
      'MUST',
      HTTP_26,
      'If the body is a JSON-RPC _notification_: If the server accepts it, the server **MUST** return HTTP status code `202 Accepted` with no body.',
    ),
    requestContentType: s(
      '2026-07-28',
      'MUST',
      HTTP_26,
      'If the body is a JSON-RPC _request_, the server **MUST** return either `Content-Type: application/json` (a single JSON object) or `Content-Type: text/event-stream` (an SSE response stream).',
    ),
    xAccel: s(
      '2026-07-28',
      'SHOULD',
      HTTP_26,
      'When initiating an SSE stream, servers **SHOULD** include the `X-Accel-Buffering: no` header in the HTTP response.',
    ),
    keepAlive: s(
      '2026-07-28',
      'encouraged',
      HTTP_26,
      'For long-lived streams … servers are encouraged to periodically emit an SSE comment line (a line beginning with a colon, e.g. `:\\r\\n`) as a keep-alive.',
    ),
    notificationNoResponse: s(
      '2026-07-28',
      'MUST NOT',
      BASIC_26,
      'Notifications are sent from the client to the server or vice versa, as a one-way message. The receiver **MUST NOT** send a response.',
    ),
    headers: s(
      '2026-07-28',
      'MUST',
      HTTP_26,
      'Every POST request to the MCP endpoint **MUST** include an `MCP-Protocol-Version` header. … `Mcp-Method` (All requests), `Mcp-Name` (`tools/call`, `resources/read`, `prompts/get` requests): These headers are **REQUIRED** for compliance.',
    ),
  },
  '2025-11-25': {
    stopProcessing: s(
      '2025-11-25',
      'SHOULD',
      CANCEL_25,
      'Receivers of cancellation notifications **SHOULD**: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request',
    ),
    noResponse: s(
      '2025-11-25',
      'SHOULD',
      CANCEL_25,
      'Receivers of cancellation notifications **SHOULD**: … Not send a response for the cancelled request',
    ),
    closeIsCancel: s(
      '2025-11-25',
      'SHOULD NOT',
      HTTP_25,
      'Disconnection **SHOULD NOT** be interpreted as the client cancelling its request. To cancel, the client **SHOULD** explicitly send an MCP `CancelledNotification`.',
    ),
    ignoreInvalid: s(
      '2025-11-25',
      'SHOULD',
      CANCEL_25,
      'Invalid cancellation notifications **SHOULD** be ignored: Unknown request IDs; Already completed requests; Malformed notifications',
    ),
    progressIncreases: s(
      '2025-11-25',
      'MUST',
      PROGRESS_25,
      'The `progress` value **MUST** increase with each notification, even if the total is unknown.',
    ),
    progressStops: s('2025-11-25', 'MUST', PROGRESS_25, 'Progress notifications **MUST** stop after completion'),
    finalEndsStream: s(
      '2025-11-25',
      'SHOULD',
      HTTP_25,
      'After the JSON-RPC _response_ has been sent, the server **SHOULD** terminate the SSE stream.',
    ),
    notification202: s(
      '2025-11-25',
      'MUST',
      HTTP_25,
      'If the input is a JSON-RPC _response_ or _notification_: If the server accepts the input, the server **MUST** return HTTP status code 202 Accepted with no body.',
    ),
    requestContentType: s(
      '2025-11-25',
      'MUST',
      HTTP_25,
      'If the input is a JSON-RPC _request_, the server **MUST** either return `Content-Type: text/event-stream`, to initiate an SSE stream, or `Content-Type: application/json`, to return one JSON object.',
    ),
    xAccel: s(
      'lesson',
      'SHOULD',
      'RV-1',
      'SSE response headers: `Content-Type: text/event-stream`, `Cache-Control: no-cache`, `X-Accel-Buffering: no` (so compatible reverse proxies forward events at once). — 2025-11-25 has no sentence on X-Accel-Buffering; 2026-07-28 makes it a SHOULD.',
    ),
    keepAlive: s(
      'lesson',
      'encouraged',
      'RV-2',
      'Long quiet streams emit a periodic SSE comment line (`:`); clients ignore it, intermediaries see traffic. — 2025-11-25 has no sentence on keep-alive comments.',
    ),
    notificationNoResponse: s(
      '2025-11-25',
      'MUST NOT',
      BASIC_25,
      'Notifications are sent from the client to the server or vice versa, as a one-way message. The receiver **MUST NOT** send a response.',
    ),
    headers: s(
      '2025-11-25',
      'MUST',
      HTTP_25,
      'If using HTTP, the client **MUST** include the `MCP-Protocol-Version: <protocol-version>` HTTP header on all subsequent requests to the MCP server',
    ),
  },
  lesson: {
    cacheControl: s(
      'lesson',
      'SHOULD',
      'RV-1',
      'SSE response headers: `Content-Type: text/event-stream`, `Cache-Control: no-cache`, `X-Accel-Buffering: no`. — no revision of the specification names `Cache-Control`; the lesson asks for it so that no cache holds an event.',
    ),
    progressAtMostTotal: s(
      'lesson',
      'SHOULD',
      'RC-3',
      'Progress values for one token strictly increase … — the specification defines `total` as the total progress required, if known, and states no rule; the lesson checks that `progress` never passes it.',
    ),
    cancelNotAnswered: s(
      'lesson',
      'MUST',
      'RC-5',
      'stdio: the client sends the notification … It is fire-and-forget: nobody answers it.',
    ),
    oneResponse: s(
      'lesson',
      'MUST',
      'RC-8',
      'The race has two valid orders and the server stores exactly one terminal state. … — JSON-RPC 2.0 answers a request with a Response; a second one for the same id gives the client two outcomes of one request.',
    ),
    taskAckNotEnd: s(
      'lesson',
      'MUST',
      'TK-1, TK-2',
      'A successful `tasks/cancel` does not prove the worker stopped: the task stays `working` until a worker checkpoint sees the flag, and the work may even complete first. … The client polls the task until a terminal status before it reports how the task ended (the extension lets a client stop polling after `tasks/cancel`, but then it knows only the acknowledgement).',
    ),
  },
  /** The tasks of 2025-11-25 (core, experimental): `tools/call` with `params.task`, `tasks/cancel` answers with the task. */
  tasks2025: {
    created: s(
      '2025-11-25',
      'MUST',
      TASKS_25,
      'Receivers that accept a task-augmented request **MUST** return a `CreateTaskResult` as the response.',
    ),
    beginWorking: s('2025-11-25', 'MUST', TASKS_25, 'Tasks **MUST** begin in the `working` status when created.'),
    cancelTransitions: s(
      '2025-11-25',
      'MUST',
      TASKS_25,
      'Upon receiving a valid cancellation request, receivers **SHOULD** attempt to stop the task execution and **MUST** transition the task to `cancelled` status before sending the response.',
    ),
    staysCancelled: s(
      '2025-11-25',
      'MUST',
      TASKS_25,
      'Once a task is cancelled, it **MUST** remain in `cancelled` status even if execution continues to completion or fails.',
    ),
    terminalStays: s(
      '2025-11-25',
      'MUST NOT',
      TASKS_25,
      'Tasks with a `completed`, `failed`, or `cancelled` status are in a terminal state and **MUST NOT** transition to any other status',
    ),
    rejectTerminalCancel: s(
      '2025-11-25',
      'MUST',
      TASKS_25,
      'Receivers **MUST** reject cancellation requests for tasks already in a terminal status (`completed`, `failed`, or `cancelled`) with error code `-32602` (Invalid params).',
    ),
    stopWork: s(
      '2025-11-25',
      'SHOULD',
      TASKS_25,
      'Upon receiving a valid cancellation request, receivers **SHOULD** attempt to stop the task execution …',
    ),
  },
  /** The tasks extension of 2026-07-28: the server decides to answer `tools/call` with a task; `tasks/cancel` is an empty acknowledgement. */
  tasksExt: {
    durable: s(
      '2026-07-28',
      'MUST NOT',
      TASKS_EXT,
      'A server **MUST NOT** return `CreateTaskResult` until the task is durably created — that is, until a `tasks/get` for the returned `taskId` would resolve.',
    ),
    emptyAck: s(
      '2026-07-28',
      'MUST',
      TASKS_EXT,
      'On success, the server **MUST** acknowledge the request with an empty result. … The `resultType` field **MUST** be set to `"complete"` on `CancelTaskResult` as it is the standard result shape for the `tasks/cancel` request.',
    ),
    eventuallyConsistent: s(
      '2026-07-28',
      'MAY',
      TASKS_EXT,
      "Cancellation processing is _eventually consistent_ — the task's observable status **MAY** remain `working` (or some other non-terminal status) after the ack, and **MAY** ultimately reach a terminal status other than `cancelled` if the work finished before cancellation could take effect.",
    ),
    getComplete: s(
      '2026-07-28',
      'MUST',
      TASKS_EXT,
      'The `resultType` field **MUST** be set to `"complete"` on this object as it is the standard result shape for the `tasks/get` request.',
    ),
    terminalStays: s(
      '2025-11-25',
      'MUST NOT',
      TASKS_25,
      'Tasks with a `completed`, `failed`, or `cancelled` status are in a terminal state and **MUST NOT** transition to any other status — quoted from 2025-11-25, where tasks were core; the extension keeps its state diagram (terminal → end, no way out) and words no sentence of its own.',
    ),
    noProgressOnTask: s(
      '2026-07-28',
      'MUST NOT',
      TASKS_EXT,
      '`notifications/progress` and `notifications/message` notifications **MUST NOT** be sent on the `subscriptions/listen` stream for a task, and are not supported on tasks in general in this specification.',
    ),
    stopWork: s(
      '2026-07-28',
      'MAY',
      TASKS_EXT,
      'Cancellation is **cooperative**: The request signals intent, and the server decides whether and when to honor it. A server is not obligated to actually stop the work; it is only obligated to acknowledge the request.',
    ),
  },
} as const;

export type SentenceKey = keyof (typeof SENTENCES)['2026-07-28'];

/** The sentence a check quotes for the negotiated revision: 2026-07-28's, else 2025-11-25's (also for older revisions, said so in the verdict). */
export function sentenceFor(revision: string, key: SentenceKey): Sentence {
  return revision === '2026-07-28' ? SENTENCES['2026-07-28'][key] : SENTENCES['2025-11-25'][key];
}
