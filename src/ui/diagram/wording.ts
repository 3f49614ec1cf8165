import type { LabEvent } from '../../store/labStore';

/**
 * Wording only, for the sequence diagram: a short label for each wire message and each marker.
 * The full sentence (describeEvent) goes in the marker's tooltip, the timeline and the inspector.
 */

type MessageEvent = Extract<LabEvent, { kind: 'message' }>;

function idOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? `#${String(value)}` : '';
}

/** "tools/call #41", "progress 1/2", "cancelled #41", "response #41", "error #41". */
export function messageLabel(message: MessageEvent['message']): string {
  if ('method' in message) {
    const params = message.params as Record<string, unknown>;
    if (message.method === 'notifications/progress') {
      const { progress, total } = params;
      return typeof progress === 'number' ? `progress ${progress}${typeof total === 'number' ? `/${total}` : ''}` : 'progress';
    }
    if (message.method === 'notifications/cancelled') return `notifications/cancelled ${idOf(params.requestId)}`.trim();
    return 'id' in message ? `${message.method} #${String(message.id)}` : message.method;
  }
  if ('error' in message) return `error ${idOf(message.id)}`.trim();
  return `response #${String(message.id)}`;
}

export type MarkerTone = 'plain' | 'muted' | 'good' | 'warn' | 'bad' | 'strong';

export interface MarkerWording {
  text: string;
  tone: MarkerTone;
}

function sqlHead(sql: string): string {
  const words = sql.trim().split(/\s+/);
  const head = words[0] === 'BEGIN' || words[0] === 'INSERT' || words[0] === 'DELETE' ? words.slice(0, 2) : words.slice(0, 1);
  if (words[0] === 'INSERT' || words[0] === 'UPDATE' || words[0] === 'DELETE' || words[0] === 'SELECT') {
    const table = words[words.findIndex((word) => word === 'INTO' || word === 'FROM' || word === 'UPDATE') + 1];
    if (table !== undefined && !head.includes(table)) head.push(table);
  }
  return head.join(' ');
}

/** The marker drawn on a lane for an event that is not a wire message; null draws none. */
export function markerWording(event: LabEvent): MarkerWording | null {
  switch (event.kind) {
    case 'message':
    case 'stream-closed':
      return null; // drawn as edges
    case 'delivered':
      return event.ignoredBy === undefined ? null : { text: `ignores ${event.summary}`, tone: 'bad' };
    case 'stream-opened':
      return { text: `opens SSE stream #${String(event.requestId)}`, tone: 'plain' };
    case 'disconnect-observed':
      return { text: `sees stream #${String(event.requestId)} close`, tone: 'warn' };
    case 'request-started':
      return { text: `starts #${String(event.requestId)}`, tone: 'plain' };
    case 'deadline': {
      const name = event.deadline === 'idle' ? 'idle deadline' : 'max deadline';
      switch (event.action) {
        case 'armed':
          return { text: `${name}: due ${event.dueAtMs} ms`, tone: 'muted' };
        case 'reset':
          return { text: `idle restarts: due ${event.dueAtMs} ms`, tone: 'muted' };
        case 'fired':
          return { text: `${name} FIRES`, tone: 'bad' };
        case 'disarmed':
          return { text: `${name} off`, tone: 'muted' };
      }
      return null;
    }
    case 'state':
      return { text: `${event.from} → ${event.to}`, tone: 'plain' };
    case 'terminal':
      return { text: `TERMINAL: ${event.state}`, tone: 'strong' };
    case 'worker':
      switch (event.step) {
        case 'started':
          return { text: 'work starts', tone: 'plain' };
        case 'checkpoint':
          return { text: /^chunk \d+ of \d+ done$/.test(event.reason) ? event.reason : 'checkpoint', tone: 'muted' };
        case 'finished':
          return { text: 'finished · calls complete()', tone: 'plain' };
        case 'stopped':
          return { text: 'stops at a checkpoint', tone: 'warn' };
      }
      return null;
    case 'suppressed':
      return { text: `⊘ ${event.what} suppressed`, tone: 'bad' };
    case 'cancel-accepted':
      return { text: 'accepts the cancellation', tone: 'warn' };
    case 'cancel-ignored':
      return { text: 'ignores the cancellation', tone: 'bad' };
    case 'views-diverge':
      return { text: `views diverge: server ${event.serverView} · client ${event.clientView}`, tone: 'bad' };
    case 'sql':
      return event.ok ? { text: sqlHead(event.sql), tone: 'muted' } : { text: `${sqlHead(event.sql)} → ${event.error?.code ?? 'error'}`, tone: 'bad' };
    case 'ledger':
      return { text: `ledger: ${event.action}`, tone: event.action === 'failed' || event.action === 'rejected' ? 'bad' : event.action === 'executed' ? 'strong' : 'plain' };
    case 'task':
      return {
        text: event.status === null || event.status === event.action ? `task ${event.action}` : `task ${event.action}: ${event.status}`,
        tone: event.action === 'cancelled' || event.action === 'completed' ? 'strong' : 'plain',
      };
    case 'buffer':
      return {
        text: `${event.action} ${event.summary.replace(/ of #\d+$/, '')} · ${event.occupancyEvents}/${event.capacityEvents ?? '∞'}`,
        tone: event.action === 'dropped' || event.action === 'needs-refetch' || event.action === 'refused' ? 'bad' : event.action === 'coalesced' || event.action === 'released' ? 'warn' : 'muted',
      };
    case 'proxy':
      return { text: `proxy ${event.action}${event.events > 0 ? ` ${event.events}` : ''}`, tone: event.action === 'discarded' ? 'bad' : event.action === 'held' ? 'warn' : 'plain' };
    case 'sse-comment':
      return event.action === 'received' ? { text: 'keep-alive received', tone: 'muted' } : null;
    case 'http-request':
      return { text: `POST #${String(event.requestId)}`, tone: 'muted' };
    case 'stream-dropped':
      return { text: `✕ ${event.channel} dropped`, tone: 'bad' };
    case 'message-lost':
      return { text: `✕ lost: ${event.summary}`, tone: 'bad' };
    case 'reconnect-plan':
      return { text: 'reconnect plan', tone: 'strong' };
    case 'recovery':
      return { text: `recovery: ${event.step}`, tone: 'plain' };
    case 'herd-window':
      return { text: `window ${event.window}: ${event.attempts} tries, ${event.admitted} in`, tone: 'muted' };
    default:
      return { text: (event as { kind: string }).kind, tone: 'plain' };
  }
}
