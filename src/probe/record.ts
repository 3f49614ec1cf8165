import { LabError } from '../engine';
import { RECORDING_EVENTS_MAX } from '../engine/core/recordingLimits';

/**
 * What the probe saw, in the order it saw it, with real times in ms from the probe's start. Every
 * JSON-RPC message is kept exactly as sent or received; HTTP responses, SSE comments, stream ends,
 * the probe's own deadlines and the server's stderr sit beside them so one list tells the story.
 */
export type ProbeEvent =
  | (ProbeEventBase & {
      kind: 'message';
      from: 'client' | 'server';
      to: 'client' | 'server';
      channel: string;
      message: Record<string, unknown>;
      bytes: number;
    })
  | (ProbeEventBase & { kind: 'http-response'; channel: string; status: number; headers: Record<string, string> })
  | (ProbeEventBase & { kind: 'sse-comment'; channel: string; text: string })
  | (ProbeEventBase & { kind: 'stream-closed'; channel: string; by: 'client' | 'server'; reason: string })
  | (ProbeEventBase & {
      kind: 'deadline';
      requestId: string | number;
      deadline: 'idle' | 'max';
      action: 'armed' | 'reset' | 'fired' | 'disarmed';
      dueAtMs: number;
    })
  | (ProbeEventBase & { kind: 'note'; text: string });

export interface ProbeEventBase {
  seq: number;
  atMs: number;
  /** Which probe of the run was going on: `negotiate`, `cancel-during-work`, … */
  probe: string;
}

export type ProbeEventInput = ProbeEvent extends infer E
  ? E extends ProbeEvent
    ? Omit<E, 'seq' | 'atMs' | 'probe'>
    : never
  : never;

/** The limits that keep a probe of an unknown server finite: a flooding or silent server ends in a LAB error. */
export interface ProbeBounds {
  /** Wall-clock budget of the whole probe run. */
  budgetMs: number;
  /** Messages and SSE comments received, all probes together. */
  messagesMax: number;
  /** Bytes received, all probes together (message bodies, SSE framing and comments). */
  bytesMax: number;
  /** One stdio line or one SSE event or one JSON body. */
  messageBytesMax: number;
  /** How long one request may go without an answer before the server counts as silent. */
  answerTimeoutMs: number;
  /** How long the first request may wait: it includes the server's start (npx may install first). */
  startupTimeoutMs: number;
}

export const PROBE_BOUNDS_DEFAULT: ProbeBounds = {
  budgetMs: 120_000,
  messagesMax: 5_000,
  bytesMax: 16 * 1024 * 1024,
  messageBytesMax: 1024 * 1024,
  answerTimeoutMs: 10_000,
  startupTimeoutMs: 30_000,
};

type Waiter = {
  test: (event: ProbeEvent) => boolean;
  resolve: (event: ProbeEvent | null) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

/**
 * The one log of a probe run and the place probes wait on: `waitFor` resolves with the first event
 * that matches, or null at its deadline. A bound broken anywhere (`fail`) rejects every waiter, so
 * a flooding server stops the probe at once instead of after its timers.
 */
export class Recorder {
  readonly events: ProbeEvent[] = [];
  readonly startedAtMs: number;
  readonly bounds: ProbeBounds;
  probe = 'negotiate';
  private received = { messages: 0, bytes: 0 };
  private waiters = new Set<Waiter>();
  private readonly listeners: ((event: ProbeEvent) => void)[] = [];
  private failure: Error | null = null;
  private readonly now: () => number;

  constructor(bounds: ProbeBounds, now: () => number = () => performance.now()) {
    this.bounds = bounds;
    this.now = now;
    this.startedAtMs = now();
  }

  /** Milliseconds since the probe started, to a tenth of a ms (real time: two runs never agree to the ms). */
  nowMs(): number {
    return Math.round((this.now() - this.startedAtMs) * 10) / 10;
  }

  /** Time left in the run's wall-clock budget. */
  remainingMs(): number {
    return Math.max(0, this.bounds.budgetMs - this.nowMs());
  }

  get failed(): Error | null {
    return this.failure;
  }

  record(input: ProbeEventInput): ProbeEvent {
    const event = { ...input, seq: this.events.length, atMs: this.nowMs(), probe: this.probe } as ProbeEvent;
    this.events.push(event);
    // The page opens a recording of at most this many events: the probe never writes one it would refuse.
    if (this.events.length > RECORDING_EVENTS_MAX)
      this.fail(
        new LabError(
          'LAB045',
          `the probe recorded more than ${RECORDING_EVENTS_MAX} events (the most a recording the page opens may hold); it stopped at ${this.nowMs()} ms and ended the connection`,
        ),
      );
    for (const listener of this.listeners) listener(event);
    for (const waiter of [...this.waiters]) {
      if (!waiter.test(event)) continue;
      this.waiters.delete(waiter);
      clearTimeout(waiter.timer);
      waiter.resolve(event);
    }
    return event;
  }

  /** Calls `listener` with every event as it is recorded (after the event is in the log). */
  onRecord(listener: (event: ProbeEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Counts what the server sent against the run's bounds; past one, the run fails with LAB045. */
  countReceived(bytes: number, what: string): void {
    this.countMessage(what);
    this.countBytes(bytes);
  }

  /** One message (or SSE comment) received, against the message bound. */
  countMessage(what: string): void {
    this.received.messages += 1;
    if (this.received.messages > this.bounds.messagesMax)
      this.fail(
        new LabError(
          'LAB045',
          `the server sent more than ${this.bounds.messagesMax} messages (${what} was the last); the probe stopped at ${this.nowMs()} ms and ended the connection`,
        ),
      );
  }

  /**
   * Bytes received, against the total bound: counted as they arrive (an SSE stream's chunks, framing and
   * unended events included), so bytes that never become a message count too.
   */
  countBytes(bytes: number): void {
    this.received.bytes += bytes;
    if (this.received.bytes > this.bounds.bytesMax)
      this.fail(
        new LabError(
          'LAB045',
          `the server sent more than ${this.bounds.bytesMax} bytes; the probe stopped at ${this.nowMs()} ms and ended the connection`,
        ),
      );
  }

  get receivedTotals(): { messages: number; bytes: number } {
    return { ...this.received };
  }

  /** Ends the run with `error`: every wait rejects with it; the first failure wins. */
  fail(error: Error): void {
    if (this.failure !== null) return;
    this.failure = error;
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiters.clear();
  }

  /**
   * The first event from now on that passes `test`, or null after `timeoutMs` (cut to the run's
   * remaining budget: past the budget the run fails with LAB042, since nothing may wait longer).
   * With `fromSeq`, an event already recorded at or after it counts too: one chunk of a stream can
   * carry several messages, recorded before the waiter for the second one exists.
   */
  waitFor(test: (event: ProbeEvent) => boolean, timeoutMs: number, fromSeq?: number): Promise<ProbeEvent | null> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (fromSeq !== undefined) {
      const already = this.events.find((e) => e.seq >= fromSeq && test(e));
      if (already !== undefined) return Promise.resolve(already);
    }
    const budgetLeftMs = this.remainingMs();
    const waitMs = Math.max(0, Math.min(timeoutMs, budgetLeftMs));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        test,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          if (waitMs < timeoutMs) {
            const error = new LabError(
              'LAB042',
              `the probe's wall-clock budget of ${this.bounds.budgetMs} ms ran out while waiting; raise --budget-ms or shorten the tool's work`,
            );
            this.fail(error);
            reject(error);
          } else resolve(null);
        }, waitMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Waits `ms` of real time (bounded by the budget), still failing at once when a bound breaks. */
  async pause(ms: number): Promise<void> {
    await this.waitFor(() => false, ms);
  }
}
