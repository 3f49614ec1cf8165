// Proves the explorer's history hash of an event (`Hash.addValue`, a walk of its structure) tells two
// events apart exactly when their JSON text does, as the hash of that text did: the same orderings
// merge, the same states are counted.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { findScenario } from '../../scenarios/index';
import { runScenario } from '../scenario';
import { FieldNames, Hash } from './driver';

function digestOf(values: readonly unknown[], names: FieldNames | null): string {
  const hash = new Hash(names);
  for (const value of values) hash.addValue(value);
  return hash.digest();
}

/**
 * Over every pair: equal digests exactly when the JSON texts (of the values one after another) are
 * equal. Each history is hashed with no table of field names, with one table shared by every history
 * (as an exploration's runs share one), and with a full table, which names the field names met
 * before it filled up and leaves the others to be hashed as strings.
 */
function expectSameClasses(histories: readonly (readonly unknown[])[]): void {
  const full = new FieldNames();
  full.of('kind');
  full.of('a');
  for (let index = 0; full.of(`filler ${index}`) !== -1; index += 1) {
    // fills the table: every name after this has no word
  }
  for (const names of [null, new FieldNames(), full]) expectSameClassesWith(histories, names);
}

function expectSameClassesWith(histories: readonly (readonly unknown[])[], names: FieldNames | null): void {
  const digestByText = new Map<string, string>();
  const textByDigest = new Map<string, string>();
  for (const history of histories) {
    const text = history.map((value) => JSON.stringify(value)).join('');
    const digest = digestOf(history, names);
    expect(digestByText.get(text) ?? digest, `one digest for ${text}`).toBe(digest);
    expect(textByDigest.get(digest) ?? text, `one text for digest ${digest}`).toBe(text);
    digestByText.set(text, digest);
    textByDigest.set(digest, text);
  }
}

describe('Hash.addValue', () => {
  it('follows JSON: what JSON writes alike hashes alike, what it writes apart hashes apart', () => {
    const inherited = Object.create({ hidden: 1 }) as Record<string, unknown>;
    inherited.own = 2;
    const values: unknown[] = [
      0,
      -0,
      1,
      -1,
      1.5,
      -1.5,
      2 ** 31,
      -(2 ** 31),
      2 ** 32 + 1,
      1e21,
      NaN,
      Infinity,
      null,
      true,
      false,
      '',
      '0',
      '1',
      'a',
      'a"b',
      'a\\b',
      'é\u0000\ud800',
      [],
      {},
      [null],
      [undefined],
      [() => 1],
      [NaN],
      ['ab', 'c'],
      ['a', 'bc'],
      ['a', 'b'],
      { a: 'b' },
      { a: 1 },
      { a: 1, b: undefined },
      { a: 1, f: () => 1 },
      { a: 1, s: Symbol('s') },
      { b: undefined, a: 1 },
      { a: 1, b: 2 },
      { b: 2, a: 1 },
      { 2: 'x', 1: 'y' },
      { 1: 'y', 2: 'x' },
      { a: { toJSON: () => 'x' } },
      { a: 'x' },
      { a: { toJSON: () => undefined } },
      { toJSON: (name: string) => `named ${name}` },
      'named ',
      [{ toJSON: (name: string) => name }],
      ['0'],
      new Date(0),
      new Date(0).toJSON(),
      new Map([[1, 2]]),
      inherited,
      { own: 2 },
      { a: [1, { b: [] }] },
      { a: [1, { b: {} }] },
      { kind: 'message', seq: 3, message: { jsonrpc: '2.0', id: 41, method: 'tools/call' } },
      { kind: 'message', seq: 3, message: { jsonrpc: '2.0', id: '41', method: 'tools/call' } },
      // A name and a string value alike: a name's word is never read as a value, nor a value as a name.
      { kind: 'kind' },
      { kind: { kind: 'a' } },
      { kind: 'a', a: 'kind' },
      { a: 'kind', kind: 'a' },
      ['kind', 'a'],
      { b: 'kind' },
      { kind: 'b' },
    ];
    expectSameClasses(values.map((value) => [value]));
    // Histories: events one after another, however their JSON texts would join.
    expectSameClasses([
      [{ a: 1 }, { b: 2 }],
      [{ a: 1, b: 2 }],
      [{ a: '1' }, { b: 2 }],
      [{ a: 1 }, { b: 2 }],
      [['a'], ['b']],
      [['a', 'b']],
      [],
      [{}],
      [{}, {}],
    ]);
  });

  let sql: Awaited<ReturnType<typeof loadSqlJs>>;
  beforeAll(async () => {
    sql = await loadSqlJs();
  });

  it("tells the lab's own events apart exactly as their JSON does", () => {
    const events: unknown[] = [];
    for (const id of ['A', 'C', 'D', 'ledger-race-keyed', 'task-cancel-ack', 'buffer-overload']) {
      for (const transport of ['stdio', 'http'] as const) {
        const transcript = runScenario(findScenario(id), { transport, ledger: { sql } });
        // Each event, and each without its seq: orderings number their events apart, their contents repeat.
        for (const event of transcript.events) {
          const { seq: _seq, ...rest } = event as { seq: number };
          events.push(event, rest);
        }
      }
    }
    expect(events.length).toBeGreaterThan(500);
    expectSameClasses(events.map((event) => [event]));
  });

  it('adds a number by its digits exactly as it adds the text String writes for it', () => {
    const values = [0, 7, 9, 10, 99, 100, 1005, 123456789, 2 ** 31, 2 ** 53 - 1, 2 ** 53, -1, -0, 1.5, 0.1, 1e21, NaN];
    for (const value of values) {
      const byDigits = new Hash();
      byDigits.add('@');
      byDigits.addDecimal(value);
      const byText = new Hash();
      byText.add(`@${value}`);
      expect(byDigits.digest(), `${value}`).toBe(byText.digest());
    }
  });
});
