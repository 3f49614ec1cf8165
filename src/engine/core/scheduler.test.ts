// Proves the virtual clock orders events by (atMs, seq), lets an injected chooser order same-instant events, never runs backwards, and stops at its event bound.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BinaryHeap } from './heap';
import { InvariantError } from './assert';
import { LabError } from './errors';
import { Scheduler, insertionOrder, pinnedChooser, seededChooser, type Chooser } from './scheduler';
import { SeededRandom } from './prng';

describe('BinaryHeap', () => {
  it('pops in (atMs, seq) order for any push sequence', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 300 }), (times) => {
        const heap = new BinaryHeap<{ atMs: number; seq: number }>();
        times.forEach((atMs, seq) => heap.push({ atMs, seq }));
        const popped: Array<[number, number]> = [];
        for (let item = heap.pop(); item !== undefined; item = heap.pop()) popped.push([item.atMs, item.seq]);
        const expected = times
          .map((atMs, seq): [number, number] => [atMs, seq])
          .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        expect(popped).toEqual(expected);
      }),
    );
  });
});

function order(chooser: Chooser | undefined): string[] {
  const ran: string[] = [];
  const s = new Scheduler({ eventsMax: 100, chooser });
  for (const label of ['a', 'b', 'c']) s.at(10, 'client', label, () => ran.push(label));
  s.at(5, 'server', 'early', () => ran.push('early'));
  s.runUntilIdle();
  return ran;
}

describe('Scheduler', () => {
  it('runs by time, then insertion order by default', () => {
    expect(order(undefined)).toEqual(['early', 'a', 'b', 'c']);
    expect(order(insertionOrder)).toEqual(['early', 'a', 'b', 'c']);
  });

  it('lets a pinned chooser order same-instant events', () => {
    expect(order(pinnedChooser(['c', 'b']))).toEqual(['early', 'c', 'b', 'a']);
  });

  it('a seeded chooser explores every order of three same-instant events, and replays each seed exactly', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 200; seed += 1) {
      const first = order(seededChooser(new SeededRandom(seed))).join('');
      expect(order(seededChooser(new SeededRandom(seed))).join('')).toBe(first);
      seen.add(first);
    }
    expect([...seen].sort()).toEqual(['earlyabc', 'earlyacb', 'earlybac', 'earlybca', 'earlycab', 'earlycba']);
  });

  it('offers events scheduled at the current instant to the chooser too', () => {
    const ran: string[] = [];
    const s = new Scheduler({ eventsMax: 100, chooser: pinnedChooser(['late']) });
    s.at(0, 'client', 'first', () => {
      ran.push('first');
      s.at(0, 'client', 'late', () => ran.push('late'));
    });
    s.at(0, 'client', 'second', () => ran.push('second'));
    s.runUntilIdle();
    expect(ran).toEqual(['first', 'late', 'second']);
  });

  it('withdrawn events do not run', () => {
    const ran: string[] = [];
    const s = new Scheduler({ eventsMax: 100 });
    const handle = s.at(3, 'client', 'x', () => ran.push('x'));
    s.at(4, 'client', 'y', () => ran.push('y'));
    expect(s.cancel(handle)).toBe(true);
    expect(s.cancel(handle)).toBe(false);
    s.runUntil(10);
    expect(ran).toEqual(['y']);
    expect(s.nowMs).toBe(10);
  });

  it('time never runs backwards', () => {
    const s = new Scheduler({ eventsMax: 100 });
    s.at(10, 'client', 'x', () => undefined);
    s.runUntilIdle();
    expect(() => s.at(9, 'client', 'past', () => undefined)).toThrow(InvariantError);
    expect(() => s.runUntil(5)).toThrow(InvariantError);
  });

  it('a run that would not stop ends at eventsMax with a clear error', () => {
    const s = new Scheduler({ eventsMax: 50 });
    const again = (): void => void s.after(1, 'worker', 'again', again);
    again();
    expect(() => s.runUntilIdle()).toThrow(LabError);
    expect(s.eventsRun).toBe(50);
  });

  it('lists the queued events in the order of their `atMs actor label` lines, leaving out withdrawn ones', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            atMs: fc.integer({ min: 0, max: 3 }),
            actor: fc.constantFrom('client' as const, 'server' as const, 'worker' as const, 'transport' as const),
            label: fc.constantFrom('a', 'b', 'ab', 'a b', 'B', ''),
            withdrawn: fc.boolean(),
          }),
          { maxLength: 30 },
        ),
        (events) => {
          const s = new Scheduler({ eventsMax: 100 });
          const lines: string[] = [];
          for (const { atMs, actor, label, withdrawn } of events) {
            const handle = s.at(atMs, actor, label, () => undefined);
            if (withdrawn) s.cancel(handle);
            else lines.push(`${atMs} ${actor} ${label}`);
          }
          const listed = s.queuedInOrder().map((event) => `${event.atMs} ${event.actor} ${event.label}`);
          expect(listed).toEqual(
            lines.sort((a, b) => Number(a.split(' ')[0]) - Number(b.split(' ')[0]) || (a < b ? -1 : a > b ? 1 : 0)),
          );
        },
      ),
    );
  });
});
