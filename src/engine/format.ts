import type { LabEvent, Settings, Transcript } from './transcript';
import type { JsonRpcMessage } from './protocol';
import { describeFlowEvent, formatFlowOutcome } from './flowFormat';
import type { FlowOutcome } from './flowTypes';

/** Readable one-line descriptions of transcript events: the CLI's timeline and the page's list. */
export function describeMessage(message: JsonRpcMessage): string {
  if ('method' in message) {
    const params = message.params;
    if (message.method === 'notifications/progress') return `notifications/progress ${String(params.progress)}/${String(params.total ?? '?')}`;
    if (message.method === 'notifications/cancelled') return `notifications/cancelled requestId=${JSON.stringify(params.requestId)}`;
    return 'id' in message ? `${message.method} #${String(message.id)}` : message.method;
  }
  if ('result' in message) return `response #${String(message.id)} (${String(message.result.resultType)})`;
  return `error response #${String(message.id ?? 'null')}: ${message.error.message}`;
}

export function describeEvent(event: LabEvent): string {
  switch (event.kind) {
    case 'message': {
      if (event.lost === true) return `${event.from} → ${event.to}  ${describeMessage(event.message)}  via ${event.channel}, LOST: ${event.reason ?? ''}`;
      const ignored = event.ignoredBy ? `  [ignored by ${event.ignoredBy}: ${event.reason ?? ''}]` : '';
      return `${event.from} → ${event.to}  ${describeMessage(event.message)}  via ${event.channel}, arrives ${event.arrivesAtMs} ms${ignored}`;
    }
    case 'delivered':
      return `${event.to} receives ${event.summary}${event.ignoredBy ? ` and ignores it: ${event.reason ?? ''}` : ''}`;
    case 'request-started':
      return `request #${String(event.requestId)} starts (idle ${event.idleTimeoutMs} ms, max ${event.maxTimeoutMs} ms, progressToken ${JSON.stringify(event.progressToken)})`;
    case 'deadline':
      return `${event.deadline} deadline ${event.action} (due ${event.dueAtMs} ms): ${event.reason}`;
    case 'state':
      return `${event.side} state ${event.from} → ${event.to}: ${event.reason}`;
    case 'terminal':
      return `TERMINAL ${event.state}: ${event.reason}`;
    case 'worker':
      return `worker ${event.step}: ${event.reason}`;
    case 'suppressed':
      return `${event.by} suppresses ${event.what}: ${event.reason}`;
    case 'stream-opened':
      return `${event.by} opens SSE response stream for #${String(event.requestId)} (${Object.entries(event.headers).map(([k, v]) => `${k}: ${v}`).join('; ')})`;
    case 'stream-closed':
      return `${event.by} closes the response stream of #${String(event.requestId)}: ${event.reason}`;
    case 'disconnect-observed':
      return `${event.by} observes the disconnect of #${String(event.requestId)}: ${event.reason}`;
    case 'cancel-accepted':
      return `${event.by} accepts the cancellation of #${String(event.requestId)}: ${event.reason}`;
    case 'sql': {
      const params = event.params.length > 0 ? ` ${JSON.stringify(event.params)}` : '';
      const result = event.ok ? `ok${event.rows && event.rows.length > 0 ? ` ${JSON.stringify(event.rows)}` : ''}` : `${event.error?.code ?? 'error'}: ${event.error?.message ?? ''}`;
      return `${event.connection} ${event.sql}${params} → ${result}  (${event.purpose})`;
    }
    case 'task':
      return `task ${event.taskId} ${event.action}${event.status === null ? '' : ` (${event.status})`}: ${event.detail}`;
    case 'ledger':
      return `ledger ${event.action}${event.connection ? ` [${event.connection}]` : ''}${event.requestId === undefined ? '' : ` #${String(event.requestId)}`}: ${event.detail}`;
    case 'cancel-ignored':
      return `${event.by} ignores a cancellation${event.requestId === null ? '' : ` of #${String(event.requestId)}`}: ${event.reason}`;
    case 'buffer':
    case 'proxy':
    case 'sse-comment':
    case 'http-request':
    case 'stream-dropped':
    case 'message-lost':
    case 'reconnect-plan':
    case 'recovery':
    case 'herd-window':
      return describeFlowEvent(event);
  }
}

/** The CLI's default output: the seed and resolved settings first (replay needs them), then the timeline and the outcome. */
export function formatTimeline(transcript: Transcript, defaults: Settings = {}): string {
  const lines: string[] = [];
  lines.push(`scenario ${transcript.scenario}: ${transcript.title}`);
  lines.push(`transport=${transcript.transport} seed=${transcript.seed} protocol=${transcript.protocolVersion}`);
  lines.push(`settings ${Object.entries(transcript.settings).map(([k, v]) => `${k}=${v === null ? 'none' : String(v)}`).join(' ')}`);
  lines.push(`requirements ${transcript.requirements.join(' ')}`);
  lines.push('');
  const width = Math.max(...transcript.events.map((event) => String(event.atMs).length));
  for (const event of transcript.events) lines.push(`${String(event.atMs).padStart(width)} ms  ${describeEvent(event)}`);
  lines.push('');
  lines.push('outcome');
  lines.push(...formatOutcome(transcript));
  lines.push(`reproduce: npm run lab -- run ${transcript.scenario} --transport ${transcript.transport} --seed ${transcript.seed}${settingsArgs(transcript, defaults)}`);
  return lines.join('\n');
}

function formatOutcome(transcript: Transcript): string[] {
  const outcome = transcript.outcome;
  if (['buffer', 'proxy', 'reconnect', 'herd'].includes(transcript.kind)) return formatFlowOutcome(transcript.kind, outcome as FlowOutcome);
  if (!('terminalState' in outcome)) {
    return Object.entries(outcome).map(([key, value]) => `  ${key.padEnd(20)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
  const lines: string[] = [];
  lines.push(`  terminal state       ${outcome.terminalState} (at ${outcome.terminalAtMs} ms)`);
  lines.push(`  final response       ${outcome.finalResponse ? 'yes: a final response reached the wire' : 'no'}`);
  lines.push(`  cancellation signal  ${outcome.cancellationSignal ?? 'none'}`);
  lines.push(`  client ignores       ${outcome.clientIgnores.length === 0 ? 'nothing' : outcome.clientIgnores.map((item) => `${item.summary} at ${item.atMs} ms (${item.reason})`).join('; ')}`);
  return lines;
}

/** The --set arguments that reproduce this run: every setting that differs from the scenario's defaults. */
function settingsArgs(transcript: Transcript, defaults: Settings): string {
  return Object.entries(transcript.settings)
    .filter(([key, value]) => defaults[key] !== value)
    .map(([key, value]) => ` --set ${key}=${value === null ? 'none' : String(value)}`)
    .join('');
}
