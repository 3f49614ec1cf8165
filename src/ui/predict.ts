import type { LabEvent, RequestOutcome, Transcript } from '../store/labStore';

/**
 * Predict mode's race point: the step at which the replay stops and asks who wins. It is the step
 * just before either side of the race shows: the client giving up (the user's cancel, a deadline
 * firing, a cancellation on the wire) or the server settling the request (the work finishing, a
 * response, accepting or ignoring a cancellation, a state change, the terminal event). At that step
 * the room has seen the request and its progress, and nothing that tells the winner: the step's
 * sentence, the facts (all still pending) and the timeline end just before it.
 *
 * Null when the transcript is not a request race, or when nothing decides it.
 */
export function racePoint(transcript: Transcript): number | null {
  // Several parts of the page ask, for the same transcript; a long run's scan is made once.
  const known = points.get(transcript);
  if (known !== undefined) return known;
  let point: number | null = null;
  if (transcript.kind === 'request-race') {
    const requestId = (transcript.outcome as RequestOutcome).requestId;
    const index = transcript.events.findIndex((event) => decides(event, requestId));
    point = index < 0 ? null : index;
  }
  points.set(transcript, point);
  return point;
}

const points = new WeakMap<Transcript, number | null>();

function isForRequest(event: LabEvent, requestId: unknown): boolean {
  return !('requestId' in event) || event.requestId === requestId;
}

/** Whether an event shows one side of the race being decided. */
function decides(event: LabEvent, requestId: unknown): boolean {
  switch (event.kind) {
    case 'state':
    case 'terminal':
    case 'cancel-accepted':
    case 'cancel-ignored':
    case 'suppressed':
    case 'stream-closed':
      return isForRequest(event, requestId);
    case 'deadline':
      return event.action === 'fired' && isForRequest(event, requestId);
    case 'worker':
      return event.step === 'finished' || event.step === 'stopped';
    case 'message': {
      const message = event.message as unknown as Record<string, unknown>;
      if (event.from === 'client') return message.method === 'notifications/cancelled';
      // The server's final answer for the request (progress does not decide anything).
      return 'id' in message && message.id === requestId && ('result' in message || 'error' in message);
    }
    default:
      return false;
  }
}
