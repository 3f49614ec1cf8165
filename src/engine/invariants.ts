import { assert } from './core/assert';
import type { InvariantCheck, LabEvent, MessageEvent, Transcript } from './transcript';

/** What the checks read of one request-race run: its events, its outcome and its request's messages. */
interface RaceRun {
  readonly transcript: Transcript<'request-race'>;
  readonly events: readonly LabEvent[];
  readonly outcome: Transcript<'request-race'>['outcome'];
  readonly messages: readonly MessageEvent[];
  readonly finals: readonly MessageEvent[];
  readonly cancels: readonly MessageEvent[];
  /** The client's first change of state for the request: when it ended it. */
  readonly clientEnd: LabEvent | undefined;
  readonly ofRequest: (event: LabEvent) => boolean;
  readonly isProgress: (m: MessageEvent) => boolean;
  readonly isFinal: (m: MessageEvent) => boolean;
}

function check(id: string, statement: string, problems: string[], fine: string): InvariantCheck {
  return { id, statement, holds: problems.length === 0, detail: problems.length === 0 ? fine : problems.join('; ') };
}

/**
 * The request-lifecycle invariants (docs/requirements.md#request-lifecycle-rc), as checks over a finished request-race transcript.
 * The lab's model is held to them by its property tests; a run of the real TypeScript
 * SDK speaks an older protocol revision, so its messages are not schema-validated against
 * 2026-07-28: these checks are what it is held to instead, and the list says which hold.
 * Every check reads only the transcript, so a model run and an SDK run are judged alike.
 */
export function raceInvariants(transcript: Transcript<'request-race'>): InvariantCheck[] {
  const run = raceRun(transcript);
  const checks = [
    oneTerminalState(run),
    oneFinalResponse(run),
    clientView(run),
    silenceAfterCancel(run),
    progressIncreasing(run),
    maximumDeadline(run),
    cancelOnGivingUp(run),
    noCancelAfterResult(run),
    ...(transcript.transport === 'http' ? [httpSignal(run)] : []),
  ];
  // Callers (the SDK lanes' outcome, compare, the tests) find a check by its id.
  assert(new Set(checks.map((c) => c.id)).size === checks.length, 'two invariant checks share an id');
  return checks;
}

function raceRun(transcript: Transcript<'request-race'>): RaceRun {
  const { events, outcome } = transcript;
  // What every check stands on: the events in the order they happened (the checks compare `seq`).
  for (let index = 1; index < events.length; index += 1) {
    const before = (events[index - 1] as LabEvent).seq;
    const after = (events[index] as LabEvent).seq;
    assert(
      after > before,
      () => `event ${after} is listed after event ${before}: a transcript keeps its events in seq order`,
    );
  }
  const id = outcome.requestId;
  const messages = events.filter((event): event is MessageEvent => event.kind === 'message');
  const ofRequest = (event: LabEvent): boolean => 'requestId' in event && event.requestId === id;
  const isProgress = (m: MessageEvent): boolean =>
    'method' in m.message && m.message.method === 'notifications/progress';
  const isCancel = (m: MessageEvent): boolean =>
    m.from === 'client' &&
    'method' in m.message &&
    m.message.method === 'notifications/cancelled' &&
    'params' in m.message &&
    m.message.params?.requestId === id;
  const isFinal = (m: MessageEvent): boolean =>
    m.from === 'server' && 'id' in m.message && m.message.id === id && ('result' in m.message || 'error' in m.message);
  return {
    transcript,
    events,
    outcome,
    messages,
    finals: messages.filter(isFinal),
    cancels: messages.filter(isCancel),
    clientEnd: events.find((event) => event.kind === 'state' && event.side === 'client' && ofRequest(event)),
    ofRequest,
    isProgress,
    isFinal,
  };
}

function oneTerminalState({ events, outcome, ofRequest }: RaceRun): InvariantCheck {
  const terminals = events.filter((event) => event.kind === 'terminal' && ofRequest(event));
  return check(
    'RC-8 one terminal state',
    'the request ends in exactly one terminal state, and the outcome reports it',
    terminals.length !== 1
      ? [`${terminals.length} terminal states recorded`]
      : terminals[0]?.kind === 'terminal' && terminals[0].state !== outcome.terminalState
        ? [`recorded ${terminals[0].state}, outcome says ${outcome.terminalState}`]
        : [],
    `one: ${outcome.terminalState} at ${outcome.terminalAtMs} ms`,
  );
}

function oneFinalResponse({ finals }: RaceRun): InvariantCheck {
  return check(
    'one final response',
    'the server sends at most one final response for the request',
    finals.length > 1 ? [`${finals.length} final responses on the wire`] : [],
    finals.length === 1 ? `one, at ${finals[0]?.atMs} ms` : 'none was sent',
  );
}

function clientView({ events, outcome, ofRequest, finals }: RaceRun): InvariantCheck {
  const settled = events.some(
    (event) => event.kind === 'state' && event.side === 'client' && event.to === 'settled' && ofRequest(event),
  );
  return check(
    'RC-8 client view',
    "the client's own ending is `completed` exactly when it used the final response, and a response it never used is recorded as a divergence",
    [
      ...(settled !== (outcome.clientOutcome === 'completed')
        ? [`client outcome ${outcome.clientOutcome} but it ${settled ? 'did' : 'did not'} use a response`]
        : []),
      ...(outcome.viewsDiverge !== (finals.length > 0 && !settled)
        ? ['the divergence flag disagrees with the wire']
        : []),
    ],
    `client ended ${outcome.clientOutcome} at ${outcome.clientOutcomeAtMs} ms${outcome.viewsDiverge ? '; the views diverge (recorded)' : ''}`,
  );
}

function silenceAfterCancel({ events, messages, ofRequest, isFinal, isProgress }: RaceRun): InvariantCheck {
  const accepted = events.find((event) => event.kind === 'cancel-accepted' && ofRequest(event));
  const afterAccept =
    accepted === undefined
      ? []
      : messages.filter((m) => m.from === 'server' && m.seq > accepted.seq && (isFinal(m) || isProgress(m)));
  return check(
    'RC-6 silence after cancel',
    'once the server accepted the cancellation it sends nothing more for the request: no response, no progress',
    afterAccept.map(
      (m) =>
        `sent ${'method' in m.message ? m.message.method : 'a response'} at ${m.atMs} ms after accepting the cancellation at ${accepted?.atMs} ms`,
    ),
    accepted === undefined
      ? 'the server never accepted a cancellation'
      : `accepted at ${accepted.atMs} ms; nothing followed`,
  );
}

function progressIncreasing({ events, messages, isProgress, clientEnd }: RaceRun): InvariantCheck {
  const progress = messages.filter(isProgress);
  const values = progress.map((m) => ('params' in m.message ? Number(m.message.params?.progress) : Number.NaN));
  const notIncreasing = values.flatMap((value, index) =>
    index > 0 && !(value > (values[index - 1] as number)) ? [`progress ${value} after ${values[index - 1]}`] : [],
  );
  const acceptedAfterEnd =
    clientEnd === undefined
      ? []
      : events
          .filter(
            (event) =>
              event.kind === 'delivered' &&
              event.to === 'client' &&
              event.seq > clientEnd.seq &&
              event.ignoredBy !== 'client',
          )
          .map(
            (event) =>
              `${event.kind === 'delivered' ? event.summary : ''} accepted at ${event.atMs} ms after the client ended`,
          );
  return check(
    'RC-3 progress',
    'progress values strictly increase, and the client accepts nothing for the request after it ended',
    [...notIncreasing, ...acceptedAfterEnd],
    `${progress.length} progress message(s), increasing`,
  );
}

function maximumDeadline({ transcript, events, ofRequest, clientEnd }: RaceRun): InvariantCheck {
  const started = events.find((event) => event.kind === 'request-started' && ofRequest(event));
  const maxTimeoutMs = Number(transcript.settings.maxTimeoutMs);
  // A missing maximum would make every comparison with it false, and the check would hold by accident.
  assert(
    Number.isFinite(maxTimeoutMs),
    () => `maxTimeoutMs is ${String(transcript.settings.maxTimeoutMs)}, not a number of milliseconds`,
  );
  const dueAtMs = (started?.atMs ?? 0) + maxTimeoutMs;
  return check(
    'RC-1/RC-2 maximum deadline',
    'the client ends the request no later than start + maxTimeoutMs, whatever progress arrives',
    clientEnd !== undefined && clientEnd.atMs > dueAtMs
      ? [`the client ended at ${clientEnd.atMs} ms, ${clientEnd.atMs - dueAtMs} ms past its maximum (${dueAtMs} ms)`]
      : [],
    clientEnd === undefined
      ? 'the client never ended'
      : `the client ended at ${clientEnd.atMs} ms (maximum due at ${dueAtMs} ms)`,
  );
}

function cancelOnGivingUp({ outcome, cancels }: RaceRun): InvariantCheck {
  const firstCancel = cancels[0];
  const cancelLate =
    firstCancel !== undefined && outcome.clientOutcome !== 'completed' && firstCancel.atMs > outcome.clientOutcomeAtMs;
  return check(
    'cancel on giving up',
    'a client that gives up tells the server at that moment, and at most once',
    [
      ...(cancelLate && firstCancel !== undefined
        ? [
            `it gave up at ${outcome.clientOutcomeAtMs} ms and sent notifications/cancelled at ${firstCancel.atMs} ms, ${firstCancel.atMs - outcome.clientOutcomeAtMs} ms later`,
          ]
        : []),
      ...(cancels.length > 1 ? [`${cancels.length} cancellations sent`] : []),
    ],
    outcome.cancellationSignal === null
      ? 'it never cancelled'
      : `${outcome.cancellationSignal} at ${outcome.clientOutcomeAtMs} ms`,
  );
}

function noCancelAfterResult({ outcome, cancels }: RaceRun): InvariantCheck {
  const afterResult =
    outcome.clientOutcome === 'completed' ? cancels.filter((m) => m.atMs >= outcome.clientOutcomeAtMs) : [];
  return check(
    'no cancel after the result',
    'a client that used the final response sends no cancellation for that request afterwards',
    afterResult.map(
      (m) =>
        `sent notifications/cancelled at ${m.atMs} ms, after it used the result at ${outcome.clientOutcomeAtMs} ms`,
    ),
    outcome.clientOutcome === 'completed' ? 'nothing was sent after the result' : 'the client did not use a result',
  );
}

function httpSignal({ outcome, cancels }: RaceRun): InvariantCheck {
  return check(
    'RC-5 HTTP signal',
    "on Streamable HTTP the client cancels by closing the request's response stream, and POSTs no notifications/cancelled",
    cancels.map((m) => `POSTed notifications/cancelled at ${m.atMs} ms`),
    outcome.cancellationSignal === 'stream-close' ? 'it closed the stream' : 'it never cancelled',
  );
}
