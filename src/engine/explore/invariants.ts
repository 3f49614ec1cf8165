import { fail } from '../core/assert';
import { snapshot } from '../core/snapshot';
import type { Settings } from '../core/transcript';
import { INVARIANTS, type InvariantName } from '../core/invariantNames';

export { INVARIANTS, type InvariantName };

/** One broken invariant: which, at which event of the run (`seq`), and why in words. */
export interface Breach {
  readonly invariant: InvariantName;
  readonly step: number;
  readonly explanation: string;
}

/** What the checker reads of an event: every field optional, checked by `kind`. */
export interface Seen {
  readonly kind: string;
  readonly seq: number;
  readonly atMs?: number;
  readonly [field: string]: unknown;
}

interface MessageLike {
  readonly method?: string;
  readonly id?: unknown;
  readonly params?: {
    readonly progressToken?: unknown;
    readonly progress?: unknown;
    readonly requestId?: unknown;
    readonly _meta?: Readonly<Record<string, unknown>>;
  };
  readonly result?: unknown;
  readonly error?: unknown;
}

const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';
const PROGRESS_TOKEN_KEY = 'progressToken';
const TERMINAL_TASK_STATUSES = new Set(['completed', 'failed', 'cancelled']);
/** Whether JSON writes `text` as it is between quotes: no quote, backslash, control character or surrogate (any surrogate is left to JSON). */
function plain(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return false;
  }
  return true;
}

/** What `stateKey` writes for a collection a run has not made (each its own object: none is written as a reference to another). */
const NO_STATUSES: ReadonlyMap<string, string> = new Map();
const NO_POLLS: ReadonlyMap<string, string> = new Map();
const NONE_BROKEN: ReadonlySet<InvariantName> = new Set();

/** A number's or string's JSON text, made once (the same few ids and tokens recur in every run): the same string each time, whose hash the maps have already. */
const KEY_TEXTS = new Map<number | string, string>();
const KEY_TEXTS_MAX = 4096;

/**
 * A value as JSON text (`undefined` for none), made without JSON.stringify where the text is plain: a
 * finite number's is its `String` (ids are numbers mostly), a string with nothing to escape is quoted.
 */
const key = (value: unknown): string => {
  if (typeof value !== 'number' && typeof value !== 'string') return JSON.stringify(value) ?? 'undefined';
  let text = KEY_TEXTS.get(value);
  if (text === undefined) {
    text =
      typeof value === 'number'
        ? Number.isFinite(value)
          ? String(value)
          : 'null'
        : plain(value)
          ? `"${value}"`
          : JSON.stringify(value);
    if (KEY_TEXTS.size >= KEY_TEXTS_MAX) KEY_TEXTS.clear();
    KEY_TEXTS.set(value, text);
  }
  return text;
};

/**
 * What `/^SSE #(.+)$/` captures of `channel` (the request a response stream belongs to), or undefined
 * where it does not match: one or more characters past `SSE #`, none a line terminator (`.` matches
 * none). Read without the pattern, whose match array every message on a stream made.
 */
export function sseStream(channel: string): string | undefined {
  if (channel.length <= 5 || !channel.startsWith('SSE #')) return undefined;
  for (let index = 5; index < channel.length; index += 1) {
    const code = channel.charCodeAt(index);
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) return undefined;
  }
  return channel.slice(5);
}

/** Per channel name, per sender, `channel:sender` (what `inFlight` is keyed by), made once. */
const CHANNEL_KEYS = new Map<string, Map<string, string>>();

/**
 * `channel:from`, the same string each time: a message's channel and sender are the wire's few
 * strings, met in every run, so two map lookups by them (whose hashes the engine keeps) replace
 * building the text and hashing it afresh for every message sent and delivered.
 */
function channelKey(channel: unknown, from: unknown): string {
  const name = String(channel);
  const sender = String(from);
  let bySender = CHANNEL_KEYS.get(name);
  if (bySender === undefined) {
    if (CHANNEL_KEYS.size >= KEY_TEXTS_MAX) CHANNEL_KEYS.clear();
    CHANNEL_KEYS.set(name, (bySender = new Map()));
  }
  let text = bySender.get(sender);
  if (text === undefined) bySender.set(sender, (text = `${name}:${sender}`));
  return text;
}

/**
 * A request's start and maximum, as the checker keeps them (its fields in this order: `stateKey`
 * writes them so). A class, not an object literal, and the checker's lists made by `Array.of`, not
 * `[]`: V8 came to allocate the literals a checker makes per run straight in its old generation
 * (allocation-site pretenuring), where a dead run's message list kept the run's messages alive through
 * the young-generation collections after it (see `DriverHooks` in driver.ts).
 */
class StartedRequest {
  constructor(
    readonly atMs: number,
    readonly maxTimeoutMs: number,
  ) {}
}

/**
 * Reads a run's events as they are stamped and reports each invariant the moment it breaks. It keeps
 * only what the checks need, so it runs beside a fast run that keeps no events.
 */
export class InvariantChecker {
  private readonly breaches: Breach[] = Array.of<Breach>();
  private readonly terminals = new Map<string, string>();
  /** Requests whose cancellation reached the server (accepted, or received and ignored), with how. */
  private readonly cancelAccepted = new Map<string, string>();
  private readonly finalSent = new Set<string>();
  private readonly requestOfToken = new Map<string, string>();
  private readonly lastProgress = new Map<string, number>();
  private readonly started = new Map<string, StartedRequest>();
  private readonly requestIds = new Set<string>();
  /** Per channel (`channel:sender`), the message events not yet delivered, oldest first. */
  private readonly inFlight = new Map<string, Seen[]>();
  /** The message events seen, by seq (an array: seqs are small whole numbers, and a run makes one). */
  private readonly messageBySeq: (Seen | undefined)[] = Array.of<Seen | undefined>();
  private executions = 0;
  /**
   * Per task, its status on the server, and the last status the client polled: made at a run's first
   * task event (most models have none, and every run makes a checker), written as empty till then.
   */
  private taskStatus: Map<string, string> | null = null;
  private taskSeen: Map<string, string> | null = null;
  private lastSeq = 0;
  /** The seq of the event observed last (-1 before any): events arrive once each, in the order they happened. */
  private observedSeq = -1;
  private finished = false;
  private lastFailedSeq: { seq: number; requestId: unknown } | null = null;
  /** Causality: the requests each side received, as `requester:id` (a lost one is never here). */
  private readonly received = new Set<string>();
  /** Causality: the request each progress token names, as `requester:id`. */
  private readonly requestOfTokenSent = new Map<string, string>();
  /** Causality: the client requests whose cancellation reached the server (a notification, or a disconnect it saw). */
  private readonly cancellationReceived = new Set<string>();

  constructor(private readonly settings: Settings) {}

  get found(): readonly Breach[] {
    return this.breaches;
  }

  /** The invariants broken so far in this run: made at the first breach (most runs break none). */
  private broken: Set<InvariantName> | null = null;

  /** Keeps the first breach of each invariant in a run: what follows from it is the same finding. */
  private breach(invariant: InvariantName, step: number, explanation: string): void {
    const broken = (this.broken ??= new Set());
    if (broken.has(invariant)) return;
    broken.add(invariant);
    this.breaches.push({ invariant, step, explanation });
  }

  observe(event: Seen): void {
    // Every check compares what came before with what comes now: an event seen twice or late would be judged against the wrong past.
    if (!(event.seq > this.observedSeq))
      fail(
        `the invariant checker saw event ${event.seq} after event ${this.observedSeq}: it reads each event once, in order`,
      );
    if (this.finished) fail(`the invariant checker saw event ${event.seq} after the run finished`);
    this.observedSeq = event.seq;
    this.lastSeq = event.seq;
    switch (event.kind) {
      case 'request-started':
        return this.requestStarted(event);
      case 'terminal':
        return this.terminal(event);
      case 'cancel-accepted':
        return this.cancelAcceptedBy(event);
      case 'disconnect-observed':
        return this.disconnectObserved(event);
      case 'deadline':
        return this.deadline(event);
      case 'state':
        return this.clientState(event);
      case 'message':
        this.causalMessage(event);
        return this.message(event);
      case 'stream-opened':
      case 'stream-closed':
        if (event.by === 'server')
          this.requireReceived(
            `client:${key(event.requestId)}`,
            event.seq,
            event.kind === 'stream-opened' ? 'opened the response stream of' : 'closed the response stream of',
          );
        return;
      case 'delivered':
        return this.delivered(event);
      case 'ledger':
        return this.ledger(event);
      case 'buffer':
        return this.buffer(event);
      case 'task':
        return this.task(event);
      default:
        return;
    }
  }

  private requestStarted(event: Seen): void {
    const request = key(event.requestId);
    // A maximum that is not a number would compare false with every deadline: the check would hold by accident.
    if (typeof event.maxTimeoutMs !== 'number')
      fail(`request #${String(event.requestId)} started with no maxTimeoutMs (${String(event.maxTimeoutMs)})`);
    this.started.set(request, new StartedRequest(event.atMs ?? 0, event.maxTimeoutMs));
    if (event.progressToken !== null && event.progressToken !== undefined)
      this.requestOfToken.set(key(event.progressToken), request);
  }

  private terminal(event: Seen): void {
    const request = key(event.requestId);
    const before = this.terminals.get(request);
    if (before !== undefined)
      this.breach(
        'one-terminal-state',
        event.seq,
        `request #${String(event.requestId)} reached a second terminal state (${String(event.state)}) after ${before}: a request ends exactly once`,
      );
    else this.terminals.set(request, String(event.state));
  }

  private cancelAcceptedBy(event: Seen): void {
    if (
      event.by === 'server' &&
      event.requestId !== null &&
      event.requestId !== undefined &&
      !this.cancellationReceived.has(`client:${key(event.requestId)}`)
    ) {
      this.breach(
        'causality',
        event.seq,
        `the server accepted the cancellation of #${String(event.requestId)} before any cancellation of it reached the server: a party acts on a cancellation only after it received it`,
      );
    }
    if (event.by === 'server' && event.requestId !== null && event.requestId !== undefined)
      this.cancelAccepted.set(key(event.requestId), 'it accepted the cancellation');
  }

  private disconnectObserved(event: Seen): void {
    if (event.by === 'server') {
      this.requireReceived(`client:${key(event.requestId)}`, event.seq, 'saw the client close the connection of');
      this.cancellationReceived.add(`client:${key(event.requestId)}`);
    }
    if (event.by === 'server' && !this.cancelAccepted.has(key(event.requestId)))
      this.cancelAccepted.set(key(event.requestId), 'it saw the client close the response stream (the cancellation)');
  }

  private deadline(event: Seen): void {
    const start = this.started.get(key(event.requestId));
    if (event.deadline !== 'max' || start === undefined || (event.action !== 'armed' && event.action !== 'reset'))
      return;
    const limit = start.atMs + start.maxTimeoutMs;
    if ((event.dueAtMs as number) > limit) {
      this.breach(
        'max-deadline-by-start-plus-max',
        event.seq,
        `the maximum deadline of #${String(event.requestId)} was moved to ${String(event.dueAtMs)} ms, past its start (${start.atMs} ms) plus maxTimeoutMs (${start.maxTimeoutMs} ms) = ${limit} ms: nothing may move the absolute budget (RC-2)`,
      );
    }
  }

  private clientState(event: Seen): void {
    const atMs = event.atMs ?? 0;
    const start = this.started.get(key(event.requestId));
    if (event.side !== 'client' || event.from !== 'waiting' || start === undefined) return;
    const limit = start.atMs + start.maxTimeoutMs;
    if (atMs > limit)
      this.breach(
        'max-deadline-by-start-plus-max',
        event.seq,
        `the client was still waiting for #${String(event.requestId)} at ${atMs} ms, past its start (${start.atMs} ms) plus maxTimeoutMs (${start.maxTimeoutMs} ms) = ${limit} ms`,
      );
  }

  private ledger(event: Seen): void {
    if (event.action === 'failed') this.lastFailedSeq = { seq: event.seq, requestId: event.requestId };
    if (event.action === 'executed') {
      this.executions += 1;
      if (this.settings.sendKey === true && this.executions > 1)
        this.breach(
          'one-execution-per-key',
          event.seq,
          `request #${String(event.requestId)} executed the effect again: ${this.executions} executions for one idempotency key`,
        );
    }
  }

  private buffer(event: Seen): void {
    const capacity = event.capacityEvents as number | null;
    if (capacity !== null && (event.occupancyEvents as number) > capacity)
      this.breach(
        'buffer-within-capacity',
        event.seq,
        `the buffer holds ${String(event.occupancyEvents)} events, more than its capacity of ${capacity} (BF-6)`,
      );
    if (event.action === 'dropped' && event.what === 'final')
      this.breach(
        'final-never-dropped',
        event.seq,
        `the final response of #${String(event.requestId)} was dropped from the buffer: its client can never learn the outcome (BF-4)`,
      );
  }

  private task(event: Seen): void {
    if (typeof event.status !== 'string' || event.action === 'reported' || event.action === 'created') return;
    const task = String(event.taskId);
    // The promise (TK-2) is of the task's status, not of every answer's timing: the server's stored status never
    // leaves a terminal one, and the client, polling, never sees one regress. A tasks/get answered before the status
    // changed may still arrive after the change: a stale poll, not a breach.
    const polled = event.action === 'polled';
    const statuses = polled ? (this.taskSeen ??= new Map()) : (this.taskStatus ??= new Map());
    const before = statuses.get(task);
    if (before !== undefined && TERMINAL_TASK_STATUSES.has(before) && event.status !== before) {
      const where = polled
        ? `the client polled task ${task} as ${before} (terminal) and then as ${event.status}`
        : `task ${task} was ${before} (terminal) on the server and then ${event.status}`;
      this.breach('task-terminal-stable', event.seq, `${where}: a terminal task status never changes (TK-2)`);
    }
    statuses.set(task, event.status);
  }

  private message(event: Seen): void {
    const message = event.message as MessageLike;
    const from = String(event.from);
    this.messageBySeq[event.seq] = event;
    if (event.lost !== true) {
      const channel = channelKey(event.channel, from);
      let queue = this.inFlight.get(channel);
      if (queue === undefined) this.inFlight.set(channel, (queue = Array.of<Seen>()));
      queue.push(event);
    }
    if (message.method !== undefined && message.id !== undefined) {
      const id = `${from}:${key(message.id)}`;
      if (this.requestIds.has(id))
        this.breach(
          'unique-request-ids',
          event.seq,
          `the ${from} sent a second request with id ${key(message.id)}: ids are unique per sender`,
        );
      this.requestIds.add(id);
    }
    if (from !== 'server' || event.malformed !== undefined) return;
    if (message.method === 'notifications/progress') {
      const token = key(message.params?.progressToken);
      const request = this.requestOfToken.get(token);
      const progress = Number(message.params?.progress);
      const last = this.lastProgress.get(token);
      if (last !== undefined && !(progress > last))
        this.breach(
          'progress-increasing',
          event.seq,
          `progress ${progress} for token ${token} after ${last}: progress must increase with each notification`,
        );
      this.lastProgress.set(token, progress);
      if (request !== undefined && this.finalSent.has(request))
        this.breach(
          'no-progress-after-final',
          event.seq,
          `the server sent progress for #${JSON.parse(request) as string} after its final response`,
        );
      const cancelled = request === undefined ? undefined : this.cancelAccepted.get(request);
      if (request !== undefined && cancelled !== undefined)
        this.breach(
          'nothing-after-accepted-cancel',
          event.seq,
          `the server sent progress for #${JSON.parse(request) as string} after ${cancelled}: once the cancellation reaches the server, nothing more is sent for the request (RC-6)`,
        );
      return;
    }
    if (
      message.method === undefined &&
      message.id !== undefined &&
      (message.result !== undefined || message.error !== undefined)
    ) {
      const request = key(message.id);
      const cancelled = this.cancelAccepted.get(request);
      if (cancelled !== undefined)
        this.breach(
          'nothing-after-accepted-cancel',
          event.seq,
          `the server answered #${String(message.id)} after ${cancelled}: the client abandoned it, and once the cancellation reaches the server nothing more is sent for the request (RC-6)`,
        );
      this.finalSent.add(request);
    }
  }

  /** Causality: `request` (`requester:id`) reached the side that now acts on it; else a breach naming `what` it did. */
  private requireReceived(request: string, seq: number, what: string): void {
    if (this.received.has(request)) return;
    const [requester, id] = [request.slice(0, request.indexOf(':')), request.slice(request.indexOf(':') + 1)];
    const other = requester === 'client' ? 'server' : 'client';
    this.breach(
      'causality',
      seq,
      `the ${other} ${what} ${requester} request ${id} before that request reached it (it was still on its way, or the network lost it): a party acts on a request only after it received it`,
    );
  }

  /**
   * Causality, what a message refers to: a response answers a request its sender received; progress,
   * a cancellation of a listen, a notification naming a subscription, or anything on a request's SSE
   * stream belongs to a request the server received.
   */
  private causalMessage(event: Seen): void {
    const message = event.message as MessageLike;
    const from = String(event.from);
    const other = from === 'client' ? 'server' : 'client';
    if (message.method !== undefined && message.id !== undefined) {
      const token = message.params?._meta?.[PROGRESS_TOKEN_KEY];
      if (token !== undefined && token !== null) this.requestOfTokenSent.set(key(token), `${from}:${key(message.id)}`);
      // A server's request on a request's SSE stream is checked below with the stream.
    }
    if (event.malformed !== undefined) return;
    if (message.method === undefined && message.id !== undefined && message.id !== null) {
      this.requireReceived(`${other}:${key(message.id)}`, event.seq, 'answered');
      return;
    }
    if (from !== 'server') return;
    if (message.method === 'notifications/progress') {
      const request = this.requestOfTokenSent.get(key(message.params?.progressToken));
      if (request !== undefined) this.requireReceived(request, event.seq, 'sent progress for');
    }
    if (message.method === 'notifications/cancelled' && message.params?.requestId !== undefined)
      this.requireReceived(`client:${key(message.params.requestId)}`, event.seq, 'cancelled');
    const subscription = message.params?._meta?.[SUBSCRIPTION_ID_KEY];
    if (subscription !== undefined)
      this.requireReceived(
        `client:${key(subscription)}`,
        event.seq,
        `sent ${String(message.method)} on the subscription of`,
      );
    // A message on a request's response stream (`SSE #id`) belongs to that request.
    const channel = String(event.channel);
    const stream = sseStream(channel);
    if (stream !== undefined)
      this.requireReceived(
        `client:${/^\d+$/.test(stream) ? stream : key(stream)}`,
        event.seq,
        `sent ${message.method ?? 'a response'} on the SSE stream of`,
      );
  }

  private delivered(event: Seen): void {
    const message = this.messageBySeq[event.messageSeq as number];
    if (message === undefined) return;
    const sent = message.message as MessageLike;
    // An ignored second copy is not a request received again; a first copy ignored still reached its receiver.
    if (sent.method !== undefined && sent.id !== undefined && message.duplicateOf === undefined)
      this.received.add(`${String(message.from)}:${key(sent.id)}`);
    if (event.to === 'server' && sent.method === 'notifications/cancelled' && sent.params?.requestId !== undefined)
      this.cancellationReceived.add(`client:${key(sent.params.requestId)}`);
    if (
      event.to === 'server' &&
      sent.method === 'notifications/cancelled' &&
      message.malformed === undefined &&
      sent.params?.requestId !== undefined
    ) {
      // A cancellation the server received counts whether it honoured it or not: the client abandoned the request.
      const request = key(sent.params.requestId);
      if (this.started.has(request) && !this.cancelAccepted.has(request))
        this.cancelAccepted.set(
          request,
          `it received notifications/cancelled at ${String(event.atMs)} ms${event.ignoredBy === undefined ? '' : ' (and ignored it)'}`,
        );
    }
    const channel = channelKey(message.channel, message.from);
    const queue = this.inFlight.get(channel) ?? [];
    // Messages lost on the way (a dropped stream) never arrive: they do not hold the channel.
    while (queue.length > 0 && queue[0] !== message && queue[0]?.lost === true) queue.shift();
    if (queue[0] !== message) {
      const older = queue[0];
      this.breach(
        'channel-fifo',
        event.seq,
        `on ${channel} message #${message.seq} arrived before #${String(older?.seq)}, which was sent earlier: a channel delivers in the order it was sent`,
      );
      const index = queue.indexOf(message);
      if (index >= 0) queue.splice(index, 1);
      return;
    }
    queue.shift();
  }

  /**
   * What the checker remembers that can decide a later breach, as text (for the explorer's merged
   * states): no seq, since two orderings number their events apart. The breaches already found are part
   * of it (two orderings merge only when they broke the same invariants so far). The messages still in
   * flight are kept by content and order.
   */
  stateKey(): string {
    const inFlight = [...this.inFlight].map(
      ([channel, queue]) =>
        `${channel}:${queue.map((seen) => `${String(seen.atMs)}${seen.lost === true ? 'L' : ''}${seen.malformed === undefined ? '' : 'M'}${JSON.stringify(seen.message)}`).join(';')}`,
    );
    return snapshot([
      this.terminals,
      this.cancelAccepted,
      this.finalSent,
      this.requestOfToken,
      this.lastProgress,
      this.started,
      this.requestIds,
      inFlight,
      this.executions,
      // One not made yet is empty: written as an empty one, so the text is the same either way.
      this.taskStatus ?? NO_STATUSES,
      this.taskSeen ?? NO_POLLS,
      this.lastFailedSeq?.requestId ?? null,
      this.broken ?? NONE_BROKEN,
      this.received,
      this.requestOfTokenSent,
      this.cancellationReceived,
    ]);
  }

  /** End-of-run checks that need the whole run (every request ended once). */
  finish(kind: string, outcome: unknown): void {
    if (this.finished)
      fail('the invariant checker finished a run twice: its end-of-run breaches would be counted again');
    this.finished = true;
    // A request that failed after its effect committed (check-then-act) executed too: the outcome counts it.
    const executions = kind === 'ledger' ? ((outcome as { executions?: number }).executions ?? 0) : 0;
    if (this.settings.sendKey === true && executions > 1 && this.executions <= 1) {
      const at = this.lastFailedSeq;
      this.breach(
        'one-execution-per-key',
        at?.seq ?? this.lastSeq,
        `${executions} executions for one idempotency key${at === null ? '' : `: request #${String(at.requestId)} failed after its effect had already committed`}`,
      );
    }
    if (kind === 'request-race') {
      for (const request of this.started.keys()) {
        if (!this.terminals.has(request))
          this.breach(
            'one-terminal-state',
            this.lastSeq,
            `request #${JSON.parse(request) as string} ended the run with no terminal state`,
          );
      }
    }
  }
}

/** Runs the checker over a recorded transcript's events (the sweeps' use): the breaches it finds. */
export function checkTranscript(transcript: {
  readonly kind: string;
  readonly settings: Settings;
  readonly events: readonly object[];
  readonly outcome: unknown;
}): readonly Breach[] {
  const checker = new InvariantChecker(transcript.settings);
  for (const event of transcript.events) checker.observe(event as Seen);
  checker.finish(transcript.kind, transcript.outcome);
  return checker.found;
}
