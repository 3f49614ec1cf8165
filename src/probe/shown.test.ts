import { describe, expect, it } from 'vitest';
import { jsonForTerminal } from '../cli/safeOutput';
import { jsonRpcProblem } from '../engine';
import { ELIDED_KEY, jsonChars, ShownBudget, SHOWN_TOTAL_CHARS_MAX, SHOWN_VALUE_CHARS_MAX } from './shown';

describe('what the probe writes of a server value', () => {
  it('jsonChars counts the characters of compact terminal-safe JSON, escapes included', () => {
    for (const value of [{ a: [1, 'x\u0085y', null, true, { b: '\u202e' }], c: 'é\n' }, [], {}, 'plain', 12.5])
      expect(jsonChars(value)).toBe(jsonForTerminal(value, 0).length);
  });

  it('a value that fits is written as it is', () => {
    const message = {
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: 'done' }], _meta: { a: [1, 2, 3] } },
    };
    expect(new ShownBudget().show(message)).toEqual(message);
  });

  it('a large message stays a JSON-RPC message of the same shape: scalars kept first, containers cut, each cut said', () => {
    // params (1 MB of `{}` in nested arrays) comes before method and id: they are kept anyway.
    const message = {
      params: { data: [[Array.from({ length: 300_000 }, () => ({}))]], note: 'x'.repeat(500_000) },
      method: 'notifications/message',
      jsonrpc: '2.0',
      id: 'abc',
    };
    const shown = new ShownBudget().show(message);
    expect(jsonRpcProblem(shown)).toBeNull();
    expect(shown).toMatchObject({ method: 'notifications/message', jsonrpc: '2.0', id: 'abc' });
    expect(Object.keys(shown)).toEqual(['params', 'method', 'jsonrpc', 'id']);
    const text = JSON.stringify(shown);
    expect(text.length).toBeLessThanOrEqual(SHOWN_VALUE_CHARS_MAX + 2_000);
    expect(text).toMatch(/… \d+ items elided, \d+ characters of JSON/);
    expect(jsonChars(shown)).toBe(text.length);
    // The long string is a string still, cut with its count.
    const note = (shown.params as { note?: unknown }).note;
    expect(typeof note === 'string' ? note : '').toMatch(/… \d+ characters elided/);
  });

  it('an object whose entries do not fit keeps a marker entry counting them', () => {
    const value = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, { v: 'y'.repeat(40) }]));
    const shown = new ShownBudget().show(value);
    expect(shown[ELIDED_KEY]).toMatch(/^… \d+ entries elided/);
    expect(JSON.stringify(shown).length).toBeLessThanOrEqual(SHOWN_VALUE_CHARS_MAX + 1_000);
  });

  it('all values of one output share a total: past it, each is cut to a few hundred characters', () => {
    const budget = new ShownBudget();
    const big = { jsonrpc: '2.0', method: 'x', params: { s: 'z'.repeat(300_000) } };
    let total = 0;
    for (let i = 0; i < 100; i++) total += JSON.stringify(budget.show(big)).length;
    expect(total).toBeLessThanOrEqual(SHOWN_TOTAL_CHARS_MAX + 100 * 1_000);
    const late = budget.show(big);
    expect(late).toMatchObject({ jsonrpc: '2.0', method: 'x' });
    expect(JSON.stringify(late).length).toBeLessThan(1_000);
  });
});
