// Proves the simulation kit's own guarantees, apart from any model: the event log's bound, a FIFO
// channel under an adversarial same-instant chooser, the wire's hold / release / lose hooks, unique
// request ids per sender, and the check that every request got an answer.
import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from './jsonrpc';
import { LabError } from './errors';
import { InvariantError } from './assert';
import { Sim } from './sim';
import type { Chooser } from './scheduler';
import { EventLog } from './wire';
import type { AnyEvent, MessageEvent } from './transcript';

const request = (id: number): JsonRpcMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: {} });
const response = (id: number): JsonRpcMessage => ({ jsonrpc: '2.0', id, result: {} });
const note = (n: number): JsonRpcMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
});
const summarize = (m: JsonRpcMessage): string => ('method' in m ? m.method : 'response');
/** Always runs the last of the due events: the opposite of insertion order. */
const lastFirst: Chooser = (candidates) => candidates.length - 1;

function sim(chooser?: Chooser, latencyJitterMs = 0): Sim<AnyEvent> {
  return new Sim<AnyEvent>(
    { transport: 'stdio', seed: 1, settings: {}, chooser },
    { eventsMax: 1_000, latency: { latencyMs: 10, latencyJitterMs }, summarize },
  );
}

describe('the event log', () => {
  it('stops with LAB020 at its bound and records nothing past it', () => {
    const clock = { nowMs: 0 };
    const log = new EventLog(clock, 3);
    for (let index = 0; index < 3; index += 1) log.record({ kind: 'x' });
    expect(() => log.record({ kind: 'x' })).toThrow(LabError);
    expect(() => log.record({ kind: 'x' })).toThrow(/LAB020/);
    expect(log.events).toHaveLength(3);
  });

  it('stops with LAB020 at its bound even when not recording, so a fast run ends as a recorded one would', () => {
    const log = new EventLog({ nowMs: 0 }, 3, false);
    for (let index = 0; index < 3; index += 1) log.record({ kind: 'x' });
    expect(() => log.record({ kind: 'x' })).toThrow(/LAB020/);
    expect(log.events).toEqual([]);
    expect(log.count).toBe(3);
  });

  it('refuses a clock that ran backwards', () => {
    const clock = { nowMs: 5 };
    const log = new EventLog(clock);
    log.record({ kind: 'x' });
    clock.nowMs = 4;
    expect(() => log.record({ kind: 'x' })).toThrow(InvariantError);
  });
});

describe('the wire', () => {
  it("finds a channel's oldest message still on its way from one sender, as the list of every message in flight does", () => {
    const s = sim();
    const found: (number | undefined)[][] = [];
    const check = (): void => {
      const all = s.wire.inFlightAll();
      found.push(
        (['a', 'b', 'c'] as const).flatMap((channel) =>
          (['client', 'server'] as const).map((from) => {
            const oldest = s.wire.oldestInFlight(channel, from);
            expect(oldest).toBe(all.find((event) => event.from === from && event.channel === channel));
            return oldest?.seq;
          }),
        ),
      );
    };
    s.at(0, 'client', 'send', () => {
      check();
      s.wire.send('client', 'a', request(1), () => null);
      s.wire.send('server', 'a', note(1), () => null);
      s.wire.send('client', 'a', request(2), () => null);
      s.wire.send('client', 'b', request(3), () => null, { held: true });
      s.wire.send('server', 'b', note(2), () => null, { lost: 'gone' });
      check();
    });
    s.at(11, 'client', 'after the arrivals', check);
    s.run();
    expect(found[0]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(found[1]).toEqual([0, 1, 3, undefined, undefined, undefined]);
    expect(found.at(-1)).toEqual([undefined, undefined, 3, undefined, undefined, undefined]);
  });

  it('keeps a channel FIFO when a chooser runs the later of two same-instant deliveries first', () => {
    const s = sim(lastFirst);
    const received: number[] = [];
    s.at(0, 'server', 'send', () => {
      for (const n of [1, 2, 3])
        s.wire.send(
          'server',
          'stdio',
          note(n),
          (e) => (received.push(Number('params' in e.message ? e.message.params?.progress : NaN)), null),
        );
    });
    s.run();
    expect(received).toEqual([1, 2, 3]);
  });

  it('stamps each delivery with its own message as cause, even when the chooser runs a later delivery event first', () => {
    const s = sim(lastFirst);
    s.at(0, 'server', 'send', () => {
      for (const n of [1, 2, 3]) s.wire.send('server', 'stdio', note(n), () => null);
    });
    s.run();
    const deliveries = s.events.filter((e) => e.kind === 'delivered') as unknown as Array<{
      messageSeq: number;
      causeSeq: number | null;
    }>;
    expect(deliveries).toHaveLength(3);
    for (const delivery of deliveries) expect(delivery.causeSeq).toBe(delivery.messageSeq);
  });

  it('refuses a message sent past a held one on the same channel (it would overtake it)', () => {
    const s = sim();
    s.wire.send('server', 'SSE #1', note(1), () => null, { held: true });
    expect(() => s.wire.send('server', 'SSE #1', note(2), () => null)).toThrow(/would overtake it/);
    // Another channel is not held.
    expect(() => s.wire.send('server', 'SSE #2', note(3), () => null)).not.toThrow();
  });

  it('a response that is lost answers nothing: the request stays open until settled', () => {
    const s = sim();
    s.wire.send('client', 'stdio', request(9), () => null);
    s.wire.send('server', 'stdio', response(9), () => null, { lost: 'the connection broke' });
    s.run();
    expect(s.wire.unanswered().map((e) => e.message)).toEqual([request(9)]);
    s.wire.settle('client', 9);
    expect(s.wire.unanswered()).toEqual([]);
  });

  it('never lets jitter reorder a channel: arrival times do not decrease', () => {
    const s = sim(undefined, 500);
    const sent: MessageEvent[] = [];
    for (let n = 1; n <= 50; n += 1)
      s.at(n, 'server', 'send', () => void sent.push(s.wire.send('server', 'stdio', note(n), () => null)));
    s.run();
    const arrivals = sent.map((e) => e.arrivesAtMs);
    expect(arrivals).toEqual([...arrivals].sort((a, b) => a - b));
    expect(new Set(arrivals).size).toBeGreaterThan(1);
  });

  it('holds a message until released, and a lost one never arrives', () => {
    const s = sim();
    const received: string[] = [];
    let held: MessageEvent | undefined;
    let lost: MessageEvent | undefined;
    s.at(0, 'server', 'send', () => {
      held = s.wire.send('server', 'SSE #1', note(1), () => (received.push('held'), null), { held: true });
      lost = s.wire.send('server', 'SSE #1', note(2), () => (received.push('lost'), null), { held: true });
    });
    s.at(100, 'transport', 'flush', () => {
      s.wire.release(held as MessageEvent, 100);
      expect(s.wire.lose(lost as MessageEvent, 'the stream dropped')).toBe(true);
    });
    s.run();
    expect(received).toEqual(['held']);
    expect(held?.arrivesAtMs).toBe(100);
    expect(lost).toMatchObject({ lost: true, reason: 'the stream dropped' });
  });

  it('refuses a request id its sender already used', () => {
    const s = sim();
    s.wire.send('client', 'stdio', request(7), () => null);
    expect(() => s.wire.send('client', 'stdio', request(7), () => null)).toThrow(InvariantError);
    // The other side has its own ids.
    expect(() => s.wire.send('server', 'stdio', request(7), () => null)).not.toThrow();
  });

  it('fails a run that leaves a request without an answer (LAB021), unless it was settled', () => {
    const s = sim();
    s.wire.send('client', 'stdio', request(1), () => null);
    s.wire.send('client', 'stdio', request(2), () => null);
    s.wire.send('server', 'stdio', response(1), () => null);
    s.run();
    expect(s.wire.unanswered().map((e) => e.message)).toEqual([request(2)]);
    expect(() => s.wire.assertAllAnswered()).toThrow(/LAB021.*tools\/call sent by the client/);
    s.wire.settle('client', 2);
    expect(() => s.wire.assertAllAnswered()).not.toThrow();
  });
});
