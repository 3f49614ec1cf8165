import type { InvariantCheck, LabEvent, MessageEvent, Transcript } from './transcript';

/**
 * The request-lifecycle invariants of SPEC §1, as checks over a finished request-race transcript.
 * The lab's model is held to them by its property tests; a run of the real TypeScript
 * SDK speaks an older protocol revision, so its messages are not schema-validated against
 * 2026-07-28: these checks are what it is held to instead, and the list says which hold.
 * Every check reads only the transcript, so a model run and an SDK run are judged alike.
 */
export function raceInvariants(transcript: Transcript<'request-race'>): InvariantCheck[] {
  const { events, outcome } = transcript;
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
  const checks: InvariantCheck[] = [];
  const check = (checkId: string, statement: string, problems: string[], fine: string): void => {
    checks.push({
      id: checkId,
      statement,
      holds: problems.length === 0,
      detail: problems.length === 0 ? fine : problems.join('; '),
    });
  };

  const terminals = events.filter((event) => event.kind === 'terminal' && ofRequest(event));
  check(
    'RC-8 one terminal state',
    'the request ends in exactly one terminal state, and the outcome reports it',
    terminals.length !== 1
      ? [`${terminals.length} terminal states recorded`]
      : terminals[0]?.kind === 'terminal' && terminals[0].state !== outcome.terminalState
        ? [`recorded ${terminals[0].state}, outcome says ${outcome.terminalState}`]
        : [],
    `one: ${outcome.terminalState} at ${outcome.terminalAtMs} ms`,
  );

  const finals = messages.filter(isFinal);
  check(
    'one final response',
    'the server sends at most one final response for the request',
    finals.length > 1 ? [`${finals.length} final responses on the wire`] : [],
    finals.length === 1 ? `one, at ${finals[0]?.atMs} ms` : 'none was sent',
  );

  const settled = events.some(
    (event) => event.kind === 'state' && event.side === 'client' && event.to === 'settled' && ofRequest(event),
  );
  check(
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

  const accepted = events.find((event) => event.kind === 'cancel-accepted' && ofRequest(event));
  const afterAccept =
    accepted === undefined
      ? []
      : messages.filter((m) => m.from === 'server' && m.seq > accepted.seq && (isFinal(m) || isProgress(m)));
  check(
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

  const progress = messages.filter(isProgress);
  const values = progress.map((m) => ('params' in m.message ? Number(m.message.params?.progress) : Number.NaN));
  const notIncreasing = values.flatMap((value, index) =>
    index > 0 && !(value > (values[index - 1] as number)) ? [`progress ${value} after ${values[index - 1]}`] : [],
  );
  const clientEnd = events.find((event) => event.kind === 'state' && event.side === 'client' && ofRequest(event));
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
  check(
    'RC-3 progress',
    'progress values strictly increase, and the client accepts nothing for the request after it ended',
    [...notIncreasing, ...acceptedAfterEnd],
    `${progress.length} progress message(s), increasing`,
  );

  const started = events.find((event) => event.kind === 'request-started' && ofRequest(event));
  const maxTimeoutMs = Number(transcript.settings.maxTimeoutMs);
  const dueAtMs = (started?.atMs ?? 0) + maxTimeoutMs;
  check(
    'RC-1/RC-2 maximum deadline',
    'the client ends the request no later than start + maxTimeoutMs, whatever progress arrives',
    clientEnd !== undefined && clientEnd.atMs > dueAtMs
      ? [`the client ended at ${clientEnd.atMs} ms, ${clientEnd.atMs - dueAtMs} ms past its maximum (${dueAtMs} ms)`]
      : [],
    clientEnd === undefined
      ? 'the client never ended'
      : `the client ended at ${clientEnd.atMs} ms (maximum due at ${dueAtMs} ms)`,
  );

  const cancels = messages.filter(isCancel);
  const firstCancel = cancels[0];
  const cancelLate =
    firstCancel !== undefined && outcome.clientOutcome !== 'completed' && firstCancel.atMs > outcome.clientOutcomeAtMs;
  check(
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

  const afterResult =
    outcome.clientOutcome === 'completed' ? cancels.filter((m) => m.atMs >= outcome.clientOutcomeAtMs) : [];
  check(
    'no cancel after the result',
    'a client that used the final response sends no cancellation for that request afterwards',
    afterResult.map(
      (m) =>
        `sent notifications/cancelled at ${m.atMs} ms, after it used the result at ${outcome.clientOutcomeAtMs} ms`,
    ),
    outcome.clientOutcome === 'completed' ? 'nothing was sent after the result' : 'the client did not use a result',
  );

  if (transcript.transport === 'http') {
    check(
      'RC-5 HTTP signal',
      "on Streamable HTTP the client cancels by closing the request's response stream, and POSTs no notifications/cancelled",
      cancels.map((m) => `POSTed notifications/cancelled at ${m.atMs} ms`),
      outcome.cancellationSignal === 'stream-close' ? 'it closed the stream' : 'it never cancelled',
    );
  }
  return checks;
}
