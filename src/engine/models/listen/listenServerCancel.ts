import { assert } from '../../core/assert';
import { defineModel, type ResolvedRun } from '../../core/model';
import type { Sim } from '../../core/sim';
import { ClientRequest } from '../../mcp/clientRequest';
import { RequestCoordinator } from '../../mcp/coordinator';
import { mcpSim } from '../../mcp/mcpSim';
import { callToolResultResponse, type JsonRpcMessage, type RequestId } from '../../mcp/protocol';
import { ServerRequest } from '../../mcp/serverRequest';
import { endResponseStream, openResponseStream, sendOn } from '../../mcp/stream';
import { arrivedOnClosedStream, userCancelled, workerWording } from '../../mcp/wording';
import {
  acknowledgedNotification,
  listenEndedNotification,
  listenRequest,
  subscriptionNotification,
} from '../../mcp/subscriptions';
import { listenServerCancelSettingsSpec, type ListenServerCancelSettings } from './settings';
import type { ListenModelEvent, ListenOutcome, ListenScenario } from './types';
export {
  listenServerCancelSettingsSpec,
  listenServerCancelDefaults,
  type ListenServerCancelSettings,
} from './settings';

/**
 * `listen-server-cancel` (docs/requirements.md RC-9): server-initiated cancellation is narrow. The client holds a
 * `subscriptions/listen` call (#1) and runs a tool call (#2). The client cancels its tool call on
 * its own path (stdio: notifications/cancelled client → server; Streamable HTTP: closing #2's
 * stream). Later the server ends the listen on both transports with its own notifications/cancelled
 * naming #1 (the only request a server may cancel, as the cancellation page says), then a successful
 * subscriptions/listen response that marks a graceful end, then (HTTP) closes #1's stream. The coordinator keeps the two paths apart: the server's path refuses any request that is
 * not an open listen call.
 */
const LISTEN_ID = 1;
const TOOL_ID = 2;
const CHECKPOINT_EVERY_MS = 100;
/** The tool call is not about deadlines here: generous ones, so only the cancellations end things. */
const TOOL_TIMEOUT_MS = 3_600_000;
/** A run with faults: how long past a round trip the client waits for a listen's acknowledgement. */
const ACK_GRACE_MS = 50;
/** A run with faults: how many listens the client opens again in one run before it gives up. */
const LISTENS_REISSUED_MAX = 3;

export class ListenServerCancel {
  readonly sim: Sim<ListenModelEvent>;
  readonly coordinator = new RequestCoordinator();
  private readonly settings: ListenServerCancelSettings;
  private readonly client: ClientRequest;
  private readonly server: ServerRequest;
  private notificationsReceived = 0;
  private readonly serverCancelled: RequestId[] = [];
  private readonly clientCancelled: RequestId[] = [];
  private listenEndedAtMs: number | null = null;
  /** Whether the listen request reached the server, and whether the server decided to end it before it did. */
  private listenReceived = false;
  private endWhenReceived = false;
  /**
   * A run with faults. Any message may be lost, so the client expects each listen's acknowledgement within a
   * round trip (plus ACK_GRACE_MS) and sees a listen stream that dropped break (one latency later): a listen
   * whose acknowledgement never came, or whose response stream broke, is lost, and the client opens a new one
   * with a new request id. It takes the server's notifications/cancelled as the listen's end. Without faults
   * nothing of this runs.
   */
  private readonly faulted: boolean;
  /** The listens the client holds open (faulted runs): the first is #1, each re-issue a new id. */
  private readonly clientListens = new Set<RequestId>();
  private readonly acknowledged = new Set<RequestId>();
  /** The listens the server received and has not ended. */
  private readonly serverListens: RequestId[] = [];
  private readonly listensReissued: RequestId[] = [];
  private nextListenId = TOOL_ID + 1;

  constructor(run: ResolvedRun<ListenServerCancelSettings>) {
    this.settings = run.settings;
    this.sim = mcpSim(run, { eventsMax: run.settings.eventsMax, latency: run.settings });
    // The object both sides use besides the wire (the listens and the tool call): every event that reads or writes it names it.
    this.coordinator.reduceUnder(this.sim.scheduler.explorer);
    this.client = new ClientRequest(this.sim, this.coordinator, TOOL_ID, {
      idleTimeoutMs: TOOL_TIMEOUT_MS,
      maxTimeoutMs: TOOL_TIMEOUT_MS,
      progressToken: null,
      onDeadline: () => undefined,
    });
    this.server = new ServerRequest(this.sim, this.coordinator, TOOL_ID);
    this.faulted = (run.faults?.length ?? 0) > 0;
  }

  get events(): ListenModelEvent[] {
    return this.sim.events;
  }

  run(): this {
    const s = this.settings;
    this.sim.at(0, 'client', 'open listen', () => this.openListen(LISTEN_ID));
    this.sim.at(10, 'client', 'call tool', () =>
      this.client.callTool('generate_report', { quarter: '2026-Q3' }, () => this.serverStartsTool()),
    );
    if (s.cancelAtMs !== null)
      this.sim.at(s.cancelAtMs, 'client', 'client cancels its tool call', () => this.clientCancelsTool());
    this.sim.at(s.serverEndsListenAtMs, 'server', 'server ends the listen', () => this.serverEndsListen());
    this.sim.run();
    this.sim.wire.assertAllAnswered();
    return this;
  }

  // ── the listen call (#1) ─────────────────────────────────────────────────────────────────────

  private openListen(id: RequestId): void {
    this.coordinator.openListen(id, this.sim.nowMs);
    const filter = { toolsListChanged: true };
    if (this.faulted) {
      this.clientListens.add(id);
      const { latencyMs, latencyJitterMs } = this.settings;
      this.sim.after(
        2 * (latencyMs + latencyJitterMs) + ACK_GRACE_MS,
        'client',
        `acknowledgement deadline of listen #${String(id)}`,
        () => {
          if (this.clientListens.has(id) && !this.acknowledged.has(id))
            this.listenLost(
              id,
              `no acknowledgement of listen #${String(id)} within a round trip and ${ACK_GRACE_MS} ms: the request or its response stream was lost`,
            );
        },
      );
    }
    sendOn(this.sim, 'client', listenRequest(id, filter), id, () => {
      this.listenReceived = true;
      this.serverListens.push(id);
      openResponseStream(this.sim, id);
      this.sendOnListen(id, acknowledgedNotification(id, filter), () => this.acknowledged.add(id));
      // The server decided to end the subscription before this listen reached it: it ends it now.
      if (this.endWhenReceived) {
        this.serverEndsListen();
        return null;
      }
      this.sim.after(90, 'server', 'tools list changes', () => {
        if (this.serverListens.includes(id))
          this.sendOnListen(id, subscriptionNotification('notifications/tools/list_changed', id));
      });
      return null;
    });
  }

  private sendOnListen(id: RequestId, message: JsonRpcMessage, received?: () => void): void {
    this.serverSends(id, message, () => {
      this.notificationsReceived += 1;
      received?.();
      return null;
    });
  }

  /** The server sends on listen `id`'s stream; in a run with faults a stream that dropped under it is seen by the client a latency later. */
  private serverSends(id: RequestId, message: JsonRpcMessage, deliver: () => string | null): void {
    const sent = sendOn(this.sim, 'server', message, id, deliver);
    if (
      !this.faulted ||
      sent.lost !== true ||
      sent.reason?.startsWith('the stream carrying') !== true ||
      !this.clientListens.has(id)
    )
      return;
    this.sim.after(this.settings.latencyMs, 'client', `client sees listen #${String(id)}'s stream break`, () => {
      if (this.clientListens.has(id))
        this.listenLost(id, `the response stream of listen #${String(id)} broke (the client sees the connection drop)`);
    });
  }

  /** A listen whose acknowledgement never came or whose stream broke is lost to the client: it opens a new one, with a new id. */
  private listenLost(id: RequestId, why: string): void {
    this.clientListens.delete(id);
    this.sim.wire.settle('client', id);
    if (this.listensReissued.length >= LISTENS_REISSUED_MAX) {
      this.sim.record({
        kind: 'state',
        side: 'client',
        requestId: id,
        from: 'listening',
        to: 'lost',
        reason: `${why}; the client has opened ${LISTENS_REISSUED_MAX} listens again with no answer, and gives up`,
      });
      return;
    }
    const next = this.nextListenId++;
    this.listensReissued.push(next);
    this.sim.record({
      kind: 'state',
      side: 'client',
      requestId: id,
      from: 'listening',
      to: 'lost',
      reason: `${why}; the listen is lost to the client, so it opens a new one with a new request id, #${String(next)} (a request whose response stream broke is re-issued, never resumed)`,
    });
    this.openListen(next);
  }

  /** RC-9: the server ends the listen — the one request a server may cancel. */
  private serverEndsListen(): void {
    // A server acts only on a listen it received: one still on its way is ended when it arrives, one the network lost never.
    if (!this.listenReceived) {
      this.endWhenReceived = true;
      return;
    }
    // From now on the server ends every listen it receives at once.
    this.endWhenReceived = true;
    for (const id of this.serverListens.splice(0)) this.serverEndsOne(id);
  }

  private serverEndsOne(LISTEN_ID: RequestId): void {
    const verdict = this.coordinator.serverEndListen(LISTEN_ID, this.sim.nowMs);
    assert(verdict.accepted, 'the listen call is open when the server ends it');
    // The server's path refuses any other request: it never cancels the client's tool call.
    assert(
      !this.coordinator.serverEndListen(TOOL_ID, this.sim.nowMs).accepted,
      'a server never cancels an ordinary request',
    );
    this.serverCancelled.push(LISTEN_ID);
    this.listenEndedAtMs ??= this.sim.nowMs;
    const reason =
      'the server ends this subscription (it is shutting the subscription down); RC-9: ending a subscriptions/listen call is the only cancellation a server sends';
    this.sim.record({
      kind: 'state',
      side: 'server',
      requestId: LISTEN_ID,
      from: 'listening',
      to: 'cancelled',
      reason,
    });
    this.sim.record({
      kind: 'terminal',
      requestId: LISTEN_ID,
      state: 'cancelled',
      reason: 'the server ended the subscriptions/listen call',
    });
    // 2026-07-28 cancellation page: a server MUST send notifications/cancelled naming the listen when it
    // tears that subscription stream down, on either transport.
    this.serverSends(LISTEN_ID, listenEndedNotification(LISTEN_ID, 'The server is ending this subscription'), () => {
      this.clientSeesListenEnd(LISTEN_ID, 'notifications/cancelled from the server names it');
      // A run with faults: the server's cancellation ends the listen for the client, whether or not the graceful response follows.
      if (this.faulted && this.clientListens.delete(LISTEN_ID)) this.sim.wire.settle('client', LISTEN_ID);
      return null;
    });
    // Subscriptions page, Graceful Closure: it SHOULD then answer the listen with a successful result
    // (what tells a graceful end from an unexpected disconnect), then close the stream.
    const graceful: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: LISTEN_ID,
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': LISTEN_ID } },
    };
    this.serverSends(LISTEN_ID, graceful, () => {
      this.clientListens.delete(LISTEN_ID);
      return null;
    });
    endResponseStream(
      this.sim,
      LISTEN_ID,
      `${reason}: after notifications/cancelled and the successful subscriptions/listen response that marks a graceful end`,
    );
  }

  private clientSeesListenEnd(LISTEN_ID: RequestId, how: string): void {
    const reason = `${how}: the server ended listen #${String(LISTEN_ID)}. This is not a cancellation of anything else the client sent (tool call #${TOOL_ID} is untouched by it); to keep listening the client opens a NEW listen request with a new id`;
    this.sim.record({
      kind: 'state',
      side: 'client',
      requestId: LISTEN_ID,
      from: 'listening',
      to: 'ended by server',
      reason,
    });
  }

  // ── the tool call (#2) and the client's own cancellation ───────────────────────────────────

  private serverStartsTool(): null {
    this.server.opened();
    const { workMs } = this.settings;
    this.server.startWorker(
      workMs,
      CHECKPOINT_EVERY_MS,
      (chunks) => workerWording.started(workMs, chunks, workerWording.uninterruptible),
      (chunk, chunks, isLast) => this.workerStep(chunk, chunks, isLast),
    );
    return null;
  }

  private workerStep(chunk: number, chunks: number, isLast: boolean): boolean {
    if (this.server.phase === 'cancelled') {
      this.server.work('stopped', workerWording.stopped(chunk));
      return false;
    }
    if (!isLast) {
      this.server.work('checkpoint', workerWording.chunkDone(chunk, chunks));
      return true;
    }
    this.server.complete(workerWording.finished(), () =>
      sendOn(
        this.sim,
        'server',
        callToolResultResponse(TOOL_ID, 'Report for 2026-Q3 is ready.', { rows: 42 }),
        TOOL_ID,
        () => {
          if (this.client.closedStreamAtMs !== null) return arrivedOnClosedStream(this.client.closedStreamAtMs);
          const verdict = this.coordinator.clientResponse(TOOL_ID, this.sim.nowMs);
          return verdict.accepted ? null : verdict.reason;
        },
      ),
    );
    return false;
  }

  /** The client's own path (RC-5): it cancels the request it sent, not the listen. */
  private clientCancelsTool(): void {
    const reason = 'User closed the operation';
    if (
      !this.client.abandon(
        userCancelled(reason, 'the client gives up on its own tool call; the listen stream is not affected'),
      ).accepted
    )
      return;
    this.clientCancelled.push(TOOL_ID);
    this.client.cancel(reason, this.server, {
      closedWhy: 'the user cancelled',
      observed: "the client closed the tool call's response stream",
    });
  }

  outcome(): ListenOutcome {
    const tool = this.coordinator.terminal(TOOL_ID);
    assert(tool !== null, 'the tool call ends: completed or cancelled');
    // Only a fault that lost every listen on its way leaves the server none to end.
    assert(this.listenEndedAtMs !== null || this.faulted, 'the server ended the listen');
    // RC-9, positive and negative space: the server cancelled only listen calls, the client only its own requests.
    const listens = new Set<RequestId>([LISTEN_ID, ...this.listensReissued]);
    assert(
      this.serverCancelled.every((id) => listens.has(id)),
      'the server cancels only subscriptions/listen calls',
    );
    assert(
      !this.clientCancelled.some((id) => listens.has(id)),
      "the client's cancellations and the server's are kept apart",
    );
    return {
      listenRequestId: LISTEN_ID,
      serverEndSignal: 'notifications/cancelled',
      listenEndedAtMs: this.listenEndedAtMs,
      serverCancelled: [...this.serverCancelled],
      clientCancelled: [...this.clientCancelled],
      toolCallRequestId: TOOL_ID,
      toolCallTerminal: tool.state,
      notificationsReceived: this.notificationsReceived,
      ...(this.faulted ? { listensReissued: [...this.listensReissued] } : {}),
    };
  }
}

export const listenModel = defineModel(
  listenServerCancelSettingsSpec,
  (run, _scenario: ListenScenario) => new ListenServerCancel(run),
);
