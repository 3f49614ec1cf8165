// Proves the page's Compare compares each pair of runs once: three runs take three pairwise comparisons
// (A–B, A–C, B–C), A–B's result being both the comparison shown and the first of the pairs, and the
// answer is the same, byte for byte, as comparing A with B and then every pair afresh.
import { describe, expect, it } from 'vitest';
import initSqlJs from 'sql.js';
import { compareMany, compareRuns, type CompareOptions, type RunComparison, type Transcript } from '../engine';
import { runScenarioById } from '../scenarios/index';
import { answerToolRequest, comparisonOf } from './toolsHost';

const RUNS = ['C', 'C:seed=2,latencyJitterMs=20', 'A:transport=http'] as const;

function transcripts(): Transcript[] {
  return [
    runScenarioById('C'),
    runScenarioById('C', { seed: 2, settings: { latencyJitterMs: 20 } }),
    runScenarioById('A', { transport: 'http' }),
  ];
}

/** compareRuns, with every call and its answer recorded. */
function counting() {
  const calls: Array<{ a: Transcript; b: Transcript; result: RunComparison }> = [];
  const comparePair = (a: Transcript, b: Transcript, options: CompareOptions) => {
    const result = compareRuns(a, b, options);
    calls.push({ a, b, result });
    return result;
  };
  return { calls, comparePair };
}

describe('Compare compares each pair once', () => {
  it('three runs: three comparisons, and the A–B one is the answer’s comparison', () => {
    const runs = transcripts();
    const { calls, comparePair } = counting();
    const answer = comparisonOf(7, RUNS, runs, () => undefined, comparePair);
    expect(calls.map(({ a, b }) => [runs.indexOf(a), runs.indexOf(b)])).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    expect(answer.comparison).toBe(calls[0]?.result);
    expect(answer.many?.pairs[0]).toMatchObject({
      a: 0,
      b: 1,
      divergence: calls[0]?.result.divergence,
      note: calls[0]?.result.note,
    });
  });

  it('two runs: one comparison and no pairs', () => {
    const runs = transcripts().slice(0, 2);
    const { calls, comparePair } = counting();
    const answer = comparisonOf(8, [RUNS[0], RUNS[1]], runs, () => undefined, comparePair);
    expect(calls).toHaveLength(1);
    expect(answer.comparison).toBe(calls[0]?.result);
    expect(answer.many).toBeUndefined();
  });

  it('the worker’s answer to three runs is byte for byte A compared with B, and every pair compared afresh', async () => {
    const answer = await answerToolRequest({ type: 'compare', requestId: 9, runs: [...RUNS] }, () => initSqlJs());
    if (answer.type !== 'comparison') throw new Error(`unexpected answer ${answer.type}`);
    const runs = transcripts();
    expect(answer.runs.map((run) => run.transcript)).toEqual(runs);
    const [a, b] = runs as [Transcript, Transcript];
    expect(JSON.stringify(answer.comparison)).toBe(JSON.stringify(compareRuns(a, b)));
    expect(JSON.stringify(answer.many)).toBe(JSON.stringify(compareMany(runs)));
  });
});
