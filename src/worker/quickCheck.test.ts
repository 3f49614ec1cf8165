// Proves the fast predicate of the workers' messages (quickCheck.ts) answers as valibot does: on the
// engine's real answers (a transcript with its layout, a long run's parts, the scenario list) and on
// every one-field change of them (a field removed, or given a value of another type, out of range,
// not finite, not an integer…), it says yes exactly when valibot accepts. A yes valibot would not give
// would let a malformed message through; a no valibot would not give would only cost time, and is
// checked too.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { usesSqlite, wordEvents } from '../engine';
import { layoutDiagram } from '../diagram/geometry/layout';
import { scenarios } from '../scenarios/index';
import { runScenarioById } from '../scenarios/index';
import { scenarioInfo } from './host';
import { inParts, transcriptAhead } from './runParts';
import { passes } from './quickCheck';
import { LabRequestSchema, LabResponseSchema, RunPartSchema } from './schemas';
import { check } from './schemas';

const BAD_VALUES: unknown[] = [undefined, null, NaN, -1, 1.5, 2 ** 60, Infinity, '', 'x', true, [], {}, [1], { a: 1 }];

/** Every path to a value inside `value` (object keys and array indexes), up to `limit` of them, spread over the whole. */
function pathsOf(value: unknown, limit: number): Array<Array<string | number>> {
  const all: Array<Array<string | number>> = [];
  const walk = (node: unknown, path: Array<string | number>) => {
    if (path.length > 0) all.push(path);
    if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return;
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i]));
    else for (const [key, item] of Object.entries(node)) walk(item, [...path, key]);
  };
  walk(value, []);
  const every = Math.max(1, Math.ceil(all.length / limit));
  return all.filter((_, i) => i % every === 0);
}

/** `value` with the field at `path` removed (`remove`) or set to `to`. */
function changed(value: unknown, path: Array<string | number>, to: unknown, remove = false): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove && !Array.isArray(node)) delete node[last];
  else node[last] = to;
  return copy;
}

function agrees(schema: v.GenericSchema, value: unknown): void {
  const valibot = v.safeParse(schema, value, { abortEarly: true }).success;
  expect(passes(schema)(value)).toBe(valibot);
}

function sample(id: string) {
  const transcript = runScenarioById(id);
  const wording = wordEvents(transcript.events);
  const layout = layoutDiagram(transcript, wording);
  return { transcript, wording, layout };
}

describe('the fast check of workers’ messages', () => {
  it('accepts every real answer valibot accepts', () => {
    for (const scenario of scenarios.filter((each) => !usesSqlite(each))) {
      const { transcript, wording, layout } = sample(scenario.id);
      const answer = { type: 'transcript', requestId: 1, transcript, facts: null, wording, layout } as const;
      agrees(LabResponseSchema, answer);
      expect(passes(LabResponseSchema)(answer)).toBe(true);
      for (const part of transcriptAhead(1, transcript, wording, 20) ?? []) agrees(LabResponseSchema, part);
      for (const part of inParts(answer, 20)) agrees(LabResponseSchema, part);
    }
    agrees(LabResponseSchema, { type: 'scenarios', requestId: 1, scenarios: scenarioInfo() });
  });

  it('says yes exactly when valibot does on every one-field change of a transcript, a part and a request', () => {
    const { transcript, wording, layout } = sample('C');
    const answer = { type: 'transcript', requestId: 1, transcript, facts: null, wording, layout };
    const [part] = inParts({ ...answer, type: 'transcript' } as const, 20);
    const [ahead] = transcriptAhead(2, transcript, wording, 20) ?? [];
    const cases: Array<[v.GenericSchema, unknown, number]> = [
      [LabResponseSchema, answer, 250],
      [RunPartSchema, part, 150],
      [LabResponseSchema, ahead, 150],
      [LabRequestSchema, { type: 'run', requestId: 3, scenario: 'C', scale: 'linear', seed: 7 }, 50],
    ];
    let refused = 0;
    for (const [schema, value, limit] of cases) {
      agrees(schema, value);
      for (const path of pathsOf(value, limit)) {
        const removed = changed(value, path, undefined, true);
        agrees(schema, removed);
        for (const bad of BAD_VALUES) {
          const other = changed(value, path, bad);
          agrees(schema, other);
          if (!v.safeParse(schema, other).success) refused += 1;
        }
      }
    }
    // The changes reach the schemas' refusals, not only values they accept.
    expect(refused).toBeGreaterThan(1000);
  });

  it('leaves the words of a refusal to valibot', () => {
    const { transcript, wording } = sample('A');
    const [part] = transcriptAhead(1, transcript, wording, 5) ?? [];
    const bad = changed(part, ['events', 2, 'atMs'], 'soon');
    const result = check(LabResponseSchema, bad);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.problem).toContain('events.2.atMs');
  });
});
