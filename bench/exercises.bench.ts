/**
 * `npm run bench:exercises`: how long a Check takes, for every exercise, on the command line's path
 * (QuickJS sandbox, the explorer over the exercise's runs). For each exercise: the median of 5 checks of
 * the starter and of the reference solution, beside the same runs explored with the lab's own part
 * (no component) in the same process: the ratio is what the sandbox, the adapter and the unmerged
 * states cost. The goal is under 5 s for every exercise on a two-core machine. A script, not a test.
 */
import { readFileSync } from 'node:fs';
import { loadSqlJs } from '../src/cli/sqlite';
import { Exploration } from '../src/engine';
import { grade } from '../src/exercise/grade';
import { EXERCISES } from '../src/exercise/registry';
import { loadQuickJs, sandboxSource } from '../src/exercise/sandbox';
import { findScenario } from '../src/scenarios/index';

const REPEATS = 5;
const GOAL_MS = 5_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const qjs = await loadQuickJs();
const ledger = { sql: await loadSqlJs() };
console.log(
  `bench: exercise checks, median of ${REPEATS}, node ${process.version}; goal under ${GOAL_MS / 1000} s each`,
);
console.log(
  `${'exercise'.padEnd(18)} ${'lab model'.padStart(10)} ${'starter'.padStart(10)} ${'reference'.padStart(10)} ${'ratio'.padStart(7)} ${'orderings'.padStart(10)}  goal`,
);
let over = 0;
for (const def of EXERCISES) {
  const model: number[] = [];
  const starter: number[] = [];
  const reference: number[] = [];
  let orderings = 0;
  const code = readFileSync(new URL(`../src/exercise/solutions/${def.id}.js`, import.meta.url), 'utf8');
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    let started = performance.now();
    for (const run of def.runs) {
      const exploration = new Exploration(findScenario(run.scenario), {
        transport: run.transport,
        settings: run.settings,
        ledger,
        bound: 20_000,
      });
      while (!exploration.advance(500)) {
        // to the end
      }
    }
    model.push(performance.now() - started);
    for (const [code_, into] of [
      [def.starter, starter],
      [code, reference],
    ] as const) {
      started = performance.now();
      const source = sandboxSource(qjs, code_, def.exports);
      try {
        const report = grade(def, source, { ledger });
        if (into === reference) orderings = report.orderings;
      } finally {
        source.close();
      }
      into.push(performance.now() - started);
    }
  }
  const worst = Math.max(median(starter), median(reference));
  if (worst > GOAL_MS) over += 1;
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(10);
  console.log(
    `${def.id.padEnd(18)} ${s(median(model))} ${s(median(starter))} ${s(median(reference))} ${`${(median(reference) / Math.max(1, median(model))).toFixed(1)}×`.padStart(7)} ${String(orderings).padStart(10)}  ${worst <= GOAL_MS ? 'ok' : 'OVER'}`,
  );
}
console.log(over === 0 ? 'every exercise checks under the goal' : `${over} exercise(s) over the goal`);
