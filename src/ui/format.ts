import type { Transcript } from '../engine';
import type {
  EventWording,
  LabEvent,
  LedgerOutcome,
  LedgerResponseRecord,
  LedgerRow,
  RaceFactSteps,
  RequestOutcome,
  Transport,
} from '../store/runStore';

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

/** The four recorded facts of a request race (docs/requirements.md#the-race-and-its-four-recorded-facts); null for other kinds of outcome. */
export function factsRow(outcome: Transcript['outcome']): FactsRow | null {
  if (!('terminalState' in outcome)) return null;
  return {
    terminalState: outcome.terminalState,
    finalResponse: outcome.finalResponse ? 'yes' : 'no',
    cancellationSignal: outcome.cancellationSignal ?? 'none',
    clientIgnores:
      outcome.clientIgnores.length === 0 ? 'nothing' : outcome.clientIgnores.map((ignore) => ignore.summary).join(', '),
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
    clientIgnores:
      ignores.length > 0 ? ignores.map((ignore) => ignore.summary).join(', ') : atEnd ? full.clientIgnores : PENDING,
  };
}

/** The sentence announced for a step, and shown under the playback controls, in the engine's words. */
export function stepSentence(transcript: Transcript, step: number, wording: readonly EventWording[]): string {
  const total = transcript.events.length;
  const event = transcript.events[step - 1];
  if (event === undefined) return `Step 0 of ${total}: nothing has happened yet. Step forward to start.`;
  return `Step ${step} of ${total}, ${event.atMs} ms: ${eventTextAt(wording, transcript.events, event, step)}`;
}

/** The engine's sentence for one event (the timeline, the inspector); its kind if the wording is missing. */
export function eventText(wording: readonly EventWording[], event: LabEvent): string {
  return wording[event.seq]?.text ?? event.kind;
}

// Index of the event that delivers each message, by the message's seq; built once per run.
const deliveriesByRun = new WeakMap<readonly LabEvent[], Map<number, number>>();
function deliveries(events: readonly LabEvent[]): Map<number, number> {
  let found = deliveriesByRun.get(events);
  if (found === undefined) {
    found = new Map();
    events.forEach((event, index) => {
      if (event.kind === 'delivered' && !found?.has(event.messageSeq)) found?.set(event.messageSeq, index);
    });
    deliveriesByRun.set(events, found);
  }
  return found;
}

/**
 * Whether the replay after `step` events has reached the moment a message's fate is known: the
 * receiver ignores it on arrival, so before its delivery the page says nothing of it.
 */
export function fateShown(events: readonly LabEvent[], event: LabEvent, step: number): boolean {
  if (event.kind !== 'message' || event.ignoredBy === undefined) return true;
  const delivered = deliveries(events).get(event.seq);
  return delivered === undefined || delivered < step;
}

/** An event's sentence as the replay after `step` events knows it (a message's fate only once it arrived). */
export function eventTextAt(
  wording: readonly EventWording[],
  events: readonly LabEvent[],
  event: LabEvent,
  step: number,
): string {
  const text = eventText(wording, event);
  if (event.kind !== 'message' || fateShown(events, event, step)) return text;
  const fate = wording[event.seq]?.fate;
  return fate !== undefined && text.endsWith(fate) ? text.slice(0, -fate.length) : text;
}

/** An event as recorded, less the fields the replay after `step` events has not reached yet (a message's fate). */
export function eventAsOfStep(events: readonly LabEvent[], event: LabEvent, step: number): LabEvent {
  if (event.kind !== 'message' || fateShown(events, event, step)) return event;
  const { ignoredBy: _ignoredBy, reason: _reason, ...known } = event;
  return known as LabEvent;
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
  return Object.entries(outcome).map(([key, value]) => [
    key,
    typeof value === 'object' && value !== null ? compactJson(value) : String(value),
  ]);
}

/** JSON on one line with a space after each colon and comma, so long values can wrap between fields. */
export function compactJson(value: unknown): string {
  return (JSON.stringify(value, null, 1) ?? String(value))
    .replace(/\n\s*/g, ' ')
    .replace(/([[{]) /g, '$1')
    .replace(/ ([\]}])/g, '$1');
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

/** One call as the client's record has it: answered, unknown, or reconciled and by which answer. */
export function clientRecordText(call: NonNullable<LedgerOutcome['clientRecord']>[number]): string {
  if (call.state === 'reconciled') return `reconciled by #${String(call.reconciledBy)} (it was unknown)`;
  return call.state;
}

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
  return aliasIntact
    ? 'intact: the replay equals the committed result'
    : 'corrupted: the replay shows the caller’s changes';
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

/** A transport's name on the page; typed over every transport, so a new one fails to compile until it is named. */
export const TRANSPORT_LABELS: Readonly<Record<Transport, string>> = { stdio: 'stdio', http: 'Streamable HTTP' };
