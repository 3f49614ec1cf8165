import type { MessageFault } from '../../core/wire';
import { assert } from '../../core/assert';
import type { Model } from '../../core/model';
import { Sim } from '../../core/sim';
import type { Chooser, SchedulerOptions } from '../../core/scheduler';
import type { MessageEvent, Side, Transport } from '../../core/transcript';
import { RequestCoordinator } from '../../mcp/coordinator';
import { noteTerminal } from '../../mcp/deadlines';
import { SSE_HEADERS, callToolRequest, callToolResultResponse, cancelledNotification, requestMeta, type JsonObject, type JsonRpcMessage, type RequestId } from '../../mcp/protocol';
import { summarizeMessage } from '../../mcp/summary';
import { ServerWorker } from '../../mcp/worker';
import { listenServerCancelSettingsSpec, type ListenServerCancelSettings } from './settings';
import type { ListenModelEvent, ListenOutcome, ListenScenario } from './types';
export { listenServerCancelSettingsSpec, listenServerCancelDefaults, type ListenServerCancelSettings } from './settings';

/**
 * `listen-server-cancel` (SPEC RC-9): server-initiated cancellation is narrow. The client holds a
 * `subscriptions/listen` call (#1) and runs a tool call (#2). The client cancels its tool call on
 * its own path (stdio: notifications/cancelled client → server; Streamable HTTP: closing #2's
 * stream). Later the server ends the listen: on stdio with its own notifications/cancelled naming
 * #1 (the only request a server may cancel, as the schema says), on Streamable HTTP by closing #1's
 * stream. The coordinator keeps the two paths apart: the server's path refuses any request that is
 * not an open listen call.
 */
const LISTEN_ID = 1;
const TOOL_ID = 2;
const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';
const CHECKPOINT_EVERY_MS = 100;
/** The tool call is not about deadlines here: generous ones, so only the cancellations end things. */
const TOOL_TIMEOUT_MS = 3_600_000;

export class ListenServerCancel {
  readonly sim: Sim<ListenModelEvent>;
  readonly coordinator = new RequestCoordinator();
  private readonly settings: ListenServerCancelSettings;
  private notificationsReceived = 0;
  private readonly serverCancelled: RequestId[] = [];
  private readonly clientCancelled: RequestId[] = [];
  private listenEndedAtMs: number | null = null;
  private clientClosedToolStream = false;

  constructor(transport: ListenServerCancelOptions['transport'], seed: number, settings: ListenServerCancelSettings, options: Omit<ListenServerCancelOptions, 'transport'> = {}) {
    this.settings = settings;
    this.sim = new Sim({ transport, seed, eventsMax: settings.eventsMax, latency: settings, chooser: options.chooser, trace: options.trace, faults: options.faults, summarize: summarizeMessage });
  }

  get events(): ListenModelEvent[] {
    return this.sim.events;
  }

  private channel(from: Side, message: JsonRpcMessage, requestId: RequestId): string {
    if (!this.sim.http) return 'stdio';
    if (from === 'server') return `SSE #${String(requestId)}`;
    return 'id' in message && 'method' in message ? `POST #${String(message.id)}` : `POST ${'method' in message ? message.method : 'message'}`;
  }

  private send(from: Side, message: JsonRpcMessage, requestId: RequestId, deliver: (event: MessageEvent) => string | null): MessageEvent {
    return this.sim.wire.send(from, this.channel(from, message, requestId), message, deliver);
  }

  run(): this {
    const s = this.settings;
    this.sim.at(0, 'client', 'open listen', () => this.openListen());
    this.sim.at(10, 'client', 'call tool', () => this.callTool());
    if (s.cancelAtMs !== null) this.sim.at(s.cancelAtMs, 'client', 'client cancels its tool call', () => this.clientCancelsTool());
    this.sim.at(s.serverEndsListenAtMs, 'server', 'server ends the listen', () => this.serverEndsListen());
    this.sim.run();
    this.sim.wire.assertAllAnswered();
    return this;
  }

  // ── the listen call (#1) ─────────────────────────────────────────────────────────────────────

  private openListen(): void {
    this.coordinator.openListen(LISTEN_ID, this.sim.nowMs);
    const filter: JsonObject = { toolsListChanged: true };
    this.send('client', { jsonrpc: '2.0', id: LISTEN_ID, method: 'subscriptions/listen', params: { notifications: filter, _meta: requestMeta(null) } }, LISTEN_ID, () => {
      if (this.sim.http) this.sim.record({ kind: 'stream-opened', by: 'server', requestId: LISTEN_ID, headers: { ...SSE_HEADERS } });
      this.sendOnListen({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { ...filter }, _meta: { [SUBSCRIPTION_ID_KEY]: LISTEN_ID } } });
      this.sim.after(90, 'server', 'tools list changes', () => {
        if (this.listenEndedAtMs === null) this.sendOnListen({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUBSCRIPTION_ID_KEY]: LISTEN_ID } } });
      });
      return null;
    });
  }

  private sendOnListen(message: JsonRpcMessage): void {
    this.send('server', message, LISTEN_ID, () => {
      this.notificationsReceived += 1;
      return null;
    });
  }

  /** RC-9: the server ends the listen — the one request a server may cancel. */
  private serverEndsListen(): void {
    const verdict = this.coordinator.serverEndListen(LISTEN_ID, this.sim.nowMs);
    assert(verdict.accepted, 'the listen call is open when the server ends it');
    // The server's path refuses any other request: it never cancels the client's tool call.
    const refusal = this.coordinator.serverEndListen(TOOL_ID, this.sim.nowMs);
    assert(!refusal.accepted, 'a server never cancels an ordinary request');
    this.serverCancelled.push(LISTEN_ID);
    this.listenEndedAtMs = this.sim.nowMs;
    this.sim.wire.settle('client', LISTEN_ID);
    const reason = 'the server ends this subscription (it is shutting the subscription down); RC-9: ending a subscriptions/listen call is the only cancellation a server sends';
    this.sim.record({ kind: 'state', side: 'server', requestId: LISTEN_ID, from: 'listening', to: 'cancelled', reason });
    this.sim.record({ kind: 'terminal', requestId: LISTEN_ID, state: 'cancelled', reason: 'the server ended the subscriptions/listen call' });
    if (this.sim.http) {
      this.sim.record({ kind: 'stream-closed', by: 'server', requestId: LISTEN_ID, reason: `${reason}; on Streamable HTTP closing the listen stream is the signal, nothing else is sent` });
      this.sim.after(this.settings.latencyMs, 'client', 'client observes the listen stream close', () => this.clientSeesListenEnd('its SSE stream closed'));
      return;
    }
    // Every message of the listen stream carries its subscription id; the schema allows _meta here.
    const message = cancelledNotification(LISTEN_ID, 'The server is ending this subscription');
    message.params._meta = { [SUBSCRIPTION_ID_KEY]: LISTEN_ID };
    this.send('server', message, LISTEN_ID, () => {
      this.clientSeesListenEnd('notifications/cancelled from the server names it');
      return null;
    });
  }

  private clientSeesListenEnd(how: string): void {
    this.sim.record({
      kind: 'state',
      side: 'client',
      requestId: LISTEN_ID,
      from: 'listening',
      to: 'ended by server',
      reason: `${how}: the server ended listen #${LISTEN_ID}. This is not a cancellation of anything else the client sent (tool call #${TOOL_ID} is untouched by it); to keep listening the client opens a NEW listen request with a new id`,
    });
  }

  // ── the tool call (#2) and the client's own cancellation ───────────────────────────────────

  private callTool(): void {
    this.coordinator.start(TOOL_ID, { atMs: this.sim.nowMs, progressToken: null, idleTimeoutMs: TOOL_TIMEOUT_MS, maxTimeoutMs: TOOL_TIMEOUT_MS });
    this.sim.record({ kind: 'request-started', requestId: TOOL_ID, idleTimeoutMs: TOOL_TIMEOUT_MS, maxTimeoutMs: TOOL_TIMEOUT_MS, progressToken: null });
    this.send('client', callToolRequest(TOOL_ID, 'generate_report', { quarter: '2026-Q3' }, null), TOOL_ID, () => {
      if (this.sim.http) this.sim.record({ kind: 'stream-opened', by: 'server', requestId: TOOL_ID, headers: { ...SSE_HEADERS } });
      const worker = new ServerWorker(this.sim, this.settings.workMs, CHECKPOINT_EVERY_MS, (chunk, _chunks, isLast) => this.workerStep(chunk, isLast));
      this.sim.record({ kind: 'worker', requestId: TOOL_ID, step: 'started', reason: `${this.settings.workMs} ms of work in ${worker.chunks} chunk(s)` });
      worker.start();
      return null;
    });
  }

  private workerStep(chunk: number, isLast: boolean): boolean {
    const record = this.coordinator.get(TOOL_ID);
    assert(record !== undefined, 'the worker runs for the tool call');
    if (record.server === 'cancelled') {
      this.sim.record({ kind: 'worker', requestId: TOOL_ID, step: 'stopped', reason: `checkpoint ${chunk} observed the client's cancellation: work stops` });
      return false;
    }
    if (!isLast) {
      this.sim.record({ kind: 'worker', requestId: TOOL_ID, step: 'checkpoint', reason: `chunk ${chunk} done` });
      return true;
    }
    const hadTerminal = this.coordinator.terminal(TOOL_ID) !== null;
    this.sim.record({ kind: 'worker', requestId: TOOL_ID, step: 'finished', reason: 'the worker reached completion and calls complete()' });
    if (!this.coordinator.serverComplete(TOOL_ID, this.sim.nowMs)) return false;
    this.sim.record({ kind: 'state', side: 'server', requestId: TOOL_ID, from: 'active', to: 'completed', reason: 'result committed; the response is sent' });
    noteTerminal(this.sim, this.coordinator, TOOL_ID, hadTerminal, 'the server sent the final response');
    this.send('server', callToolResultResponse(TOOL_ID, 'Report for 2026-Q3 is ready.', { rows: 42 }), TOOL_ID, () => {
      if (this.clientClosedToolStream) return 'the client closed this response stream; what arrives on it is discarded';
      const verdict = this.coordinator.clientResponse(TOOL_ID, this.sim.nowMs);
      return verdict.accepted ? null : verdict.reason;
    });
    if (this.sim.http) this.sim.record({ kind: 'stream-closed', by: 'server', requestId: TOOL_ID, reason: 'the final response ends the request’s SSE stream' });
    return false;
  }

  /** The client's own path (RC-5): it cancels the request it sent, not the listen. */
  private clientCancelsTool(): void {
    const verdict = this.coordinator.clientAbandon(TOOL_ID, this.sim.nowMs);
    if (!verdict.accepted) return;
    this.clientCancelled.push(TOOL_ID);
    this.sim.wire.settle('client', TOOL_ID);
    const reason = 'User closed the operation';
    this.sim.record({ kind: 'state', side: 'client', requestId: TOOL_ID, from: 'waiting', to: 'abandoned', reason: `${reason}: the client cancels its own tool call; the listen stream is not affected` });
    const accept = (how: string): string | null => {
      const hadTerminal = this.coordinator.terminal(TOOL_ID) !== null;
      const result = this.coordinator.serverCancel({ requestId: TOOL_ID }, this.sim.nowMs);
      if (!result.accepted) {
        this.sim.record({ kind: 'cancel-ignored', by: 'server', requestId: TOOL_ID, reason: `${result.reason}; ignored without error or reply` });
        return result.reason;
      }
      this.sim.record({ kind: 'cancel-accepted', by: 'server', requestId: TOOL_ID, reason: `${how}; the server stops the work and sends nothing more for this request` });
      this.sim.record({ kind: 'state', side: 'server', requestId: TOOL_ID, from: 'active', to: 'cancelled', reason: how });
      noteTerminal(this.sim, this.coordinator, TOOL_ID, hadTerminal, `the server accepted the client's cancellation (${how})`);
      return null;
    };
    if (this.sim.http) {
      this.clientClosedToolStream = true;
      this.sim.record({ kind: 'stream-closed', by: 'client', requestId: TOOL_ID, reason: `${reason}: closing the response stream is the cancellation; nothing is POSTed` });
      this.sim.at(this.sim.wire.arrivalMs(`POST #${TOOL_ID}:client`), 'server', 'server observes disconnect', () => {
        this.sim.record({ kind: 'disconnect-observed', by: 'server', requestId: TOOL_ID, reason: 'the client closed the tool call’s response stream; the server treats the disconnect as cancellation' });
        accept('response stream disconnected');
      });
      return;
    }
    this.send('client', cancelledNotification(TOOL_ID, reason), TOOL_ID, () => accept('notifications/cancelled received from the client'));
  }

  outcome(): ListenOutcome {
    const tool = this.coordinator.terminal(TOOL_ID);
    assert(tool !== null, 'the tool call ends: completed or cancelled');
    assert(this.listenEndedAtMs !== null, 'the server ended the listen');
    // RC-9, positive and negative space: the server cancelled only listen calls, the client only its own requests.
    assert(this.serverCancelled.every((id) => id === LISTEN_ID), 'the server cancels only subscriptions/listen calls');
    assert(!this.clientCancelled.includes(LISTEN_ID), 'the client’s cancellations and the server’s are kept apart');
    return {
      listenRequestId: LISTEN_ID,
      serverEndSignal: this.sim.http ? 'stream-close' : 'notifications/cancelled',
      listenEndedAtMs: this.listenEndedAtMs,
      serverCancelled: [...this.serverCancelled],
      clientCancelled: [...this.clientCancelled],
      toolCallRequestId: TOOL_ID,
      toolCallTerminal: tool.state,
      notificationsReceived: this.notificationsReceived,
    };
  }
}

export interface ListenServerCancelOptions {
  readonly transport: Transport;
  readonly chooser?: Chooser;
  readonly trace?: SchedulerOptions['trace'];
  readonly faults?: readonly MessageFault[];
}

export const listenModel: Model<ListenScenario, ListenOutcome> = {
  settingsSpec: listenServerCancelSettingsSpec,
  execute(_scenario, run) {
    const model = new ListenServerCancel(run.transport, run.seed, run.settings as ListenServerCancelSettings, { chooser: run.chooser, trace: run.trace, faults: run.faults });
    model.run();
    return { events: model.events, outcome: model.outcome() };
  },
};
