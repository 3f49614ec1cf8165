import { settingsActingOn } from './core/settings';
import type { Settings } from './core/transcript';
import { PROTOCOL_VERSION, type JsonRpcMessage } from './mcp/protocol';
import { settingsSpecOfKind } from './scenario';
import type { FlowOutcome, HerdOutcome, LabEvent, ReconnectOutcome, Transcript } from './transcript';

/** Readable one-line descriptions of transcript events: the CLI's timeline and the page's list. */
export function describeMessage(message: JsonRpcMessage): string {
  if ('method' in message) {
    // JSON-RPC lets a request or notification omit params (a real peer's notifications/initialized does).
    const params = message.params ?? {};
    if (message.method === 'notifications/progress')
      return `notifications/progress ${String(params.progress)}/${String(params.total ?? '?')}`;
    // A malformed cancellation (the lab's buggy client) names no request: say so, never "requestId=undefined".
    if (message.method === 'notifications/cancelled')
      return params.requestId === undefined
        ? 'notifications/cancelled without a requestId'
        : `notifications/cancelled requestId=${JSON.stringify(params.requestId)}`;
    // Only the real SDK's runs carry a handshake: name the revision it offers.
    if (message.method === 'initialize' && 'id' in message && typeof params.protocolVersion === 'string')
      return `initialize #${String(message.id)} (offers protocol ${params.protocolVersion})`;
    return 'id' in message ? `${message.method} #${String(message.id)}` : message.method;
  }
  if ('result' in message) {
    if (typeof message.result.protocolVersion === 'string')
      return `response #${String(message.id)} (initialize result: protocol ${message.result.protocolVersion})`;
    // A result of an older revision (the real SDK's) has no resultType.
    if (message.result.resultType === undefined) return `response #${String(message.id)}`;
    return `response #${String(message.id)} (${String(message.result.resultType)})`;
  }
  return `error response #${String(message.id ?? 'null')}: ${message.error.message}`;
}

/**
 * The end of a message's sentence that tells its fate at the receiver (empty when it is used). The
 * receiver decides it on arrival, so a replay that stands before the arrival leaves it off.
 */
export function ignoredSuffix(event: Extract<LabEvent, { kind: 'message' }>): string {
  return event.ignoredBy ? ` (ignored by ${event.ignoredBy}: ${event.reason ?? 'no reason recorded'})` : '';
}

/**
 * One event in a sentence. `atSend` words a message as its sender sees it when it leaves: what
 * becomes of it later (ignored by its receiver) is said at the step where that happens, by the
 * receipt (worded as the message's own line was), so a replay never tells it before then. A message
 * dropped as it is sent is lost then. The page's wording (wordEvent) is the replay's; the CLI's
 * timeline keeps the whole story on the message's line.
 */
export function describeEvent(event: LabEvent, atSend = false): string {
  switch (event.kind) {
    case 'message': {
      if (event.lost === true)
        return `${event.from} → ${event.to}: ${describeMessage(event.message)} on ${event.channel} (lost: ${event.reason ?? 'no reason recorded'})`;
      const ignored = atSend ? '' : ignoredSuffix(event);
      const fault =
        event.duplicateOf !== undefined
          ? ` (the network's duplicate of message ${event.duplicateOf})`
          : event.fault !== undefined
            ? ` (fault ${event.fault})`
            : '';
      return `${event.from} → ${event.to}: ${describeMessage(event.message)} on ${event.channel}, arrives ${event.arrivesAtMs} ms${fault}${ignored}`;
    }
    case 'delivered':
      if (atSend && event.ignoredBy)
        return `${event.to} receives ${event.summary} (ignored by ${event.ignoredBy}: ${event.reason ?? 'no reason recorded'})`;
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
      return `${event.by} opens SSE response stream for #${String(event.requestId)} (${Object.entries(event.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ')})`;
    case 'stream-closed':
      return `${event.by} closes the response stream of #${String(event.requestId)}: ${event.reason}`;
    case 'disconnect-observed':
      return `${event.by} observes the disconnect of #${String(event.requestId)}: ${event.reason}`;
    case 'cancel-accepted':
      return `${event.by} accepts the cancellation of #${String(event.requestId)}: ${event.reason}`;
    case 'sql': {
      const params = event.params.length > 0 ? ` ${JSON.stringify(event.params)}` : '';
      const result = event.ok
        ? `ok${event.rows && event.rows.length > 0 ? ` ${JSON.stringify(event.rows)}` : ''}`
        : `${event.error?.code ?? 'error'}: ${event.error?.message ?? ''}`;
      return `${event.connection}: ${event.sql}${params} → ${result} (${event.purpose})`;
    }
    case 'task':
      return `task ${event.taskId} ${event.action}${event.status === null ? '' : ` (${event.status})`}: ${event.detail}`;
    case 'ledger':
      return `ledger ${event.action}${event.connection ? ` [${event.connection}]` : ''}${event.requestId === undefined ? '' : ` #${String(event.requestId)}`}: ${event.detail}`;
    case 'views-diverge':
      return `VIEWS DIVERGE on #${String(event.requestId)}: ${event.reason}`;
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
    case 'probe-note':
    case 'http-response':
    case 'verdict':
      return describeRecordingEvent(event);
  }
}

/** A recording's own events (a `lab probe` transcript opened in the page): the probe's words, its HTTP answers, its verdicts. */
function describeRecordingEvent(
  event: Extract<LabEvent, { kind: 'probe-note' | 'http-response' | 'verdict' }>,
): string {
  switch (event.kind) {
    case 'probe-note':
      return `probe (${event.probe}): ${event.text}`;
    case 'http-response': {
      const type = event.headers['content-type'];
      return `HTTP ${event.status} on ${event.channel}${event.requestId === null ? '' : ` for #${String(event.requestId)}`}${type === undefined ? '' : ` (${type})`}`;
    }
    case 'verdict':
      return `${event.result === 'broken' ? `BROKEN (${event.sentence.level})` : event.result === 'not followed' ? `not followed (${event.sentence.level})` : event.result}: ${event.check} (${event.probe}) — ${event.detail}. Checks the ${event.sentence.revision === 'lesson' ? `lesson's ${event.sentence.page}` : `${event.sentence.revision} ${event.sentence.page}`} ${event.sentence.level}: ${event.sentence.text.replaceAll('**', '')}`;
  }
}

// ── short labels for the sequence diagram ───────────────────────────────────────────────────────
// A short label for each wire message and each marker; the full sentence (describeEvent) goes in
// the marker's tooltip, the timeline, the inspector and the step sentence.

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
      return typeof progress === 'number'
        ? `progress ${progress}${typeof total === 'number' ? `/${total}` : ''}`
        : 'progress';
    }
    if (message.method === 'notifications/cancelled') return `notifications/cancelled ${idOf(params.requestId)}`.trim();
    // Only the real SDK's runs open with a handshake: its wire names the revision it offers.
    if (message.method === 'initialize' && 'id' in message && typeof params.protocolVersion === 'string')
      return `initialize #${String(message.id)} · protocol ${params.protocolVersion}`;
    return 'id' in message ? `${message.method} #${String(message.id)}` : message.method;
  }
  if ('error' in message) return `error ${idOf(message.id)}`.trim();
  if (typeof message.result.protocolVersion === 'string')
    return `initialize #${String(message.id)} · protocol ${message.result.protocolVersion}`;
  return `response #${String(message.id)}`;
}

export type MarkerTone = 'plain' | 'muted' | 'good' | 'warn' | 'bad' | 'strong';

export interface MarkerWording {
  text: string;
  tone: MarkerTone;
}

function sqlHead(sql: string): string {
  const words = sql.trim().split(/\s+/);
  const head =
    words[0] === 'BEGIN' || words[0] === 'INSERT' || words[0] === 'DELETE' ? words.slice(0, 2) : words.slice(0, 1);
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
    case 'deadline':
      return deadlineMarker(event);
    case 'state':
      return { text: `${event.from} → ${event.to}`, tone: 'plain' };
    case 'terminal':
      return { text: `TERMINAL: ${event.state}`, tone: 'strong' };
    case 'worker':
      return workerMarker(event);
    case 'suppressed':
      return { text: `⊘ ${event.what} suppressed`, tone: 'bad' };
    case 'cancel-accepted':
      return { text: 'accepts the cancellation', tone: 'warn' };
    case 'cancel-ignored':
      return { text: 'ignores the cancellation', tone: 'bad' };
    case 'views-diverge':
      // Short: the marker sits on the client lane beside wires in flight; the sentence says the rest.
      return { text: `views diverge: client ${event.clientView}`, tone: 'bad' };
    case 'sql':
      return event.ok
        ? { text: sqlHead(event.sql), tone: 'muted' }
        : { text: `${sqlHead(event.sql)} → ${event.error?.code ?? 'error'}`, tone: 'bad' };
    case 'ledger':
      return {
        text: `ledger: ${event.action}`,
        tone:
          event.action === 'failed' || event.action === 'rejected'
            ? 'bad'
            : event.action === 'executed'
              ? 'strong'
              : 'plain',
      };
    case 'task':
      return {
        text:
          event.status === null || event.status === event.action
            ? `task ${event.action}`
            : `task ${event.action}: ${event.status}`,
        tone: event.action === 'cancelled' || event.action === 'completed' ? 'strong' : 'plain',
      };
    case 'buffer':
      return bufferMarker(event);
    case 'proxy':
      return {
        text: `proxy ${event.action}${event.events > 0 ? ` ${event.events}` : ''}`,
        tone: event.action === 'discarded' ? 'bad' : event.action === 'held' ? 'warn' : 'plain',
      };
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
    case 'probe-note':
      return null; // the probe's narration: the step sentence and the timeline say it
    case 'http-response':
      return {
        text: `HTTP ${event.status}`,
        tone: event.status >= 400 ? 'warn' : event.status === 200 ? 'muted' : 'plain',
      };
    case 'verdict':
      return verdictMarker(event);
    default: {
      // Every kind is named above: a new kind fails to compile here until it has its marker.
      const unworded: never = event;
      return unworded;
    }
  }
}

type EventOf<K extends LabEvent['kind']> = Extract<LabEvent, { kind: K }>;

function deadlineMarker(event: EventOf<'deadline'>): MarkerWording | null {
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

function workerMarker(event: EventOf<'worker'>): MarkerWording | null {
  switch (event.step) {
    case 'started':
      return { text: 'work starts', tone: 'plain' };
    case 'checkpoint':
      return { text: /^chunk \d+ of \d+ done$/.test(event.reason) ? event.reason : 'checkpoint', tone: 'muted' };
    case 'finished':
      // The SDK lanes have no complete(): the marker says what every lane shares, the timeline says how.
      return { text: 'work finished', tone: 'plain' };
    case 'stopped':
      return { text: 'stops at a checkpoint', tone: 'warn' };
  }
  return null;
}

function bufferMarker(event: EventOf<'buffer'>): MarkerWording {
  return {
    text: `${event.action} ${event.summary.replace(/ of #\d+$/, '')} · ${event.occupancyEvents}/${event.capacityEvents ?? '∞'}`,
    tone:
      event.action === 'dropped' || event.action === 'needs-refetch' || event.action === 'refused'
        ? 'bad'
        : event.action === 'coalesced' || event.action === 'released'
          ? 'warn'
          : 'muted',
  };
}

function verdictMarker(event: EventOf<'verdict'>): MarkerWording {
  return {
    text: `${event.result === 'broken' ? 'BROKEN' : event.result}: ${event.check}`,
    tone:
      event.result === 'broken'
        ? 'bad'
        : event.result === 'not followed'
          ? 'warn'
          : event.result === 'holds'
            ? 'good'
            : 'plain',
  };
}

/** Everything a reader of one event sees, worded once by the engine for the CLI, the timeline, the diagram and aria-live. */
export interface EventWording {
  /** The full sentence: the timeline row, the inspector, the step sentence, a marker's tooltip. */
  text: string;
  /** The short label of a wire message (messages only). */
  label: string | null;
  /** The marker drawn on the event's lane, or null when the event is drawn as an edge or not at all. */
  marker: MarkerWording | null;
  /** The end of `text` that tells a message's fate at its receiver (ignored on arrival); absent when none. */
  fate?: string;
}

export function wordEvent(event: LabEvent): EventWording {
  const wording: EventWording = {
    text: describeEvent(event, true),
    label: event.kind === 'message' ? messageLabel(event.message) : null,
    marker: markerWording(event),
  };
  const fate = event.kind === 'message' && event.lost !== true ? ignoredSuffix(event) : '';
  return fate === '' ? wording : { ...wording, fate };
}

/** The wording of every event of a run, in order: what the worker sends the page with the transcript. */
export function wordEvents(events: readonly LabEvent[]): EventWording[] {
  return events.map(wordEvent);
}

/** The CLI's default output: the seed and resolved settings first (replay needs them), then the timeline and the outcome. */
export function formatTimeline(transcript: Transcript, defaults: Settings = {}): string {
  const lines: string[] = [];
  lines.push(`scenario ${transcript.scenario}: ${transcript.title}`);
  lines.push(`transport=${transcript.transport} seed=${transcript.seed} protocol=${transcript.protocolVersion}`);
  if (transcript.sdk !== undefined) {
    lines.push(
      transcript.sdk.negotiatedProtocolVersion === PROTOCOL_VERSION
        ? `implementation=${transcript.implementation ?? 'ts-sdk'}: the real ${transcript.sdk.package} ${transcript.sdk.version} on the virtual clock; it negotiated protocol ${transcript.sdk.negotiatedProtocolVersion}, the lab's own, so its messages are held to the 2026-07-28 schema (in the tests) and to the invariants below`
        : `implementation=${transcript.implementation ?? 'ts-sdk'}: the real ${transcript.sdk.package} ${transcript.sdk.version} on the virtual clock; it negotiated protocol ${transcript.sdk.negotiatedProtocolVersion}, older than the lab's, so its messages are checked against the invariants below, not the 2026-07-28 schema`,
    );
  }
  lines.push(
    `settings ${settingsActingOn(transcript.settings, settingsSpecOfKind(transcript.kind), transcript.transport)
      .map(([k, v]) => `${k}=${v === null ? 'none' : String(v)}`)
      .join(' ')}`,
  );
  lines.push(`requirements ${transcript.requirements.join(' ')}`);
  lines.push('');
  const width = Math.max(...transcript.events.map((event) => String(event.atMs).length));
  for (const event of transcript.events)
    lines.push(`${String(event.atMs).padStart(width)} ms  ${describeEvent(event)}`);
  lines.push('');
  lines.push('outcome');
  lines.push(...formatOutcome(transcript));
  // The request-lifecycle invariants belong to a request race; a task lane (ext-tasks) has none to list.
  if (transcript.sdk !== undefined && transcript.sdk.invariants.length > 0) {
    lines.push('');
    lines.push('request-lifecycle invariants (RC), checked on what the SDK put on the wire');
    for (const check of transcript.sdk.invariants)
      lines.push(`  ${check.holds ? 'holds ' : 'BROKEN'} ${check.id}: ${check.statement} — ${check.detail}`);
  }
  const impl =
    transcript.implementation === undefined || transcript.implementation === 'model'
      ? ''
      : ` --impl ${transcript.implementation}`;
  lines.push(
    `reproduce: npm run lab -- run ${transcript.scenario}${impl} --transport ${transcript.transport} --seed ${transcript.seed}${settingsArgs(transcript, defaults)}${transcript.schedule === undefined ? '' : ` --schedule ${transcript.schedule}`}${
      transcript.faults === undefined
        ? ''
        : transcript.faults
            .split(',')
            .map((fault) => ` --fault ${fault}`)
            .join('')
    }`,
  );
  return lines.join('\n');
}

function formatOutcome(transcript: Transcript): string[] {
  const outcome = transcript.outcome;
  if (['buffer', 'proxy', 'reconnect', 'herd'].includes(transcript.kind))
    return formatFlowOutcome(transcript.kind, outcome as FlowOutcome);
  if (!('terminalState' in outcome)) {
    return Object.entries(outcome).map(
      ([key, value]) => `  ${key.padEnd(20)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    );
  }
  const lines: string[] = [];
  lines.push(`  terminal state       ${outcome.terminalState} (at ${outcome.terminalAtMs} ms)`);
  lines.push(`  final response       ${outcome.finalResponse ? 'yes: a final response reached the wire' : 'no'}`);
  lines.push(`  cancellation signal  ${outcome.cancellationSignal ?? 'none'}`);
  lines.push(
    `  client ignores       ${outcome.clientIgnores.length === 0 ? 'nothing' : outcome.clientIgnores.map((item) => `${item.summary} at ${item.atMs} ms (${item.reason})`).join('; ')}`,
  );
  const views = outcome.viewsDiverge
    ? ` — differs from what the server saw: it completed and sent the response, which the client never uses`
    : outcome.clientOutcome === 'completed'
      ? ': the client used the final response'
      : '';
  lines.push(`  client outcome       ${outcome.clientOutcome} (at ${outcome.clientOutcomeAtMs} ms)${views}`);
  if (outcome.clientOutcome === 'completed' && outcome.cancelDelayMs !== null && outcome.cancelDelayMs !== undefined) {
    lines.push(
      `  cancel sent          ${outcome.cancelDelayMs} ms after the client used the result: a cancellation of a request that had already ended (the server ignores it, RC-7)`,
    );
  } else if (outcome.cancelDelayMs !== null && outcome.cancelDelayMs !== undefined && outcome.cancelDelayMs > 0) {
    lines.push(
      `  cancel sent          ${outcome.cancelDelayMs} ms after the client gave up (${transcript.implementation === 'ts-sdk' || transcript.implementation === 'ts-sdk-v2' ? 'the real SDK' : `clientProfile=${String(transcript.settings.clientProfile)}`}): the server worked on that long for a result nobody uses; the spec's client cancels the moment it gives up`,
    );
  }
  return lines;
}

/** The --set arguments that reproduce this run: every setting that differs from the scenario's defaults. */
function settingsArgs(transcript: Transcript, defaults: Settings): string {
  return Object.entries(transcript.settings)
    .filter(([key, value]) => defaults[key] !== value)
    .map(([key, value]) => ` --set ${key}=${value === null ? 'none' : String(value)}`)
    .join('');
}

// ── flow control and recovery (docs/requirements.md, BF and RV) ─────────────────────────────────

/** Readable lines for the flow-control and recovery models: the CLI timeline and outcome (format.ts calls these). */
type FlowEventKind =
  | 'buffer'
  | 'proxy'
  | 'sse-comment'
  | 'http-request'
  | 'stream-dropped'
  | 'message-lost'
  | 'reconnect-plan'
  | 'recovery'
  | 'herd-window';

function describeFlowEvent(event: Extract<LabEvent, { kind: FlowEventKind }>): string {
  switch (event.kind) {
    case 'buffer':
      return `buffer ${event.action} ${event.summary} [${event.occupancyEvents}/${event.capacityEvents ?? 'unbounded'}]: ${event.reason}`;
    case 'proxy':
      return `proxy ${event.action}${event.action === 'flushed' || event.action === 'discarded' ? ` ${event.events} event(s)` : ''} on #${String(event.requestId)}: ${event.reason}`;
    case 'sse-comment':
      return event.action === 'sent'
        ? `server → client  SSE comment "${event.line}" via ${event.channel}, arrives ${event.arrivesAtMs === null ? 'never' : `${event.arrivesAtMs} ms`}: ${event.reason}`
        : `client receives SSE comment "${event.line}": ${event.reason}`;
    case 'http-request':
      return `client POSTs #${String(event.requestId)} with headers ${Object.entries(event.headers)
        .map(([key, value]) => `${key}: ${value}`)
        .join('; ')}`;
    case 'stream-dropped':
      return `stream of #${String(event.requestId)} (${event.channel}) DROPPED: ${event.reason}`;
    case 'message-lost':
      return `LOST ${event.summary} (message seq ${event.messageSeq}): ${event.reason}`;
    case 'reconnect-plan': {
      const plan = event.plan;
      return (
        `reconnect plan: new listen #${String(plan.newRequestId)} (was #${String(plan.previousRequestId)}), restore filter ${JSON.stringify(plan.restoredFilter)}, ` +
        `refetch ${plan.refetch.length === 0 ? 'nothing' : plan.refetch.join(', ')}, de-duplicate by ${Object.entries(
          plan.dedupeBy,
        )
          .map(([kind, key]) => `${kind}.${key}`)
          .join(', ')}, ` +
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
    for (let index = start; index < Math.min(series.length, start + windowsPerRow); index += 1)
      attempts += series[index] as number;
    rows.push({
      fromMs: start * outcome.windowMs,
      toMs: Math.min(series.length, start + windowsPerRow) * outcome.windowMs,
      attempts,
    });
  }
  const peak = Math.max(...rows.map((row) => row.attempts), 1);
  const label = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`);
  const labels = rows.map((row) => `${label(row.fromMs)}–${label(row.toMs)}`);
  const labelWidth = Math.max(...labels.map((text) => text.length));
  const lines = [
    `  attempts per ${windowsPerRow === 1 ? '' : `${windowsPerRow} windows = `}${windowsPerRow * outcome.windowMs} ms (each █ ≈ ${Math.max(1, Math.round(peak / widthMax)).toLocaleString('en-US')} attempts)`,
  ];
  rows.forEach((row, index) => {
    const width = row.attempts === 0 ? 0 : Math.max(1, Math.round((row.attempts / peak) * widthMax));
    lines.push(
      `  ${(labels[index] as string).padStart(labelWidth)} ${'█'.repeat(width)} ${row.attempts === 0 ? '' : row.attempts.toLocaleString('en-US')}`.trimEnd(),
    );
  });
  return lines;
}

function formatValue(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The outcome block of the CLI for a flow transcript (`kind` says which model made it). */
export function formatFlowOutcome(kind: string, outcome: FlowOutcome): string[] {
  const entries: [string, unknown][] = Object.entries(outcome);
  if (kind === 'herd') {
    const herd = outcome as HerdOutcome;
    const lines = entries
      .filter(([key]) => key !== 'attemptsPerWindow')
      .map(([key, value]) => `  ${key.padEnd(22)} ${formatValue(value)}`);
    lines.push(
      `  ${'attemptsPerWindow'.padEnd(22)} ${herd.attemptsPerWindow.length} windows of ${herd.windowMs} ms (full series in --json)`,
    );
    lines.push('', ...plotAttempts(herd));
    return lines;
  }
  if (kind === 'reconnect') {
    const reconnect = outcome as ReconnectOutcome;
    const lines = entries
      .filter(([key]) => key !== 'reconnectPlan')
      .map(([key, value]) => `  ${key.padEnd(22)} ${formatValue(value)}`);
    lines.unshift(
      '  reconnectPlan',
      ...Object.entries(reconnect.reconnectPlan).map(([key, value]) => `    ${key.padEnd(24)} ${formatValue(value)}`),
    );
    return lines;
  }
  return entries.map(([key, value]) => `  ${key.padEnd(22)} ${formatValue(value)}`);
}
