import type { FlowEvent, FlowOutcome, HerdOutcome, ReconnectOutcome } from './flowTypes';

/** Readable lines for the flow-control and recovery models: the CLI timeline and outcome (format.ts calls these). */
export function describeFlowEvent(event: FlowEvent): string {
  switch (event.kind) {
    case 'buffer':
      return `buffer ${event.action} ${event.summary} [${event.occupancyEvents}/${event.capacityEvents}]: ${event.reason}`;
    case 'proxy':
      return `proxy ${event.action}${event.action === 'flushed' || event.action === 'discarded' ? ` ${event.events} event(s)` : ''} on #${String(event.requestId)}: ${event.reason}`;
    case 'sse-comment':
      return event.action === 'sent'
        ? `server → client  SSE comment "${event.line}" via ${event.channel}, arrives ${event.arrivesAtMs === null ? 'never' : `${event.arrivesAtMs} ms`}: ${event.reason}`
        : `client receives SSE comment "${event.line}": ${event.reason}`;
    case 'http-request':
      return `client POSTs #${String(event.requestId)} with headers ${Object.entries(event.headers).map(([key, value]) => `${key}: ${value}`).join('; ')}`;
    case 'stream-dropped':
      return `stream of #${String(event.requestId)} (${event.channel}) DROPPED: ${event.reason}`;
    case 'message-lost':
      return `LOST ${event.summary} (message seq ${event.messageSeq}): ${event.reason}`;
    case 'reconnect-plan': {
      const plan = event.plan;
      return (
        `reconnect plan: new listen #${String(plan.newRequestId)} (was #${String(plan.previousRequestId)}), restore filter ${JSON.stringify(plan.restoredFilter)}, ` +
        `refetch ${plan.refetch.join(', ')}, de-duplicate by ${Object.entries(plan.dedupeBy).map(([kind, key]) => `${kind}.${key}`).join(', ')}, ` +
        `reconcile instead of replay ${plan.reconcileInsteadOfReplay.length === 0 ? 'nothing' : plan.reconcileInsteadOfReplay.map((id) => `#${String(id)}`).join(', ')}, ` +
        `replayUnsafeMutations=${String(plan.replayUnsafeMutations)}, sendLastEventId=${String(plan.sendLastEventId)}`
      );
    }
    case 'recovery':
      return `client ${event.step}${event.requestId === null ? '' : ` #${String(event.requestId)}`}: ${event.reason}`;
    case 'herd-window':
      return `window ${event.window} (${event.startMs}–${event.endMs} ms): ${event.attempts} attempts, ${event.admitted} admitted, ${event.refused} refused; ${event.waiting} still waiting`;
  }
}

/** A horizontal bar chart of attempts over time, at most `rowsMax` rows (windows are grouped). */
export function plotAttempts(outcome: HerdOutcome, rowsMax = 60, widthMax = 50): string[] {
  const series = outcome.attemptsPerWindow;
  if (series.length === 0) return [];
  const windowsPerRow = Math.ceil(series.length / rowsMax);
  const rows: Array<{ fromMs: number; toMs: number; attempts: number }> = [];
  for (let start = 0; start < series.length; start += windowsPerRow) {
    let attempts = 0;
    for (let index = start; index < Math.min(series.length, start + windowsPerRow); index += 1) attempts += series[index] as number;
    rows.push({ fromMs: start * outcome.windowMs, toMs: Math.min(series.length, start + windowsPerRow) * outcome.windowMs, attempts });
  }
  const peak = Math.max(...rows.map((row) => row.attempts), 1);
  const label = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`);
  const labels = rows.map((row) => `${label(row.fromMs)}–${label(row.toMs)}`);
  const labelWidth = Math.max(...labels.map((text) => text.length));
  const lines = [`  attempts per ${windowsPerRow === 1 ? '' : `${windowsPerRow} windows = `}${windowsPerRow * outcome.windowMs} ms (each █ ≈ ${Math.max(1, Math.round(peak / widthMax)).toLocaleString('en-US')} attempts)`];
  rows.forEach((row, index) => {
    const width = row.attempts === 0 ? 0 : Math.max(1, Math.round((row.attempts / peak) * widthMax));
    lines.push(`  ${(labels[index] as string).padStart(labelWidth)} ${'█'.repeat(width)} ${row.attempts === 0 ? '' : row.attempts.toLocaleString('en-US')}`.trimEnd());
  });
  return lines;
}

function formatValue(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The outcome block of the CLI for a flow transcript (`kind` says which model made it). */
export function formatFlowOutcome(kind: string, outcome: FlowOutcome): string[] {
  const entries = Object.entries(outcome as unknown as Record<string, unknown>);
  if (kind === 'herd') {
    const herd = outcome as HerdOutcome;
    const lines = entries
      .filter(([key]) => key !== 'attemptsPerWindow')
      .map(([key, value]) => `  ${key.padEnd(22)} ${formatValue(value)}`);
    lines.push(`  ${'attemptsPerWindow'.padEnd(22)} ${herd.attemptsPerWindow.length} windows of ${herd.windowMs} ms (full series in --json)`);
    lines.push('', ...plotAttempts(herd));
    return lines;
  }
  if (kind === 'reconnect') {
    const reconnect = outcome as ReconnectOutcome;
    const lines = entries.filter(([key]) => key !== 'reconnectPlan').map(([key, value]) => `  ${key.padEnd(22)} ${formatValue(value)}`);
    lines.unshift('  reconnectPlan', ...Object.entries(reconnect.reconnectPlan).map(([key, value]) => `    ${key.padEnd(24)} ${formatValue(value)}`));
    return lines;
  }
  return entries.map(([key, value]) => `  ${key.padEnd(22)} ${formatValue(value)}`);
}
