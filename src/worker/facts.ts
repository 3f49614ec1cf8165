import type { Transcript } from '../engine';
import type { LabEvent, RaceFactSteps, RequestOutcome } from './protocol';

/**
 * Where a request race's transcript reaches each of its four recorded facts (docs/requirements.md#the-race-and-its-four-recorded-facts), so a replay
 * can fill the facts table as it passes them. The facts themselves are the engine's (the outcome);
 * this only finds the event that establishes each one:
 * - terminal state: the `terminal` event of the request;
 * - final response: the server's result or error for the request on the wire, or, when there is
 *   none, the end of the run (an absence is only certain once nothing more happens);
 * - cancellation signal: the client's `notifications/cancelled`, or its closing of the response
 *   stream; the end of the run when it never cancelled;
 * - client ignores: each ignored message where it reaches the client (its `delivered` event).
 */
export function raceFactSteps(transcript: Transcript): RaceFactSteps | null {
  if (transcript.kind !== 'request-race') return null;
  const outcome = transcript.outcome as RequestOutcome;
  const { events } = transcript;
  const last = events.length - 1;
  const find = (found: (event: LabEvent) => boolean): number => {
    const index = events.findIndex(found);
    return index < 0 ? last : index;
  };
  const ofRequest = (event: LabEvent) => 'requestId' in event && event.requestId === outcome.requestId;

  const terminalState = find((event) => event.kind === 'terminal' && ofRequest(event));
  const finalResponse = outcome.finalResponse
    ? find(
        (event) =>
          event.kind === 'message' &&
          event.from === 'server' &&
          'id' in event.message &&
          event.message.id === outcome.requestId &&
          ('result' in event.message || 'error' in event.message),
      )
    : last;
  let cancellationSignal = last;
  if (outcome.cancellationSignal === 'notifications/cancelled') {
    cancellationSignal = find(
      (event) =>
        event.kind === 'message' &&
        event.from === 'client' &&
        'method' in event.message &&
        event.message.method === 'notifications/cancelled',
    );
  } else if (outcome.cancellationSignal === 'stream-close') {
    cancellationSignal = find((event) => event.kind === 'stream-closed' && event.by === 'client' && ofRequest(event));
  }
  const clientIgnores = outcome.clientIgnores.map((ignore) => {
    const delivered = events.findIndex((event) => event.kind === 'delivered' && event.messageSeq === ignore.seq);
    if (delivered >= 0) return delivered;
    const sent = events.findIndex((event) => event.seq === ignore.seq);
    return sent >= 0 ? sent : last;
  });
  return { terminalState, finalResponse, cancellationSignal, clientIgnores };
}
