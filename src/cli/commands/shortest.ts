import type { ExploreResult, ShortestOrdering } from '../../engine';

/** `--fault F` once per fault of a comma-separated list (none for none): what `run` takes. */
export function faultArgs(faults: string | undefined): string {
  if (faults === undefined || faults === '') return '';
  return faults
    .split(',')
    .map((fault) => ` --fault ${fault}`)
    .join('');
}

/**
 * The explore report's last section: per broken invariant, the shortest ordering that breaks it (and,
 * explored with faults, the smallest set of them that still does), with a line that replays it.
 */
export function shortestLines(
  result: Pick<ExploreResult, 'shortest'>,
  replay: (shortest: ShortestOrdering) => string,
): string[] {
  if (result.shortest.length === 0) return [];
  const lines = ['', 'shortest ordering per broken invariant (fewest events, then earliest break):'];
  for (const shortest of result.shortest) {
    const faults =
      shortest.faults === undefined
        ? ''
        : shortest.faults === ''
          ? ', with no fault (none of the given ones is needed)'
          : `, with ${shortest.faults.split(',').length === 1 ? 'the fault' : 'the faults'} ${shortest.faults} (the smallest set of the given ones that still breaks it)`;
    lines.push(
      `  ${shortest.invariant} at event ${shortest.step} (${shortest.atMs} ms)${faults}: ${shortest.explanation}`,
      `    replay: ${replay(shortest)}`,
    );
  }
  return lines;
}
