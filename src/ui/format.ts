import type { LabEvent, LedgerOutcome, LedgerResponseRecord, LedgerRow, RaceFactSteps, RequestOutcome, Transcript } from '../store/labStore';

/**
 * Wording only: turns transcript fields into the text the page shows. It decides nothing about the
 * protocol; every value comes from the transcript as the engine recorded it.
 */

export interface FactsRow {
  terminalState: string;
  finalResponse: string;
  cancellationSignal: string;
  clientIgnores: string;
}

/** The four recorded facts of a request race (SPEC §7); null for other kinds of outcome. */
export function factsRow(outcome: Transcript['outcome']): FactsRow | null {
  if (!('terminalState' in outcome)) return null;
  return {
    terminalState: outcome.terminalState,
    finalResponse: outcome.finalResponse ? 'yes' : 'no',
    cancellationSignal: outcome.cancellationSignal ?? 'none',
    clientIgnores: outcome.clientIgnores.length === 0 ? 'nothing' : outcome.clientIgnores.map((ignore) => ignore.summary).join(', '),
  };
}

/** What a fact cell says before the replay reaches the event that establishes it. */
export const PENDING = 'pending';

/**
 * The four facts as the replay stands after `step` events: each one shows once the replay passes
 * the event the worker found for it, and reads "pending" before. Client ignores list those reached
 * so far; "nothing" only at the end of a run that had none.
 */
export function factsRowAt(transcript: Transcript, reached: RaceFactSteps | null, step: number): FactsRow | null {
  const full = factsRow(transcript.outcome);
  if (full === null || reached === null) return full;
  const outcome = transcript.outcome as RequestOutcome;
  const passed = (index: number) => index < step;
  const ignores = outcome.clientIgnores.filter((_, i) => passed(reached.clientIgnores[i] ?? Number.POSITIVE_INFINITY));
  const atEnd = step >= transcript.events.length;
  return {
    terminalState: passed(reached.terminalState) ? full.terminalState : PENDING,
    finalResponse: passed(reached.finalResponse) ? full.finalResponse : PENDING,
    cancellationSignal: passed(reached.cancellationSignal) ? full.cancellationSignal : PENDING,
    clientIgnores: ignores.length > 0 ? ignores.map((ignore) => ignore.summary).join(', ') : atEnd ? full.clientIgnores : PENDING,
  };
}

/** The sentence announced for a step, and shown under the playback controls. */
export function stepSentence(transcript: Transcript, step: number): string {
  const total = transcript.events.length;
  const event = transcript.events[step - 1];
  if (event === undefined) return `Step 0 of ${total}: nothing has happened yet. Step forward to start.`;
  return `Step ${step} of ${total}, ${event.atMs} ms: ${describeEvent(event)}`;
}

/** One formatter for the page: toLocaleString builds a new one per call, which is slow with thousands of labels. */
const NUMBERS = new Intl.NumberFormat('en-US');

/** "12,288" */
export function formatNumber(value: number): string {
  return NUMBERS.format(value);
}

/** "1234 ms", as the transcript, the timeline and the command line write times. */
export function formatMs(ms: number): string {
  return `${ms} ms`;
}

/** Any other outcome as label/value pairs, values shown as JSON where they are not plain. */
export function outcomeRows(outcome: Transcript['outcome']): Array<[string, string]> {
  return Object.entries(outcome).map(([key, value]) => [key, typeof value === 'object' && value !== null ? compactJson(value) : String(value)]);
}

/** JSON on one line with a space after each colon and comma, so long values can wrap between fields. */
export function compactJson(value: unknown): string {
  return (JSON.stringify(value, null, 1) ?? String(value)).replace(/\n\s*/g, ' ').replace(/([[{]) /g, '$1').replace(/ ([\]}])/g, '$1');
}

/** The ledger outcome's counts, in the order the page shows them (field names are the engine's). */
export const LEDGER_COUNTS = [
  ['executions', 'Executions'],
  ['replayed', 'Replayed'],
  ['rejected', 'Rejected'],
  ['failed', 'Failed'],
  ['requests', 'Requests'],
  ['busyRetries', 'BUSY retries'],
  ['keyRecords', 'Key records'],
] as const satisfies ReadonlyArray<readonly [keyof LedgerOutcome, string]>;

/** Whether a transcript's outcome is the ledger model's (the worker's guard checked its fields). */
export function ledgerOutcome(transcript: Transcript): LedgerOutcome | null {
  return transcript.kind === 'ledger' ? (transcript.outcome as LedgerOutcome) : null;
}

/** What the client got for one request: the result, or the error with its HTTP analogue. */
export function responseText(response: LedgerResponseRecord): string {
  const error = response.body.error;
  if (typeof error !== 'object' || error === null || Array.isArray(error)) return compactJson(response.body);
  const { code, httpAnalogue, message } = error as { code?: unknown; httpAnalogue?: unknown; message?: unknown };
  const analogue = typeof httpAnalogue === 'number' ? ` (${httpAnalogue}-like)` : '';
  return `${String(code ?? 'error')}${analogue}: ${String(message ?? compactJson(error))}`;
}

export function aliasText(aliasIntact: boolean | null): string | null {
  if (aliasIntact === null) return null;
  return aliasIntact ? 'intact: the replay equals the committed result' : 'corrupted: the replay shows the caller’s changes';
}

/** "12,288 bytes (12 KiB)" */
export function formatBytes(bytes: number): string {
  const exact = `${formatNumber(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  return bytes < 1024 ? exact : `${exact} (${formatNumber(Math.round(bytes / 1024))} KiB)`;
}

/** SQL NULL is shown as NULL, so it is never mistaken for an empty string. */
export function cellText(value: LedgerRow[string]): string {
  return value === null ? 'NULL' : String(value);
}

/** A SHA-256 fingerprint is shown by its first 12 hex digits; the cell's title holds all 64. */
export function shortCell(value: LedgerRow[string]): string {
  const text = cellText(value);
  return /^[0-9a-f]{64}$/.test(text) ? `${text.slice(0, 12)}…` : text;
}

export const TRANSPORT_LABELS = { stdio: 'stdio', http: 'Streamable HTTP' } as const;

/** The suffix for a message its receiver dropped, or one that never arrived. */
function ignored(event: LabEvent & { ignoredBy?: string; reason?: string }): string {
  const reason = event.reason ?? 'no reason recorded';
  if (event.ignoredBy !== undefined) return ` (ignored by ${event.ignoredBy}: ${reason})`;
  if ('lost' in event && event.lost === true) return ` (lost: ${reason})`;
  return '';
}

export function messageSummary(message: Extract<LabEvent, { kind: 'message' }>['message']): string {
  if ('method' in message) return 'id' in message ? `${message.method} #${String(message.id)}` : message.method;
  if ('error' in message) return message.id === undefined ? 'error response' : `error response #${String(message.id)}`;
  return `response #${String(message.id)}`;
}

/** The part of a timeline line after "<atMs> ms · <kind> · ". */
export function describeEvent(event: LabEvent): string {
  switch (event.kind) {
    case 'message':
      return `${event.from} → ${event.to}: ${messageSummary(event.message)} on ${event.channel}${ignored(event)}`;
    case 'delivered':
      return `${event.summary} reached the ${event.to}${ignored(event)}`;
    case 'stream-opened':
      return `${event.by} opened the SSE response stream for #${String(event.requestId)}`;
    case 'stream-closed':
      return `${event.by} closed the stream for #${String(event.requestId)}: ${event.reason}`;
    case 'disconnect-observed':
      return `${event.by}: ${event.reason}`;
    case 'request-started':
      return `request #${String(event.requestId)} starts (idle deadline ${event.idleTimeoutMs} ms, maximum ${event.maxTimeoutMs} ms)`;
    case 'deadline':
      return `${event.deadline} deadline ${event.action} (due at ${event.dueAtMs} ms): ${event.reason}`;
    case 'state':
      return `${event.side} ${event.from} → ${event.to}: ${event.reason}`;
    case 'terminal':
      return `#${String(event.requestId)} ends ${event.state}: ${event.reason}`;
    case 'worker':
      return `${event.step}: ${event.reason}`;
    case 'suppressed':
      return `${event.by} suppressed the ${event.what}: ${event.reason}`;
    case 'cancel-ignored':
    case 'cancel-accepted':
      return `${event.by}: ${event.reason}`;
    case 'views-diverge':
      return `the two views of #${String(event.requestId)} diverge: ${event.reason}`;
    case 'sql': {
      const params = event.params.length === 0 ? '' : ` ${JSON.stringify(event.params)}`;
      const result = event.ok ? 'ok' : `${event.error?.code ?? 'error'}: ${event.error?.message ?? ''}`;
      return `${event.connection}: ${event.sql}${params} → ${result} (${event.purpose})`;
    }
    case 'ledger':
      return `${event.connection === undefined ? '' : `${event.connection}: `}${event.action}: ${event.detail}`;
    case 'task':
      return `task ${event.taskId} ${event.action}${event.status === null ? '' : ` (${event.status})`}: ${event.detail}`;
    case 'buffer':
      return `${event.action} ${event.summary} (${event.occupancyEvents}/${event.capacityEvents ?? 'unbounded'} held): ${event.reason}`;
    case 'proxy':
      return `proxy ${event.action} (${event.events} event(s), holding ${event.heldEvents}): ${event.reason}`;
    case 'sse-comment':
      return `${event.action === 'sent' ? 'server writes' : 'client receives'} the SSE comment "${event.line}" on ${event.channel}: ${event.reason}`;
    case 'http-request':
      return `client POSTs request #${String(event.requestId)} (${Object.entries(event.headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('; ')})`;
    case 'stream-dropped':
      return `${event.channel} dropped: ${event.reason}`;
    case 'message-lost':
      return `${event.summary} was lost: ${event.reason}`;
    case 'reconnect-plan':
      return `reconnect plan: ${event.reason}`;
    case 'recovery':
      return `${event.step}${event.requestId === null ? '' : ` (#${String(event.requestId)})`}: ${event.reason}`;
    case 'herd-window':
      return `window ${event.window} (${event.startMs}–${event.endMs} ms): ${event.attempts} attempts, ${event.admitted} admitted, ${event.refused} refused, ${event.waiting} still waiting`;
    default:
      return describeOther(event);
  }
}

/** Events of models this page has no wording for yet: their fields, so nothing is hidden. */
function describeOther(event: { kind: string }): string {
  const { kind: _kind, ...fields } = event as Record<string, unknown>;
  delete fields.seq;
  delete fields.atMs;
  return JSON.stringify(fields);
}
