import type { LabEvent, Transcript } from '../store/labStore';

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

export function factsRow(outcome: Transcript['outcome']): FactsRow {
  return {
    terminalState: outcome.terminalState,
    finalResponse: outcome.finalResponse ? 'yes' : 'no',
    cancellationSignal: outcome.cancellationSignal ?? 'none',
    clientIgnores: outcome.clientIgnores.length === 0 ? 'nothing' : outcome.clientIgnores.map((ignore) => ignore.summary).join(', '),
  };
}

export const TRANSPORT_LABELS = { stdio: 'stdio', http: 'Streamable HTTP' } as const;

/** The suffix for a message its receiver dropped, or one that never arrived. */
function ignored(event: LabEvent & { ignoredBy?: string; reason?: string }): string {
  const reason = event.reason ?? 'no reason recorded';
  if (event.ignoredBy !== undefined) return ` (ignored by ${event.ignoredBy}: ${reason})`;
  if ('lost' in event && event.lost === true) return ` (lost: ${reason})`;
  return '';
}

function messageLabel(message: Extract<LabEvent, { kind: 'message' }>['message']): string {
  if ('method' in message) return 'id' in message ? `${message.method} #${String(message.id)}` : message.method;
  if ('error' in message) return message.id === undefined ? 'error response' : `error response #${String(message.id)}`;
  return `response #${String(message.id)}`;
}

/** The part of a timeline line after "<atMs> ms · <kind> · ". */
export function describeEvent(event: LabEvent): string {
  switch (event.kind) {
    case 'message':
      return `${event.from} → ${event.to}: ${messageLabel(event.message)} on ${event.channel}${ignored(event)}`;
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
  }
}
