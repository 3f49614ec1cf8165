import { assert } from '../../core/assert';
import { defineModel, type ResolvedRun } from '../../core/model';
import type { Sim } from '../../core/sim';
import { mcpSim } from '../../mcp/mcpSim';
import { callToolRequest, callToolResultResponse, progressNotification, type RequestId } from '../../mcp/protocol';
import { endResponseStream, openResponseStream, sendOn } from '../../mcp/stream';
import { BoundedSseBuffer, type PushReport, type SseEntry } from './buffer';
import { ComponentBuffer } from './componentBuffer';
import { NaiveSseQueue, type NaiveReport } from './naiveQueue';
import { bufferOverloadSettingsSpec, type BufferOverloadSettings } from './settings';
import type { BufferModelEvent, BufferOutcome, BufferScenario } from './types';
export { bufferOverloadSettingsSpec, bufferOverloadDefaults, type BufferOverloadSettings } from './settings';

/**
 * `buffer-overload` (docs/requirements.md#bounded-progress-buffer-bf, BF-1 … BF-6, VF-10): a server produces progress for several
 * concurrent tool calls faster than its client reads. Their messages wait in one BoundedSseBuffer —
 * on stdio the writer of the one pipe they share, on Streamable HTTP the server's writer toward the
 * client in front of the requests' SSE streams — so the transcript shows coalescing, drops of the
 * oldest progress, the needs-refetch mark, and every final response delivered.
 */

interface Producing {
  readonly requestId: number;
  readonly token: string;
  progressSent: number;
  finalPushed: boolean;
  /** The server produces for a request only once it received it; one the network lost it never sees. */
  received: boolean;
  lost: boolean;
}

function summarize(entry: SseEntry, total: number): string {
  return entry.kind === 'progress'
    ? `progress ${entry.progress}/${total} of #${String(entry.requestId)}`
    : `response #${String(entry.requestId)}`;
}

export class BufferOverload {
  readonly sim: Sim<BufferModelEvent>;
  readonly buffer: BoundedSseBuffer | NaiveSseQueue | ComponentBuffer;
  private readonly settings: BufferOverloadSettings;
  private readonly producing: Producing[] = [];
  private readonly lastProgressSeen = new Map<RequestId, number>();
  private readonly announcedRefetch = new Set<RequestId>();
  private finalsDelivered = 0;
  /** BF-5: the refused final the producer holds until the consumer frees a slot, and since when. */
  private held: { entry: SseEntry; sinceMs: number } | null = null;
  private producerHeldMs = 0;

  constructor(run: ResolvedRun<BufferOverloadSettings>) {
    const s = (this.settings = run.settings);
    // The buffer sits at the client's end of the stream: the wire adds no latency (and so draws nothing from the seed).
    this.sim = mcpSim(run, { eventsMax: s.eventsMax });
    const component = run.components?.buffer;
    if (component !== undefined && run.components !== undefined) {
      // The buffer exercise: the student's buffer in the place of the lab's (the queue setting is then unused).
      const clock = this.sim.componentClock();
      this.buffer = new ComponentBuffer(
        s.capacity,
        s.progressPerRequest,
        component(s.capacity, clock),
        run.components.probe,
        clock,
        (entry, reason) => {
          this.sim.record({
            kind: 'buffer',
            action: 'dropped',
            requestId: entry.requestId,
            what: entry.kind,
            summary: summarize(entry, s.progressPerRequest),
            occupancyEvents: this.buffer.occupancyEvents,
            capacityEvents: s.capacity,
            reason,
          });
        },
      );
    } else {
      this.buffer = s.queue === 'bounded' ? new BoundedSseBuffer(s.capacity) : new NaiveSseQueue(s.queue, s.capacity);
    }
    // For the race explorer: its whole state is in these fields (no SQLite); its queued closures (produce, consume, deliveries) take no arguments.
    this.sim.exploreState(this);
  }

  get events(): BufferModelEvent[] {
    return this.sim.events;
  }

  run(): this {
    const s = this.settings;
    for (let index = 0; index < s.requests; index += 1) {
      const requestId = index + 1;
      const token = `progress-${requestId}`;
      const request: Producing = {
        requestId,
        token,
        progressSent: 0,
        finalPushed: false,
        received: false,
        lost: false,
      };
      this.producing.push(request);
      // Through the kit's wire like every model's messages.
      const sent = sendOn(
        this.sim,
        'client',
        callToolRequest(requestId, 'export_rows', { table: `orders-${requestId}` }, token),
        requestId,
        () => {
          request.received = true;
          openResponseStream(this.sim, requestId);
          return null;
        },
      );
      // A request the network lost never reaches the server: nothing is produced for it, and no final response comes.
      request.lost = sent.lost === true;
    }
    // Every request lost on its way (a dropped stream): the server has nothing to produce, the client nothing to read.
    if (this.producerDone) {
      this.sim.run();
      return this;
    }
    this.sim.after(s.producerEveryMs, 'server', 'produce', () => this.produce());
    this.sim.after(s.consumerEveryMs, 'client', 'consume', () => this.consume());
    this.sim.run();
    return this;
  }

  private get producerDone(): boolean {
    return this.producing.every((request) => request.finalPushed || request.lost);
  }

  /**
   * For the race explorer's partial-order reduction: the buffer and the producer's state (`held`,
   * `producing`) are one object both sides use, the producer (a server event) and the consumer (a
   * client event, which takes from the buffer, releases the held producer and reads whether it is
   * done). The wire does not carry it, so each of them says it touched it: the explorer then never
   * commutes a produce with a consume, whose order decides what is dropped, coalesced or refused.
   */
  private touchBuffer(): void {
    this.sim.scheduler.explorer?.touch?.('buffer');
  }

  /** The producer emits one message for a request the seed picks: its next progress, or its final response. */
  private produce(): void {
    this.touchBuffer();
    const active = this.producing.filter((request) => request.received && !request.finalPushed);
    if (active.length === 0) {
      // Every unfinished request is still on its way to the server (a delayed one): nothing to produce yet.
      assert(!this.producerDone, 'the producer runs only while a request is unfinished');
      this.scheduleProduce();
      return;
    }
    // The seed's one random stream picks (the wire draws nothing from it: it has no jitter).
    const request = active[this.sim.random.int(0, active.length - 1)] as Producing;
    const total = this.settings.progressPerRequest;
    let entry: SseEntry;
    if (request.progressSent < total) {
      request.progressSent += 1;
      const message = progressNotification(
        request.token,
        request.progressSent,
        total,
        `row batch ${request.progressSent} of ${total}`,
      );
      entry = {
        kind: 'progress',
        requestId: request.requestId,
        token: request.token,
        progress: request.progressSent,
        message,
      };
    } else {
      entry = {
        kind: 'final',
        requestId: request.requestId,
        message: callToolResultResponse(request.requestId, `Exported orders-${request.requestId}.`, { batches: total }),
      };
    }
    if (!this.push(entry)) {
      // BF-5 back-pressure: the producer stops here until the consumer frees a slot (see consume).
      this.held = { entry, sinceMs: this.sim.nowMs };
      return;
    }
    this.scheduleProduce();
  }

  private scheduleProduce(): void {
    if (!this.producerDone) this.sim.after(this.settings.producerEveryMs, 'server', 'produce', () => this.produce());
  }

  private markFinalPushed(entry: SseEntry): void {
    if (entry.kind !== 'final') return;
    const request = this.producing.find((candidate) => candidate.requestId === entry.requestId);
    assert(request !== undefined && !request.finalPushed, () => `response #${String(entry.requestId)} is pushed once`);
    request.finalPushed = true;
  }

  /** Pushes one entry and records what the buffer did; false when it refused the push (BF-5). */
  private push(entry: SseEntry): boolean {
    const total = this.settings.progressPerRequest;
    const capacityEvents = this.buffer.capacityEvents;
    const report: PushReport | NaiveReport = this.buffer.push(entry);
    const base = {
      kind: 'buffer',
      requestId: entry.requestId,
      what: entry.kind,
      occupancyEvents: report.occupancyEvents,
      capacityEvents,
    } as const;
    if (report.action !== 'refused') this.markFinalPushed(entry);
    switch (report.action) {
      case 'dropped-final': {
        this.sim.record({
          ...base,
          requestId: report.dropped.requestId,
          what: 'final',
          action: 'dropped',
          summary: summarize(report.dropped, total),
          reason: `this queue evicts its oldest event whatever it is: the final response of #${String(report.dropped.requestId)} is gone and its client can never learn the outcome (a catalogued failure mode; BF-4 forbids it)`,
        });
        this.sim.record({
          ...base,
          action: 'enqueued',
          summary: summarize(entry, total),
          reason: 'held in the freed slot',
        });
        break;
      }
      case 'refused': {
        const finals = report.heldFinals.map((id) => `#${String(id)}`).join(', ');
        this.sim.record({
          ...base,
          action: 'refused',
          summary: summarize(entry, total),
          reason:
            `all ${report.occupancyEvents} held events are final responses (${finals}); keeping ${summarize(entry, total)} would drop another final response, ` +
            'so the buffer refuses the push and the producer is held back (back-pressure) until the client reads one (BF-5)',
        });
        return false;
      }
      case 'enqueued':
        this.sim.record({
          ...base,
          action: 'enqueued',
          summary: summarize(entry, total),
          reason:
            capacityEvents === null
              ? 'held until the client reads it; this queue has no bound, so the backlog (and memory) grows with a slow consumer (a catalogued failure mode)'
              : 'held until the client reads it',
        });
        break;
      case 'coalesced':
        this.sim.record({
          ...base,
          action: 'coalesced',
          summary: summarize(entry, total),
          reason: `replaces ${summarize(report.replaced, total)} at the tail: the newer value supersedes it (BF-1)`,
        });
        break;
      case 'dropped-oldest':
      case 'dropped-incoming': {
        const dropped = report.dropped;
        this.sim.record({
          ...base,
          requestId: dropped.requestId,
          what: 'progress',
          action: 'dropped',
          summary: summarize(dropped, total),
          reason: this.dropReason(report.action, entry, capacityEvents),
        });
        if (report.action === 'dropped-oldest') {
          this.sim.record({
            ...base,
            action: 'enqueued',
            summary: summarize(entry, total),
            reason: 'held in the freed slot',
          });
        }
        assert(this.buffer.needsRefetchFor(dropped.requestId), 'a drop always marks its stream (BF-3)');
        if (this.announcedRefetch.has(dropped.requestId)) break;
        this.announcedRefetch.add(dropped.requestId);
        this.sim.record({
          ...base,
          requestId: dropped.requestId,
          what: 'progress',
          action: 'needs-refetch',
          summary: `stream #${String(dropped.requestId)}`,
          reason:
            'progress for this request was dropped: the client must not trust the last progress it saw and re-reads authoritative state (its final response, or tasks/get for a task) (BF-3)',
        });
        break;
      }
    }
    return true;
  }

  /** Why a push dropped progress: the oldest to make room (a naive queue or the bounded buffer), or the incoming one. */
  private dropReason(
    action: 'dropped-oldest' | 'dropped-incoming',
    entry: SseEntry,
    capacityEvents: number | null,
  ): string {
    const total = this.settings.progressPerRequest;
    return action === 'dropped-oldest'
      ? this.buffer instanceof NaiveSseQueue
        ? `the queue is full (${String(capacityEvents)}/${String(capacityEvents)}): its oldest event, progress, goes to make room for ${summarize(entry, total)}`
        : `the buffer is full (${capacityEvents}/${capacityEvents}): the oldest progress goes to make room for ${summarize(entry, total)} (BF-2)`
      : `the buffer is full of final responses, which are never dropped: the incoming progress is the only replaceable event (BF-2, BF-4)`;
  }

  /** BF-5: the consumer freed a slot; the held producer pushes its refused final again and goes on. */
  private releaseProducer(): void {
    const held = this.held;
    if (held === null) return;
    this.held = null;
    const heldMs = this.sim.nowMs - held.sinceMs;
    this.producerHeldMs += heldMs;
    const total = this.settings.progressPerRequest;
    this.sim.record({
      kind: 'buffer',
      action: 'released',
      requestId: held.entry.requestId,
      what: held.entry.kind,
      summary: summarize(held.entry, total),
      occupancyEvents: this.buffer.occupancyEvents,
      capacityEvents: this.buffer.capacityEvents,
      heldMs,
      reason: `the client read one event and freed a slot: the producer, held ${heldMs} ms, pushes ${summarize(held.entry, total)} again (BF-5)`,
    });
    const accepted = this.push(held.entry);
    assert(accepted, 'a push into a freed slot is never refused');
    this.scheduleProduce();
  }

  /** The client reads the oldest held message: it goes on the wire now. */
  private consume(): void {
    this.touchBuffer();
    const entry = this.buffer.shift();
    if (entry !== undefined) {
      sendOn(this.sim, 'server', entry.message, entry.requestId, () => null);
      if (entry.kind === 'progress') {
        const last = this.lastProgressSeen.get(entry.requestId);
        assert(
          last === undefined || entry.progress > last,
          () => `progress for #${String(entry.requestId)} went from ${String(last)} to ${entry.progress} on the wire`,
        );
        this.lastProgressSeen.set(entry.requestId, entry.progress);
      } else {
        this.finalsDelivered += 1;
        endResponseStream(this.sim, entry.requestId);
      }
      this.releaseProducer();
    }
    if (!this.producerDone || this.buffer.occupancyEvents > 0)
      this.sim.after(this.settings.consumerEveryMs, 'client', 'consume', () => this.consume());
  }

  outcome(): BufferOutcome {
    assert(this.producerDone, 'the run ends only after every request pushed its final response');
    assert(this.held === null, 'the run ends with no producer held back');
    assert(this.buffer.occupancyEvents === 0, 'the run ends only after the client read everything held');
    return {
      capacity: this.buffer.capacityEvents,
      maxOccupancy: this.buffer.maxOccupancyEvents,
      dropped: this.buffer.droppedEvents,
      coalesced: this.buffer.coalescedEvents,
      needsRefetch: this.buffer.needsRefetch,
      finalDelivered: this.finalsDelivered === this.settings.requests,
      refusedPushes: this.buffer.refusedPushes,
      producerHeldMs: this.producerHeldMs,
    };
  }
}

export const bufferModel = defineModel(
  bufferOverloadSettingsSpec,
  (run, _scenario: BufferScenario) => new BufferOverload(run),
);
