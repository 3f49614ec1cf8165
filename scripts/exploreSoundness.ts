/**
 * The partial-order reduction's soundness over the lab's whole matrix: every scenario × transport ×
 * the explorer's jitter presets (the scenario's own latency range, and the page's "Explore with 20 ms
 * of jitter"), explored with the reduction on and off. Prints per row the states of both, and SAME when
 * the distinct endings and the broken invariants are identical. A row either side of which the bound cut
 * is not compared (two partial explorations see different parts of the tree) and is listed as such.
 *
 *   npx tsx scripts/exploreSoundness.ts [--bound N] [--only id,id] [--reducible kind,kind] [--all] [--merge]
 *
 * `--merge` compares merged states instead (`mergeStates` on and off, the reduction on both sides) for
 * the scenarios whose model describes its state (`Sim.exploreState`: the buffer and the tasks): the
 * same endings and broken invariants whether a state is told apart by that description or by its history.
 *
 * `--reducible` tries the reduction on models not (yet) in REDUCIBLE_MODELS: what to run before adding one.
 * A scenario whose model the reduction does not apply to explores the same with it on and off (the
 * flag changes nothing there), so its rows are listed as skipped unless `--all` runs them too.
 *
 * Exits 1 if any compared row differs. The unit test (src/engine/explore/reduction.test.ts) runs a
 * representative part of this matrix; this script runs all of it (minutes to hours: the slow rows are
 * the task and ledger scenarios on real sql.js).
 */
import { parseArgs } from 'node:util';
import { loadSqlJs } from '../src/cli/sqlite';
import {
  explore,
  EXPLORE_JITTER_PRESETS_MS,
  LabError,
  REDUCIBLE_MODELS,
  reductionSignature,
  settingsSpecFor,
  type ExploreResult,
  type ModelKind,
} from '../src/engine';
import { scenarios } from '../src/scenarios/index';

const { values } = parseArgs({
  options: {
    bound: { type: 'string' },
    only: { type: 'string' },
    reducible: { type: 'string' },
    all: { type: 'boolean', default: false },
    merge: { type: 'boolean', default: false },
  },
});
/** The models that describe their state for merging (`Sim.exploreState`): what `--merge` compares. */
const MERGING: ReadonlySet<ModelKind> = new Set<ModelKind>(['buffer', 'task']);
const bound = values.bound === undefined ? 50_000 : Number(values.bound);
const only = values.only === undefined ? null : new Set(values.only.split(','));
const reducible =
  values.reducible === undefined
    ? REDUCIBLE_MODELS
    : new Set([...REDUCIBLE_MODELS, ...(values.reducible.split(',') as ModelKind[])]);
console.log(
  values.merge
    ? `merged states on and off for: ${[...MERGING].join(', ')}; bound ${bound}`
    : `reduction on for: ${[...reducible].join(', ') || 'no model'}; bound ${bound}`,
);
const sql = await loadSqlJs();
let compared = 0;
let differ = 0;
const cut: string[] = [];
const skipped: string[] = [];
for (const scenario of scenarios) {
  if (only !== null && !only.has(scenario.id)) continue;
  if (!values.all && !(values.merge ? MERGING : reducible).has(scenario.kind)) {
    skipped.push(scenario.id);
    continue;
  }
  const jitters: (number | null)[] = [
    null,
    ...(Object.hasOwn(settingsSpecFor(scenario), 'latencyJitterMs') ? EXPLORE_JITTER_PRESETS_MS : []),
  ];
  for (const transport of ['stdio', 'http'] as const) {
    for (const jitter of jitters) {
      const settings = jitter === null ? {} : { latencyJitterMs: jitter };
      const name = `${scenario.id} ${transport} ${jitter === null ? 'defaults' : `latencyJitterMs=${jitter}`}`;
      const started = performance.now();
      let on: ExploreResult;
      let off: ExploreResult;
      try {
        if (values.merge) {
          on = explore(scenario, { transport, settings, bound, ledger: { sql } });
          off = explore(scenario, { transport, settings, bound, ledger: { sql }, mergeStates: false });
        } else {
          on = explore(scenario, { transport, settings, bound, ledger: { sql }, reducible });
          off = explore(scenario, { transport, settings, bound, ledger: { sql }, reduction: false });
        }
      } catch (error) {
        console.log(`  ${name.padEnd(52)} refused: ${error instanceof LabError ? error.code : String(error)}`);
        continue;
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const counts = `${String(on.states).padStart(7)} / ${String(off.states).padStart(7)} states (${(on.states / off.states).toFixed(2)})`;
      if (!on.complete || !off.complete) {
        cut.push(name);
        console.log(
          `  ${name.padEnd(52)} ${counts}  cut by the bound (${on.complete ? 'off' : off.complete ? 'on' : 'both'}), not compared  ${seconds} s`,
        );
        continue;
      }
      compared += 1;
      const same = reductionSignature(on) === reductionSignature(off);
      if (!same) differ += 1;
      console.log(
        `  ${name.padEnd(52)} ${counts}  ${same ? 'SAME' : `DIFFERENT\n    on:  ${reductionSignature(on)}\n    off: ${reductionSignature(off)}`}  ${seconds} s`,
      );
    }
  }
}
console.log(
  `${compared} rows compared, ${differ} different; ${cut.length} cut by the bound ${bound}: ${cut.join('; ') || 'none'}`,
);
if (skipped.length > 0)
  console.log(
    `skipped (${values.merge ? 'their model does not describe its state' : 'the reduction does not apply to their model'}; --all runs them): ${skipped.join(', ')}`,
  );
process.exitCode = differ === 0 ? 0 : 1;
