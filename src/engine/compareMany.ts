import { assert } from './core/assert';
import { compareRuns, runFacts, type CompareOptions, type Divergence, type RunComparison } from './compare';
import type { Transcript } from './transcript';

/** At most this many runs side by side: the model, SDK 1.x and v2 (docs/architecture.md#a-limit-on-everything). */
export const COMPARED_RUNS_MAX = 3;

/** One fact of every run, marked when any two of them differ. */
export interface ManyFactRow {
  readonly name: string;
  /** The fact in each run, in the order the runs were given ('—' where a run does not establish it). */
  readonly values: string[];
  readonly differs: boolean;
}

/** Where two of the runs part, as the pairwise comparison finds it (indices into the runs given). */
export interface PairDivergence {
  readonly a: number;
  readonly b: number;
  readonly divergence: Divergence | null;
  readonly note: string;
}

export interface ManyComparison {
  readonly facts: ManyFactRow[];
  /** Every pair in order (0–1, 0–2, 1–2 for three runs). */
  readonly pairs: PairDivergence[];
}

/** How one pair is compared: compareRuns, or (in a test) a wrapper that counts its calls. */
export type ComparePair = (a: Transcript, b: Transcript, options: CompareOptions) => RunComparison;

export interface CompareManyOptions extends CompareOptions {
  readonly comparePair?: ComparePair;
}

/** compareMany's answer with the first pair's whole comparison (facts included), for a caller that shows A against B as well. */
export interface ManyWithFirst {
  /** Runs A and B compared: the very result pair 0–1 of `many` was built from. */
  readonly first: RunComparison;
  readonly many: ManyComparison;
}

/**
 * Two or three runs side by side, built on the pairwise comparison: the facts of all of them in one
 * table, and for every pair the first instant at which they part (compareRuns' own answer).
 */
export function compareMany(transcripts: readonly Transcript[], options: CompareManyOptions = {}): ManyComparison {
  return compareManyWithFirst(transcripts, options).many;
}

/**
 * compareMany, keeping the comparison of the first two runs whole: each pair is compared once, so a
 * caller that shows A against B beside the pairs (the page's three-run Compare) does not compare them again.
 */
export function compareManyWithFirst(
  transcripts: readonly Transcript[],
  options: CompareManyOptions = {},
): ManyWithFirst {
  assert(
    transcripts.length >= 2 && transcripts.length <= COMPARED_RUNS_MAX,
    `compare takes 2 to ${COMPARED_RUNS_MAX} runs`,
  );
  const { comparePair = compareRuns, ...compareOptions } = options;
  const factMaps = transcripts.map((t) => new Map(runFacts(t)));
  const names: string[] = [];
  for (const facts of factMaps) for (const name of facts.keys()) if (!names.includes(name)) names.push(name);
  const facts = names.map((name) => {
    const values = factMaps.map((m) => m.get(name) ?? '—');
    return { name, values, differs: new Set(values).size > 1 };
  });
  const pairs: PairDivergence[] = [];
  let first: RunComparison | null = null;
  for (let a = 0; a < transcripts.length; a += 1) {
    for (let b = a + 1; b < transcripts.length; b += 1) {
      const comparison = comparePair(transcripts[a] as Transcript, transcripts[b] as Transcript, compareOptions);
      if (first === null) first = comparison;
      pairs.push({ a, b, divergence: comparison.divergence, note: comparison.note });
    }
  }
  assert(pairs.length === (transcripts.length * (transcripts.length - 1)) / 2, 'every pair is compared once');
  assert(first !== null, 'the first pair is compared');
  return { first, many: { facts, pairs } };
}
