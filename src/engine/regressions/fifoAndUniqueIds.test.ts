// Pins three behaviours, each to its reproduction: a channel stays
// FIFO under a seeded same-instant chooser; a task transcript holds nothing recorded after the run;
// a replay during a ledger race gets a new request id and an answer (ids are unique per sender, and a
// run that leaves a request unanswered fails).
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { findScenario, runScenarioById } from '../../scenarios/index';
import {
  SeededRandom,
  seededChooser,
  type LabEvent,
  type MessageEvent,
  type SqlModule,
  type Transcript,
} from '../index';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

/** Channels whose messages were delivered in another order than they were sent, as readable lines. */
function fifoBreaks(t: Transcript): string[] {
  const bySeq = new Map<number, LabEvent>(t.events.map((e) => [e.seq, e]));
  const lastSentSeq = new Map<string, number>();
  const breaks: string[] = [];
  for (const event of t.events) {
    if (event.kind !== 'delivered') continue;
    const message = bySeq.get(event.messageSeq) as MessageEvent;
    const key = `${message.channel}:${message.from}`;
    const previous = lastSentSeq.get(key) ?? -1;
    if (message.seq < previous)
      breaks.push(`${key}: message #${message.seq} (sent at ${message.atMs} ms) delivered after #${previous}`);
    lastSentSeq.set(key, Math.max(previous, message.seq));
  }
  return breaks;
}

describe('a channel is FIFO under every same-instant chooser', () => {
  it('A on stdio, seed 35, latency jitter 400 ms: no response overtakes a progress sent earlier, over 4,000 chooser seeds', () => {
    const scenario = findScenario('A');
    const broken: string[] = [];
    for (let chooserSeed = 0; chooserSeed < 4_000; chooserSeed += 1) {
      const t = runScenarioById(scenario.id, {
        transport: 'stdio',
        seed: 35,
        settings: { latencyJitterMs: 400 },
        chooser: seededChooser(new SeededRandom(chooserSeed)),
      });
      for (const line of fifoBreaks(t)) broken.push(`chooser seed ${chooserSeed}: ${line}`);
    }
    expect(broken).toEqual([]);
  });
});

describe('a task transcript ends with the run', () => {
  for (const id of ['task-cancel-ack', 'task-cancel-too-late', 'task-http-close']) {
    it(`${id}: no SQL statement is recorded for the outcome query`, () => {
      const t = runScenarioById(id, { ledger: { sql } });
      // No request of a task run has id 0: the outcome's own query used it.
      expect(t.events.filter((e) => e.kind === 'sql' && e.requestId === 0)).toEqual([]);
      expect(t.events.at(-1)?.kind).not.toBe('sql');
    });
  }
});

describe('request ids are unique per sender and every request is answered', () => {
  it('ledger-alias with race=true: the replay is a new id, answered, and the effect runs once', () => {
    const t = runScenarioById('ledger-alias', { settings: { race: true }, ledger: { sql } });
    if (t.kind !== 'ledger') throw new Error('ledger-alias is a ledger scenario');
    const messages = t.events.filter((e): e is MessageEvent => e.kind === 'message');
    const requestIds = messages
      .filter((m) => m.from === 'client' && 'method' in m.message && 'id' in m.message)
      .map((m) => ('id' in m.message ? m.message.id : null));
    expect(new Set(requestIds).size).toBe(requestIds.length);
    const answered = new Set(
      messages
        .filter((m) => m.from === 'server' && !('method' in m.message))
        .map((m) => ('id' in m.message ? m.message.id : null)),
    );
    expect(requestIds.filter((id) => !answered.has(id))).toEqual([]);
    expect(t.outcome.executions).toBe(1);
    expect(t.outcome.requests).toBe(requestIds.length);
  });
});
