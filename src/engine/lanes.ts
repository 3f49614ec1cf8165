import { unreachable } from './core/assert';
import type { LabEvent, Transcript } from './transcript';

/**
 * Which lane of the sequence diagram an event belongs to: the actor that did it. The lanes are a
 * view of the run, so the event log records none: they are derived here, in the engine, because
 * compare, the diagram's geometry, the CLI's `--json` and diff, the evidence files and the
 * structural golden all read them. The lanes are the actors of every model: client, server,
 * worker, proxy, buffer, and one lane per SQLite connection.
 */

/** What a lane rule reads of the events before this one. */
interface LaneContext {
  /** The side of the last `state` event: a terminal state belongs to whoever set it. */
  readonly lastStateSide: string | null;
  /** The receiver of a recorded message, by its `seq` (a lost message belongs to its receiver). */
  messageReceiver(seq: number): string | null;
}

function taskLane(action: Extract<LabEvent, { kind: 'task' }>['action']): string {
  switch (action) {
    case 'polled':
    case 'reported':
    case 'retried':
    case 'retry-skipped':
    case 'request-lost':
      return 'client';
    case 'cancelled':
    case 'completed':
      return 'worker';
    case 'created':
    case 'cancel-acknowledged':
    case 'cancel-skipped':
    case 'crashed':
    case 'restarted':
      return 'server';
    default:
      return unreachable(action, `no lane rule for task action ${String(action)}`);
  }
}

function laneOf(event: LabEvent, context: LaneContext): string {
  switch (event.kind) {
    case 'message':
      return event.from;
    case 'delivered':
      return event.to;
    case 'stream-opened':
    case 'stream-closed':
    case 'disconnect-observed':
    case 'suppressed':
    case 'cancel-accepted':
    case 'cancel-ignored':
      return event.by;
    case 'request-started':
    case 'deadline':
    case 'http-request':
    case 'stream-dropped':
    case 'reconnect-plan':
    case 'recovery':
    case 'sse-comment':
      return 'client';
    case 'state':
    case 'views-diverge':
      return event.side;
    case 'terminal':
      return context.lastStateSide ?? 'server';
    case 'worker':
      return 'worker';
    case 'sql':
      return event.connection;
    case 'ledger':
      // The client's own finding that a call's outcome is unknown is drawn on its lane.
      return event.connection ?? (event.action === 'unknown' ? 'client' : 'server');
    case 'task':
      return taskLane(event.action);
    case 'buffer':
      return 'buffer';
    case 'proxy':
      return 'proxy';
    case 'message-lost':
      return context.messageReceiver(event.messageSeq) ?? 'client';
    case 'herd-window':
      return 'server';
    // A recording's own events (a `lab probe` transcript): the probe is the client, and it saw them.
    case 'probe-note':
    case 'http-response':
    case 'verdict':
      return 'client';
    default:
      return unreachable(event, `no lane rule for event kind ${String((event as { kind: unknown }).kind)}`);
  }
}

/** Each event's lane, by `seq`: one pass, since a terminal or a lost message reads what came before. */
export function eventLanes(events: readonly LabEvent[]): string[] {
  let lastStateSide: string | null = null;
  const context: LaneContext = {
    get lastStateSide() {
      return lastStateSide;
    },
    messageReceiver(seq) {
      const message = events[seq];
      return message?.kind === 'message' ? message.to : null;
    },
  };
  return events.map((event) => {
    const lane = laneOf(event, context);
    if (event.kind === 'state') lastStateSide = event.side;
    return lane;
  });
}

/** An event as the CLI's `--json`, the evidence files and the structural golden show it: with its lane, `actor`. */
export type EventWithLane<E extends LabEvent = LabEvent> = E & { actor: string };

/** A transcript with each event's lane: the transcript's published shape (`seq, atMs, actor, causeSeq, kind, …`). */
export type TranscriptWithLanes<T extends Transcript = Transcript> = Omit<T, 'events'> & {
  events: Array<EventWithLane<T['events'][number]>>;
};

/** The event with its lane after its time, where the transcript's published field order has it. */
function laned<E extends LabEvent>(event: E, actor: string): EventWithLane<E> {
  // Assigning onto an object that already has seq, atMs and actor keeps those three first.
  return Object.assign({ seq: event.seq, atMs: event.atMs, actor }, event);
}

export function withLanes<T extends Transcript>(transcript: T): TranscriptWithLanes<T> {
  const lanes = eventLanes(transcript.events);
  const events: Array<EventWithLane<T['events'][number]>> = transcript.events.map((event: T['events'][number], i) =>
    laned(event, lanes[i] as string),
  );
  return { ...transcript, events };
}
