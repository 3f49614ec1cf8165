import { formatFaults, type MessageFault } from './core/faults';
import { explore, type ExploreOptions, type ExploreResult } from './explorer';
import type { Scenario } from './scenario';
import type { ShortestOrdering } from './shrink';

/**
 * Delta debugging (Zeller's ddmin): a smallest subset of `items` for which `fails` holds, given that it
 * holds for all of them. 1-minimal: leaving out any one item of the answer makes `fails` false. The
 * empty set is tried first (a failure that needs none of them). Deterministic: chunks in list order.
 */
export function ddmin<T>(items: readonly T[], fails: (subset: readonly T[]) => boolean): T[] {
  if (fails([])) return [];
  let kept = [...items];
  let parts = 2;
  while (kept.length >= 2) {
    const size = Math.ceil(kept.length / parts);
    const chunks: T[][] = [];
    for (let start = 0; start < kept.length; start += size) chunks.push(kept.slice(start, start + size));
    const chunk = chunks.find((candidate) => fails(candidate));
    if (chunk !== undefined) {
      kept = chunk;
      parts = 2;
      continue;
    }
    const rest =
      chunks.length > 2
        ? chunks.map((_, index) => chunks.filter((__, other) => other !== index).flat()).find((c) => fails(c))
        : undefined;
    if (rest !== undefined) {
      kept = rest;
      parts = Math.max(parts - 1, 2);
      continue;
    }
    if (parts >= kept.length) break;
    parts = Math.min(parts * 2, kept.length);
  }
  return kept;
}

/**
 * With faults (`lab explore --fault`): per broken invariant of `explored` (the exploration with every
 * fault), the smallest set of the faults that still breaks it in some ordering (ddmin, each subset
 * explored in full with the same options), and the shortest ordering that breaks it with that set.
 * Each subset is explored once, whichever invariant asks.
 */
export function smallestFaultSets(
  scenario: Scenario,
  options: ExploreOptions & { readonly faults: readonly MessageFault[] },
  explored: ExploreResult,
): ShortestOrdering[] {
  const { faults } = options;
  const explorations = new Map<string, ExploreResult>([[formatFaults(faults), explored]]);
  const exploreWith = (subset: readonly MessageFault[]): ExploreResult => {
    const key = formatFaults(subset);
    let result = explorations.get(key);
    if (result === undefined) {
      result = explore(scenario, { ...options, faults: subset });
      explorations.set(key, result);
    }
    return result;
  };
  return explored.shortest.map((broken) => {
    const breaks = (subset: readonly MessageFault[]) =>
      exploreWith(subset).shortest.some((entry) => entry.invariant === broken.invariant);
    const smallest = ddmin(faults, breaks);
    const found = exploreWith(smallest).shortest.find((entry) => entry.invariant === broken.invariant) ?? broken;
    return { ...found, faults: formatFaults(smallest) };
  });
}
