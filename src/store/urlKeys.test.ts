// Proves a link's setting names are read as plain names: `constructor`, `toString`, `hasOwnProperty` and
// `__proto__` reach the worker, which refuses them as unknown settings (LAB004) so the page shows a notice.
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../engine';
import { resolveView } from '../worker/host';
import { readLink } from './url';

const NAMES = ['constructor', 'toString', 'hasOwnProperty', '__proto__'];

describe('prototype names in a link', () => {
  it('readLink keeps them as parameters', () => {
    const link = readLink(`?scenario=A&${NAMES.map((name) => `${name}=1`).join('&')}`);
    expect(Object.keys(link?.params ?? {}).sort()).toEqual(['scenario', ...NAMES].sort());
  });

  it('resolveView refuses each with LAB004 and keeps the defaults', () => {
    const params: Record<string, string> = Object.create(null) as Record<string, string>;
    params.scenario = 'A';
    for (const name of NAMES) params[name] = '1';
    const view = resolveView(params);
    expect(view.problems.map((p) => [p.param, p.code])).toEqual(NAMES.map((name) => [name, 'LAB004']));
    expect(view.settings).toEqual({});
  });

  it('resolveSettings refuses them as unknown', () => {
    for (const name of NAMES) {
      expect(() => resolveSettings({}, {}, JSON.parse(`{"${name}": 1}`))).toThrow(/LAB004/);
    }
  });
});
