/**
 * Budget marks for the benchmark scripts. A benchmark reports and a test asserts: a figure that misses
 * its budget is printed with "over budget" beside it and listed in a closing summary line, and the
 * script still exits 0, since the figures depend on the machine's load.
 */
const missed: string[] = [];

/** '' when the figure is within its budget, else the mark printed beside it (and the figure remembered). */
export function budgetMark(figure: string, withinBudget: boolean): string {
  if (withinBudget) return '';
  missed.push(figure);
  return '  — over budget';
}

/** The closing line of a script: every figure within budget, or which were not. */
export function budgetSummary(script: string): string {
  return missed.length === 0
    ? `${script}: every figure within its budget`
    : `${script}: ${missed.length} figure${missed.length === 1 ? '' : 's'} over budget (${missed.join('; ')}); a benchmark reports, it does not fail: run it again and read the spread`;
}
