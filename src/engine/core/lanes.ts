/**
 * Which lane of the sequence diagram an event belongs to: the actor that did it. Worked out once,
 * here, as the event is recorded (issue #10: the diagram used to work it out again from the kinds).
 * The kit sees events structurally, so it knows no model's types; the lanes are the actors of every
 * model: client, server, worker, proxy, buffer, and one lane per SQLite connection.
 */
export interface LaneContext {
  /** The side of the last `state` event: a terminal state belongs to whoever set it. */
  readonly lastStateSide: string | null;
  /** The receiver of a recorded message, by its `seq` (a lost message belongs to its receiver). */
  messageReceiver(seq: number): string | null;
}

type Fields = { readonly kind: string } & Readonly<Record<string, unknown>>;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function laneOf(event: Fields, context: LaneContext): string {
  switch (event.kind) {
    case 'message':
      return str(event.from) ?? 'client';
    case 'delivered':
      return str(event.to) ?? 'client';
    case 'stream-opened':
    case 'stream-closed':
    case 'disconnect-observed':
    case 'suppressed':
    case 'cancel-accepted':
    case 'cancel-ignored':
      return str(event.by) ?? 'server';
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
      return str(event.side) ?? 'client';
    case 'terminal':
      return context.lastStateSide ?? 'server';
    case 'worker':
      return 'worker';
    case 'sql':
      return str(event.connection) ?? 'server';
    case 'ledger':
      return str(event.connection) ?? 'server';
    case 'task':
      return event.action === 'polled' || event.action === 'reported' || event.action === 'retried' || event.action === 'retry-skipped' ? 'client' : event.action === 'cancelled' || event.action === 'completed' ? 'worker' : 'server';
    case 'buffer':
      return 'buffer';
    case 'proxy':
      return 'proxy';
    case 'message-lost':
      return (typeof event.messageSeq === 'number' ? context.messageReceiver(event.messageSeq) : null) ?? 'client';
    default:
      return 'server';
  }
}
