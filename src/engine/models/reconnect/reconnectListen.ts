import { assert } from '../../core/assert';
import { LabError } from '../../core/errors';
import { defineModel, type ResolvedRun } from '../../core/model';
import { postHeadersOf } from '../../core/postHeaders';
import type { Sim } from '../../core/sim';
import type { Side } from '../../core/transcript';
import { mcpSim } from '../../mcp/mcpSim';
import {
  callToolRequest,
  callToolResultResponse,
  snapshot,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcResultResponse,
  type RequestId,
} from '../../mcp/protocol';
import { openResponseStream, responseChannel, sendOn } from '../../mcp/stream';
import {
  DEDUPE_BY,
  acknowledgedNotification,
  listenRequest,
  refetchMethodsFor,
  refetchRequest,
  refetchResult,
  subscriptionNotification,
} from '../../mcp/subscriptions';
import { workerWording } from '../../mcp/wording';
import { backoffCeilingMs, backoffDelayMs } from '../herd/backoff';
import { reconnectListenSettingsSpec, type ReconnectListenSettings } from './settings';
import type { ReconnectModelEvent, ReconnectOutcome, ReconnectPlan, ReconnectScenario } from './types';
export { reconnectListenSettingsSpec, reconnectListenDefaults, type ReconnectListenSettings } from './settings';

/**
 * `reconnect-listen` (docs/requirements.md RV-3, VF-11): a client holds a `subscriptions/listen` stream, every
 * message of which carries `_meta["io.modelcontextprotocol/subscriptionId"]` equal to the listen
 * request's id. An unsafe mutation (`charge_account`, no idempotency key) is in flight when the
 * connection drops: its response and two notifications are lost. MCP 2026-07-28 removed `Last-Event-ID`
 * resumption: a lost request is re-issued as a new request with a new id, so the client follows a reconnect plan: back off, open a NEW listen
 * request with a new id and the same filter, and only once it is acknowledged refetch the state the
 * filter covers from authoritative methods (subscribe first, then read, so no change falls in
 * between), de-duplicate by stable ids, and reconcile the lost charge by reading state instead of
 * sending it again.
 */

const ACCOUNT_URI = 'mcp-lab://accounts/acct-7';
/**
 * What 2026-07-28 says of a broken stream (changelog, major change 9): "Remove SSE stream resumability and
 * message redelivery (the `Last-Event-ID` header and SSE event IDs) from the Streamable HTTP transport. A
 * broken response stream loses the in-flight request; clients **MUST** re-issue it as a new request with a
 * new request ID."
 */
export const LOST_WITH_STREAM =
  'a broken response stream loses its in-flight request; a client re-issues it as a new request with a new request id, never with Last-Event-ID (MCP 2026-07-28 removed stream resumption)';

/** The filter the client asked for on its first listen request; restored unchanged on reconnect. */
export const LISTEN_FILTER: JsonObject = {
  toolsListChanged: true,
  resourcesListChanged: true,
  promptsListChanged: true,
  resourceSubscriptions: [ACCOUNT_URI],
};

// ── the server's authoritative state ─────────────────────────────────────────────────────────────

const TOOL_SCHEMA: JsonObject = { type: 'object' };
const TOOLS_BEFORE: JsonObject[] = [
  {
    name: 'search_inventory',
    description: 'Find items by SKU.',
    inputSchema: TOOL_SCHEMA,
    annotations: { readOnlyHint: true },
  },
  {
    name: 'charge_account',
    description: 'Charge an account; no business de-duplication.',
    inputSchema: TOOL_SCHEMA,
    annotations: { destructiveHint: true, idempotentHint: false },
  },
];
const TOOL_ADDED: JsonObject = {
  name: 'refund_charge',
  description: 'Refund a charge by chargeId.',
  inputSchema: TOOL_SCHEMA,
  annotations: { destructiveHint: true },
};
const RESOURCES: JsonObject[] = [{ uri: ACCOUNT_URI, name: 'acct-7', mimeType: 'application/json' }];
const PROMPTS: JsonObject[] = [{ name: 'checkout-summary', description: 'Summarise a checkout.' }];
const BALANCE_BEFORE_CENTS = 5_000;
const CHARGE_CENTS = 1_200;
const CHARGE_ID = 'ch_0001';

export class ReconnectListen {
  readonly sim: Sim<ReconnectModelEvent>;
  private readonly settings: ReconnectListenSettings;
  private nextRequestId = 1;
  private readonly listenIds: RequestId[] = [];
  private readonly refetched: string[] = [];
  private dropped = false;
  private messagesLost = 0;
  private plan: ReconnectPlan | null = null;
  private reconnectedAtMs: number | null = null;
  // server state
  private tools: JsonObject[] = [...TOOLS_BEFORE];
  private charges: JsonObject[] = [];
  private balanceCents = BALANCE_BEFORE_CENTS;
  // client state: what it cached before the drop, keyed by stable id
  private readonly clientTools = new Map<string, JsonObject>(TOOLS_BEFORE.map((tool) => [tool.name as string, tool]));
  private readonly clientResources = new Map<string, JsonObject>(
    RESOURCES.map((resource) => [resource.uri as string, resource]),
  );
  private readonly clientPrompts = new Map<string, JsonObject>(
    PROMPTS.map((prompt) => [prompt.name as string, prompt]),
  );
  private readonly clientCharges = new Map<string, JsonObject>();
  private chargeRequestId: RequestId | null = null;
  private chargeSettled = false;
  /** Events the client saw on its listen stream: what a Last-Event-ID would name (a catalogued failure mode only). */
  private eventsSeenOnListen = 0;
  private chargeReconciled = false;
  /** The requests that reached the server: it acts only on those (one the network lost it never sees). */
  private readonly serverReceived = new Set<RequestId>();

  constructor(run: ResolvedRun<ReconnectListenSettings>) {
    const s = (this.settings = run.settings);
    if (s.baseMs > s.capMs)
      throw new LabError(
        'LAB007',
        `baseMs=${s.baseMs} is above capMs=${s.capMs}; the cap must be at least the base (nothing was run)`,
      );
    this.sim = mcpSim(run, { eventsMax: s.eventsMax, latency: { latencyMs: s.latencyMs, latencyJitterMs: 0 } });
  }

  get events(): ReconnectModelEvent[] {
    return this.sim.events;
  }

  private get http(): boolean {
    return this.sim.http;
  }

  run(): this {
    const s = this.settings;
    this.sim.at(0, 'client', 'client opens subscriptions/listen', () => this.openListen(null));
    if (s.chargeInFlight) this.sim.at(s.dropAtMs - 400, 'client', 'client charges', () => this.charge());
    this.sim.at(s.dropAtMs, 'transport', 'connection drops', () => this.drop());
    this.sim.run();
    return this;
  }

  /** Sends one message; `streamOf` is the request whose POST or SSE stream carries it. On Streamable HTTP a request's POST headers are recorded (never Last-Event-ID, RV-3, unless the failure mode adds it). */
  private send(
    from: Side,
    message: JsonRpcMessage,
    streamOf: RequestId,
    onArrival: () => void,
    extraHeaders: Record<string, string> = {},
  ): void {
    if (from === 'client' && 'id' in message && 'method' in message && this.http) {
      const headers = { ...postHeadersOf(message), ...extraHeaders };
      this.sim.record({ kind: 'http-request', requestId: message.id, method: 'POST', headers });
    }
    sendOn(this.sim, from, message, streamOf, () => {
      onArrival();
      return null;
    });
  }

  // ── client ───────────────────────────────────────────────────────────────────────────────────

  private openListen(previous: RequestId | null): void {
    const id = this.nextRequestId++;
    assert(!this.listenIds.includes(id), () => `listen request id ${id} was already used: a reconnect needs a new id`);
    this.listenIds.push(id);
    const assumeResume = previous !== null && this.settings.resume === 'last-event-id';
    if (previous !== null && !assumeResume) {
      this.sim.record({
        kind: 'recovery',
        step: 'restored-filter',
        requestId: id,
        reason: `reconnecting: subscriptions/listen #${id} replaces #${String(previous)} with a new JSON-RPC id and the same filter; no Last-Event-ID, nothing resumes`,
      });
    }
    if (assumeResume) {
      this.sim.record({
        kind: 'recovery',
        step: 'resume-assumed',
        requestId: id,
        reason: `reconnecting as listen #${id}${this.http ? ` with Last-Event-ID: ${this.eventsSeenOnListen}` : ''}, assuming the server resumes #${String(previous)} and replays what was missed (a catalogued failure mode: MCP 2026-07-28 has no resumption)`,
      });
    }
    this.send(
      'client',
      listenRequest(id, LISTEN_FILTER),
      id,
      () => this.serverListens(id, assumeResume),
      assumeResume ? { 'Last-Event-ID': String(this.eventsSeenOnListen) } : {},
    );
  }

  private charge(): void {
    const id = this.nextRequestId++;
    this.chargeRequestId = id;
    const request = callToolRequest(id, 'charge_account', { account: 'acct-7', cents: CHARGE_CENTS }, null);
    this.send('client', request, id, () => this.serverCharges(id));
  }

  private clientReceivesAck(id: RequestId): void {
    if (this.listenIds[this.listenIds.length - 1] !== id) return;
    this.eventsSeenOnListen += 1;
    this.sim.record({
      kind: 'state',
      side: 'client',
      requestId: id,
      from: 'opening',
      to: 'listening',
      reason: 'acknowledged: notifications for the filter flow on this stream from now on',
    });
    if (this.plan === null) return;
    this.reconnectedAtMs = this.sim.nowMs;
    if (this.settings.resume === 'last-event-id') {
      this.sim.record({
        kind: 'recovery',
        step: 'resume-assumed',
        requestId: id,
        reason:
          'the client waits for the missed notifications to be replayed and refetches nothing; none ever come: its cached tools lack refund_charge and it cannot tell whether the lost charge committed (a catalogued failure mode)',
      });
      return;
    }
    // Subscribe first, then read: a change after this point arrives as a notification, a change before it is in the refetch.
    for (const method of this.plan.refetch) {
      const requestId = this.nextRequestId++;
      this.refetched.push(method);
      const request = refetchRequest(requestId, method, ACCOUNT_URI);
      this.send('client', request, requestId, () => this.serverAnswers(requestId, method, request.params?.uri));
    }
  }

  private drop(): void {
    const s = this.settings;
    this.dropped = true;
    const lostReason = this.http
      ? `in flight when the connection dropped: ${LOST_WITH_STREAM}`
      : 'in flight when the stdio pipe broke (the server process exited); nothing brings it back';
    this.messagesLost += this.sim.dropAll(lostReason);
    const listenId = this.listenIds[this.listenIds.length - 1] as RequestId;
    this.sim.record({
      kind: 'stream-dropped',
      requestId: listenId,
      channel: responseChannel(this.http, listenId),
      reason: this.http
        ? 'the connection dropped: the listen stream is gone'
        : 'the stdio pipe broke: the server process exited',
    });
    this.sim.record({
      kind: 'state',
      side: 'client',
      requestId: listenId,
      from: 'listening',
      to: 'dropped',
      reason: 'the stream ended without a SubscriptionsListenResult: an abrupt close, not a graceful teardown',
    });
    const unsafe: RequestId[] = [];
    if (this.chargeRequestId !== null && !this.chargeSettled) {
      unsafe.push(this.chargeRequestId);
      this.sim.record({
        kind: 'stream-dropped',
        requestId: this.chargeRequestId,
        channel: responseChannel(this.http, this.chargeRequestId),
        reason: this.http
          ? 'the response stream of charge_account dropped before its response arrived'
          : 'the pipe broke before the response of charge_account arrived',
      });
      this.sim.record({
        kind: 'state',
        side: 'client',
        requestId: this.chargeRequestId,
        from: 'waiting',
        to: 'outcome-unknown',
        reason: 'the request may or may not have committed',
      });
    }
    if (this.http) {
      this.sim.after(s.latencyMs, 'server', 'server observes disconnects', () => this.serverObservesDrop(listenId));
    }
    const attempt = 0;
    const delayMs = backoffDelayMs(
      { policy: s.policy, baseMs: s.baseMs, capMs: s.capMs, seed: this.sim.seed },
      0,
      attempt,
      null,
    );
    const plan: ReconnectPlan = {
      previousRequestId: listenId,
      newRequestId: this.nextRequestId,
      restoredFilter: snapshot(LISTEN_FILTER),
      refetch: s.resume === 'last-event-id' ? [] : refetchMethodsFor(LISTEN_FILTER),
      dedupeBy: { ...DEDUPE_BY },
      reconcileInsteadOfReplay: unsafe,
      replayUnsafeMutations: false,
      sendLastEventId: s.resume === 'last-event-id',
      backoff: { policy: s.policy, attempt, delayMs, ceilingMs: backoffCeilingMs(attempt, s.baseMs, s.capMs) },
    };
    this.plan = plan;
    this.sim.record({
      kind: 'reconnect-plan',
      plan,
      reason:
        s.resume === 'last-event-id'
          ? 'this client plans to resume with Last-Event-ID and refetch nothing (a catalogued failure mode); MCP 2026-07-28 has no stream resumption'
          : `${LOST_WITH_STREAM}: reconnect with a new listen request, restore the filter, refetch with new requests, de-duplicate, and reconcile an unsafe mutation before anything of it is sent again`,
    });
    for (const id of unsafe) {
      this.sim.record({
        kind: 'recovery',
        step: 'not-replayed',
        requestId: id,
        reason:
          'the request was lost with its stream, and a lost request comes back only as a new request with a new id; but charge_account is a mutation without an idempotency key (retry class: unsafe), so it is not re-issued blind: ' +
          (s.resume === 'last-event-id'
            ? 'and this client refetches nothing, so it never learns whether it committed'
            : 'the refetch of the account shows whether it committed'),
      });
    }
    this.sim.record({
      kind: 'recovery',
      step: 'backoff',
      requestId: null,
      reason: `waiting ${delayMs} ms (${s.policy}, attempt ${attempt}, at most ${plan.backoff.ceilingMs} ms) before ${this.http ? 'reconnecting' : 'relaunching the server process'} (RV-4)`,
    });
    this.sim.after(delayMs, 'client', 'client reconnects', () => this.openListen(listenId));
  }

  private clientReceivesChargeResponse(): void {
    this.chargeSettled = true;
  }

  private clientReceivesRefetch(method: string, response: JsonRpcResultResponse): void {
    const result = response.result;
    const merge = (label: string, cache: Map<string, JsonObject>, items: JsonObject[], key: string): void => {
      let known = 0;
      for (const item of items) {
        const id = item[key] as string;
        if (cache.has(id)) known += 1;
        cache.set(id, item);
      }
      const added = items.length - known;
      this.sim.record({
        kind: 'recovery',
        step: 'deduplicated',
        requestId: response.id,
        reason: `${label}: ${items.length} received, ${known} already cached (replaced in place by ${key}, not duplicated), ${added} new; the cache holds ${cache.size}`,
      });
    };
    this.sim.record({
      kind: 'recovery',
      step: 'refetched',
      requestId: response.id,
      reason: `${method} answered: authoritative state replaces what the lost notifications would have said`,
    });
    if (method === 'tools/list') merge('tools', this.clientTools, result.tools as JsonObject[], 'name');
    else if (method === 'resources/list')
      merge('resources', this.clientResources, result.resources as JsonObject[], 'uri');
    else if (method === 'prompts/list') merge('prompts', this.clientPrompts, result.prompts as JsonObject[], 'name');
    else {
      const contents = (result.contents as JsonObject[])[0] as JsonObject;
      const account = JSON.parse(contents.text as string) as { balanceCents: number; charges: JsonObject[] };
      merge('charges', this.clientCharges, account.charges, 'chargeId');
      if (this.chargeRequestId !== null && !this.chargeSettled) {
        const committed = account.charges.some((charge) => charge.requestId === this.chargeRequestId);
        this.chargeReconciled = true;
        this.sim.record({
          kind: 'recovery',
          step: 'reconciled',
          requestId: this.chargeRequestId,
          reason: committed
            ? `the account shows ${CHARGE_ID} of ${CHARGE_CENTS} cents from request #${String(this.chargeRequestId)} (balance ${account.balanceCents} cents): the charge committed, its response was lost; it is not sent again`
            : `the account shows no charge from request #${String(this.chargeRequestId)}: it never committed; only the user may decide to charge again, with an idempotency key`,
        });
      }
    }
  }

  // ── server ───────────────────────────────────────────────────────────────────────────────────

  private serverListens(id: RequestId, lastEventIdSent = false): void {
    this.serverReceived.add(id);
    openResponseStream(this.sim, id);
    if (lastEventIdSent) {
      this.sim.record({
        kind: 'state',
        side: 'server',
        requestId: id,
        from: 'new',
        to: 'listening',
        reason:
          'a new subscription: the server keeps no events of the old stream, so whatever Last-Event-ID names, nothing is replayed',
      });
    }
    // The server supports every requested type, so it agrees to the whole filter.
    this.send('server', acknowledgedNotification(id, LISTEN_FILTER), id, () => this.clientReceivesAck(id));
  }

  private serverCharges(id: RequestId): void {
    this.serverReceived.add(id);
    openResponseStream(this.sim, id);
    const commitAtMs = this.settings.dropAtMs - 5;
    this.sim.at(commitAtMs, 'worker', 'charge commits', () => {
      this.balanceCents -= CHARGE_CENTS;
      this.charges.push({ chargeId: CHARGE_ID, requestId: id, cents: CHARGE_CENTS });
      this.tools = [...TOOLS_BEFORE, TOOL_ADDED];
      this.sim.record({
        kind: 'worker',
        requestId: id,
        step: 'finished',
        reason: workerWording.finished(
          `charged ${CHARGE_CENTS} cents to acct-7 as ${CHARGE_ID}; the refund_charge tool becomes available`,
        ),
      });
      this.send(
        'server',
        callToolResultResponse(id, `Charged ${CHARGE_CENTS} cents.`, {
          chargeId: CHARGE_ID,
          balanceCents: this.balanceCents,
        }),
        id,
        () => this.clientReceivesChargeResponse(),
      );
      // Notifications flow only on a subscription the server holds: a listen the network lost was never one.
      const listenId = [...this.listenIds].reverse().find((candidate) => this.serverReceived.has(candidate));
      if (listenId === undefined) return;
      this.send(
        'server',
        subscriptionNotification('notifications/resources/updated', listenId, { uri: ACCOUNT_URI }),
        listenId,
        () => undefined,
      );
      this.send(
        'server',
        subscriptionNotification('notifications/tools/list_changed', listenId),
        listenId,
        () => undefined,
      );
    });
  }

  private serverObservesDrop(listenId: RequestId): void {
    // A listen that never reached the server has no connection on its side to see close.
    if (!this.serverReceived.has(listenId)) return;
    this.sim.record({
      kind: 'disconnect-observed',
      by: 'server',
      requestId: listenId,
      reason: 'the listen stream disconnected: the server forgets the subscription; it keeps no events to replay',
    });
    this.sim.record({
      kind: 'state',
      side: 'server',
      requestId: listenId,
      from: 'listening',
      to: 'ended',
      reason: `subscription #${String(listenId)} is gone; only a new listen request starts a new one`,
    });
    if (this.chargeRequestId !== null && this.serverReceived.has(this.chargeRequestId)) {
      this.sim.record({
        kind: 'disconnect-observed',
        by: 'server',
        requestId: this.chargeRequestId,
        reason: 'the charge already committed and its response was written: the disconnect changes nothing',
      });
    }
  }

  private serverAnswers(id: RequestId, method: string, uri: unknown): void {
    openResponseStream(this.sim, id);
    let response: JsonRpcResultResponse;
    if (method === 'tools/list') response = refetchResult(id, 'tools', this.tools);
    else if (method === 'resources/list') response = refetchResult(id, 'resources', RESOURCES);
    else if (method === 'prompts/list') response = refetchResult(id, 'prompts', PROMPTS);
    else {
      assert(method === 'resources/read' && uri === ACCOUNT_URI, () => `unexpected refetch ${method}`);
      const text = JSON.stringify({ account: 'acct-7', balanceCents: this.balanceCents, charges: this.charges });
      response = refetchResult(id, 'contents', [{ uri: ACCOUNT_URI, mimeType: 'application/json', text }]);
    }
    this.send('server', response, id, () => this.clientReceivesRefetch(method, response));
  }

  /** The client's view against the server's authoritative state at the end of the run. */
  private clientStateStale(): boolean {
    const toolsKnown = this.tools.every((tool) => this.clientTools.has(tool.name as string));
    const chargeAccounted = this.chargeRequestId === null || this.chargeSettled || this.chargeReconciled;
    return !toolsKnown || !chargeAccounted;
  }

  outcome(): ReconnectOutcome {
    assert(this.dropped, 'the connection dropped');
    assert(this.plan !== null, 'a reconnect plan was made');
    assert(this.reconnectedAtMs !== null, 'the new listen stream was acknowledged');
    const dropAtMs = this.settings.dropAtMs;
    const replays = this.events.filter(
      (event) =>
        event.kind === 'message' &&
        event.atMs >= dropAtMs &&
        event.from === 'client' &&
        'method' in event.message &&
        event.message.method === 'tools/call',
    ).length;
    return {
      reconnectPlan: this.plan,
      listenRequestIds: [...this.listenIds],
      refetchedMethods: [...this.refetched],
      messagesLost: this.messagesLost,
      mutationsReplayed: replays,
      reconnectedAtMs: this.reconnectedAtMs,
      clientStateStale: this.clientStateStale(),
    };
  }
}

export const reconnectModel = defineModel(
  reconnectListenSettingsSpec,
  (run, _scenario: ReconnectScenario) => new ReconnectListen(run),
);
