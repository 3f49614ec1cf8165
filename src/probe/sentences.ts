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
  /** The requirement level the sentence uses. */
  level: 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'encouraged';
  /** The page, relative to docs/specification/<revision>/ (or the lab's requirement id). */
  page: string;
  text: string;
}

const s = (revision: Sentence['revision'], level: Sentence['level'], page: string, text: string): Sentence => ({ revision, level, page, text });

const CANCEL_26 = 'basic/patterns/cancellation';
const CANCEL_25 = 'basic/utilities/cancellation';
const PROGRESS_26 = 'basic/patterns/progress';
const PROGRESS_25 = 'basic/utilities/progress';
const HTTP_26 = 'basic/transports/streamable-http';
const HTTP_25 = 'basic/transports';

export const SENTENCES = {
  '2026-07-28': {
    stopProcessing: s('2026-07-28', 'SHOULD', CANCEL_26, 'Servers receiving cancellation notifications **SHOULD**: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request'),
    noResponse: s('2026-07-28', 'SHOULD', CANCEL_26, 'Servers receiving cancellation notifications **SHOULD**: … Not send a response for the cancelled request'),
    closeIsCancel: s('2026-07-28', 'MUST', HTTP_26, 'Closing the SSE response stream **MUST** be treated by the server as cancellation of that request. … The server **SHOULD** stop work on the cancelled request as soon as practical and **MUST NOT** send any further messages for it.'),
    ignoreInvalid: s('2026-07-28', 'SHOULD', CANCEL_26, 'Invalid cancellation notifications **SHOULD** be ignored: Unknown request IDs; Already completed requests; Malformed notifications'),
    progressIncreases: s('2026-07-28', 'MUST', PROGRESS_26, 'The `progress` value **MUST** increase with each notification, even if the total is unknown.'),
    progressStops: s('2026-07-28', 'MUST', PROGRESS_26, 'Progress notifications **MUST** stop after completion'),
    finalEndsStream: s('2026-07-28', 'SHOULD', HTTP_26, 'The final JSON-RPC _response_ **SHOULD** terminate the stream.'),
    notification202: s('2026-07-28', 'MUST', HTTP_26, 'If the body is a JSON-RPC _notification_: If the server accepts it, the server **MUST** return HTTP status code `202 Accepted` with no body.'),
    requestContentType: s('2026-07-28', 'MUST', HTTP_26, 'If the body is a JSON-RPC _request_, the server **MUST** return either `Content-Type: application/json` (a single JSON object) or `Content-Type: text/event-stream` (an SSE response stream).'),
    xAccel: s('2026-07-28', 'SHOULD', HTTP_26, 'When initiating an SSE stream, servers **SHOULD** include the `X-Accel-Buffering: no` header in the HTTP response.'),
    keepAlive: s('2026-07-28', 'encouraged', HTTP_26, 'For long-lived streams … servers are encouraged to periodically emit an SSE comment line (a line beginning with a colon, e.g. `:\\r\\n`) as a keep-alive.'),
    headers: s('2026-07-28', 'MUST', HTTP_26, 'Every POST request to the MCP endpoint **MUST** include an `MCP-Protocol-Version` header. … `Mcp-Method` (All requests), `Mcp-Name` (`tools/call`, `resources/read`, `prompts/get` requests): These headers are **REQUIRED** for compliance.'),
  },
  '2025-11-25': {
    stopProcessing: s('2025-11-25', 'SHOULD', CANCEL_25, 'Receivers of cancellation notifications **SHOULD**: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request'),
    noResponse: s('2025-11-25', 'SHOULD', CANCEL_25, 'Receivers of cancellation notifications **SHOULD**: … Not send a response for the cancelled request'),
    closeIsCancel: s('2025-11-25', 'SHOULD NOT', HTTP_25, 'Disconnection **SHOULD NOT** be interpreted as the client cancelling its request. To cancel, the client **SHOULD** explicitly send an MCP `CancelledNotification`.'),
    ignoreInvalid: s('2025-11-25', 'SHOULD', CANCEL_25, 'Invalid cancellation notifications **SHOULD** be ignored: Unknown request IDs; Already completed requests; Malformed notifications'),
    progressIncreases: s('2025-11-25', 'MUST', PROGRESS_25, 'The `progress` value **MUST** increase with each notification, even if the total is unknown.'),
    progressStops: s('2025-11-25', 'MUST', PROGRESS_25, 'Progress notifications **MUST** stop after completion'),
    finalEndsStream: s('2025-11-25', 'SHOULD', HTTP_25, 'After the JSON-RPC _response_ has been sent, the server **SHOULD** terminate the SSE stream.'),
    notification202: s('2025-11-25', 'MUST', HTTP_25, 'If the input is a JSON-RPC _response_ or _notification_: If the server accepts the input, the server **MUST** return HTTP status code 202 Accepted with no body.'),
    requestContentType: s('2025-11-25', 'MUST', HTTP_25, 'If the input is a JSON-RPC _request_, the server **MUST** either return `Content-Type: text/event-stream`, to initiate an SSE stream, or `Content-Type: application/json`, to return one JSON object.'),
    xAccel: s('lesson', 'SHOULD', 'RV-1', 'SSE response headers: `Content-Type: text/event-stream`, `Cache-Control: no-cache`, `X-Accel-Buffering: no` (so compatible reverse proxies forward events at once). — 2025-11-25 has no sentence on X-Accel-Buffering; 2026-07-28 makes it a SHOULD.'),
    keepAlive: s('lesson', 'encouraged', 'RV-2', 'Long quiet streams emit a periodic SSE comment line (`:`); clients ignore it, intermediaries see traffic. — 2025-11-25 has no sentence on keep-alive comments.'),
    headers: s('2025-11-25', 'MUST', HTTP_25, 'If using HTTP, the client **MUST** include the `MCP-Protocol-Version: <protocol-version>` HTTP header on all subsequent requests to the MCP server'),
  },
  lesson: {
    cacheControl: s('lesson', 'SHOULD', 'RV-1', 'SSE response headers: `Content-Type: text/event-stream`, `Cache-Control: no-cache`, `X-Accel-Buffering: no`. — no revision of the specification names `Cache-Control`; the lesson asks for it so that no cache holds an event.'),
    progressAtMostTotal: s('lesson', 'SHOULD', 'RC-3', 'Progress values for one token strictly increase … — the specification defines `total` as the total progress required, if known, and states no rule; the lesson checks that `progress` never passes it.'),
    cancelNotAnswered: s('lesson', 'MUST', 'RC-5', 'stdio: the client sends the notification … It is fire-and-forget: nobody answers it.'),
  },
} as const;

export type SentenceKey = keyof (typeof SENTENCES)['2026-07-28'];

/** The sentence a check quotes for the negotiated revision: 2026-07-28's, else 2025-11-25's (also for older revisions, said so in the verdict). */
export function sentenceFor(revision: string, key: SentenceKey): Sentence {
  return revision === '2026-07-28' ? SENTENCES['2026-07-28'][key] : SENTENCES['2025-11-25'][key];
}
