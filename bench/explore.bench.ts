/**
 * `npm run bench`: the race explorer's speed — orderings/s and states/s — exploring A–D on
 * both transports at their default latency range and with 150 ms of jitter, the keyed ledger race
 * on real sql.js, and the buffer at its defaults (merged states). Every exploration is measured with
 * the partial-order reduction on and off in the same run, side by side. Reports whether exhaustive
 * exploration of each of A–D at its default range stays under 1 s, and the explorer's four figures
 * against their goals ("over budget" where one is missed):
 *   states/s, A–D at 150 ms jitter            ≥ 50,000
 *   states/s, ledger-race-keyed               ≥ 5,000
 *   explore task-cancel-ack latencyJitterMs=20, wall  < 10 s (stopped at 120 s: the partial rate is printed)
 *   states with reduction ÷ without, A–D at 300 ms jitter  ≤ 0.2, endings and broken invariants identical
 * A–D at 150 ms are measured in `PROCESSES` fresh processes per side (each runs one side only) and each
 * case's figure is the median of theirs, printed with their spread: V8 settles a process into one of two ways of collecting garbage
 * (the same exploration promoted either about 58 MB or 100–118 MB, with every seed fixed), and one
 * process's figure for a case swung up to 2.5 times from one run of the bench to the next.
 * A script, not a test: the numbers depend on the machine.
 */
import { spawnSync } from 'node:child_process';
import { loadSqlJs } from '../src/cli/sqlite';
import { Exploration, reductionSignature, type ExploreResult, type RunsByChoice } from '../src/engine';
import { findScenario } from '../src/scenarios/index';
import { budgetMark, budgetSummary } from './budget';

/**
 * Measured rounds of each side at least, and more until each side's measured explorations add up to
 * `MEASURE_MS`: measured over 300 ms, A–D at 150 ms read 45,800–53,200 states/s where, in the next
 * run of the bench, over 1 s they read 53,100–63,000 (a collection of old objects fell inside a short
 * window or not).
 */
const REPEATS = 3;
const MEASURE_MS = 1_000;
/** Fresh processes measuring A–D at 150 ms, each case's figure their median. */
const PROCESSES = 5;
/**
 * The flag a child process is started with (`--races-at-150=on` or `=off`): it measures A–D at 150 ms
 * with the reduction on, or off, only, and prints one JSON line per case.
 */
const CHILD_FLAG = '--races-at-150';
const childArg = process.argv.find((arg) => arg.startsWith(`${CHILD_FLAG}=`));
const child = childArg !== undefined;
/** Warm-up before the measured repeats: at least this many explorations, and more until this long has passed. */
const WARM_RUNS_MIN = 2;
const WARM_RUNS_MAX = 200;
const WARM_MS = 1_500;
const STATES_PER_S_RACES = 50_000;
const STATES_PER_S_LEDGER = 5_000;
const TASK_WALL_MS = 10_000;
const TASK_STOP_MS = 120_000;
const RATIO_MAX = 0.2;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const sql = await loadSqlJs();
if (!child)
  console.log(
    `bench: explorer (every ordering, invariants after every event), reduction on | off measured in turns: the mean of at least ${REPEATS} explorations each, more until ${MEASURE_MS} ms each, after warm-up (at least ${WARM_RUNS_MIN} unmeasured each, more until ${WARM_MS} ms; "first": the first, cold); A–D at 150 ms: one side per process, the median of ${PROCESSES} fresh processes per side; node ${process.version}`,
  );

interface Case {
  readonly id: string;
  readonly transport: 'stdio' | 'http';
  readonly settings: Record<string, unknown>;
  /** One of the "under 1 s" targets: A–D at their default latency range. */
  readonly target: boolean;
  /** Its states/s goal, if it has one. */
  readonly goal?: number;
}

interface Measured {
  readonly result: ExploreResult;
  readonly ms: number;
  /** The first of its explorations, unmeasured: the compiler's warm-up included. */
  readonly firstMs: number;
  /** What the runs tried at their last choice, and how many were pruned (the last repeat's). */
  readonly runs: RunsByChoice;
}

/** `explore`, keeping the exploration's count of runs by choice. */
function exploreCounting(c: Case, reduction: boolean): { result: ExploreResult; runs: RunsByChoice } {
  const exploration = new Exploration(findScenario(c.id), {
    transport: c.transport,
    settings: c.settings,
    ledger: { sql },
    reduction,
  });
  while (!exploration.advance(10_000)) {
    // each slice runs up to 10,000 runs, as `explore` does
  }
  return { result: exploration.result(), runs: exploration.runsByChoice() };
}

/**
 * One case with each of `sides` (the reduction on, off), measured in turns: warm-up explorations of
 * every side alternated (at least `WARM_RUNS_MIN` each, more until `WARM_MS`), then rounds of one
 * measured exploration of each side, the side that goes first swapped every round: at least `REPEATS`,
 * more until each side's measured time adds up to `MEASURE_MS`. Each side's time is its mean exploration
 * (its rounds' total ÷ their number), so a collection of garbage falling in one round counts as much as
 * it costs, no more: A–D at 150 ms explore in 10–40 ms, about one collection's length. Measured one side
 * after the other, the side measured first read up to 1.8 times slower on A–D's small explorations than
 * the other: what was timed was how warm the process was, not the reduction. One side alone is what a
 * child process measures (`racesAt150`).
 */
function measureInTurns(c: Case, sides: readonly boolean[]): Measured[] {
  const times = sides.map(() => [] as number[]);
  const first = sides.map(() => 0);
  const last: ({ result: ExploreResult; runs: RunsByChoice } | undefined)[] = sides.map(() => undefined);
  const timed = (at: number, record: boolean): number => {
    const started = performance.now();
    const done = exploreCounting(c, sides[at] as boolean);
    const ms = performance.now() - started;
    if (record) {
      times[at]?.push(ms);
      last[at] = done;
    }
    return ms;
  };
  const order = sides.map((_, at) => at);
  // Unmeasured runs first, until the compilers have settled: a small exploration (A at 150 ms) ran 207,
  // 161, 128, 154, 160, 68, 54, 53 ms in a fresh process, and sql.js's WebAssembly is still compiled in
  // the background after the first ledger runs. What the first exploration of each side costs (the
  // first, cold, of the process for the side measured first) is printed beside, as `first`.
  const warmStarted = performance.now();
  for (const at of order) first[at] = timed(at, false);
  for (
    let warm = 1;
    warm < WARM_RUNS_MAX && (warm < WARM_RUNS_MIN || performance.now() - warmStarted < WARM_MS);
    warm += 1
  )
    for (const at of order) timed(at, false);
  const total = (values: readonly number[]): number => values.reduce((sum, ms) => sum + ms, 0);
  for (
    let repeat = 0;
    repeat < WARM_RUNS_MAX && (repeat < REPEATS || Math.min(...times.map(total)) < MEASURE_MS);
    repeat += 1
  )
    for (const at of repeat % 2 === 0 ? order : [...order].reverse()) timed(at, true);
  return sides.map((_, at) => {
    const done = last[at] as { result: ExploreResult; runs: RunsByChoice };
    const measured = times[at] as number[];
    return {
      result: done.result,
      runs: done.runs,
      ms: total(measured) / measured.length,
      firstMs: first[at] as number,
    };
  });
}

/** A case with the reduction on and off, in turns (`measureInTurns`). */
function measurePair(c: Case): { on: Measured; off: Measured } {
  const [on, off] = measureInTurns(c, [true, false]) as [Measured, Measured];
  return { on, off };
}

/**
 * States with the reduction ÷ without, the endings compared, and what the runs were: the first, those
 * trying another arrival instant (never pruned), those trying another same-instant order, and pruned.
 */
function reductionRatio(on: Measured, off: Measured): { ratio: number; same: boolean; text: string } {
  const ratio = on.result.states / off.result.states;
  const same = reductionSignature(on.result) === reductionSignature(off.result);
  const r = off.runs;
  return {
    ratio,
    same,
    text: `ratio ${ratio.toFixed(2)} (goal ≤ ${RATIO_MAX}), endings ${same ? 'identical' : 'DIFFERENT'}; off: ${r.arrival} runs try another arrival instant, ${r.sameInstant} another same-instant order; on: ${on.runs.pruned} pruned`,
  };
}

const rate = (count: number, ms: number): number => Math.round(count / (ms / 1000));
// States (what the figures count) and the runs made for them: a run goes on past the new states it meets.
const figure = (m: Measured): string =>
  `${String(m.result.states).padStart(6)} states (${String(m.runs.made).padStart(5)} runs) ${m.ms.toFixed(1).padStart(8)} ms ${rate(m.result.states, m.ms).toLocaleString('en-US').padStart(8)} states/s${m.result.complete ? '' : ' (cut)'} (first ${m.firstMs.toFixed(0)} ms)`;

const cases: Case[] = [];
/** A–D at 150 ms: measured in child processes (`racesAt150`). */
const races: Case[] = [];
for (const id of ['A', 'B', 'C', 'D']) {
  for (const transport of ['stdio', 'http'] as const) {
    cases.push({ id, transport, settings: {}, target: true });
    races.push({ id, transport, settings: { latencyJitterMs: 150 }, target: false, goal: STATES_PER_S_RACES });
  }
}
const caseName = (c: Case): string =>
  `${c.id} ${c.transport} ${
    Object.entries(c.settings)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ') || 'defaults'
  }`;

/** What a child process prints per case of A–D at 150 ms, one JSON line each. */
interface RaceLine {
  readonly name: string;
  /** States/s, and the case's figure as an in-process line prints it (states, runs, time, first). */
  readonly rate: number;
  readonly figure: string;
  readonly states: number;
  /** The endings and broken invariants (`reductionSignature`), compared between the two sides. */
  readonly signature: string;
  readonly runs: RunsByChoice;
}

if (child) {
  const reduction = childArg === `${CHILD_FLAG}=on`;
  for (const c of races) {
    const [measured] = measureInTurns(c, [reduction]) as [Measured];
    const line: RaceLine = {
      name: caseName(c),
      rate: rate(measured.result.states, measured.ms),
      figure: figure(measured),
      states: measured.result.states,
      signature: reductionSignature(measured.result),
      runs: measured.runs,
    };
    console.log(JSON.stringify(line));
  }
  process.exit(0);
}

/**
 * A–D at 150 ms in `PROCESSES` fresh processes with the reduction on and as many with it off, in turns
 * (each this script with `CHILD_FLAG`, under the same runtime and flags: tsx or the bundle). Each process
 * runs one side only, as the page's explorer runs the reduction on only: measured in one process, the
 * two sides' explorations alternated, A–D read 40,200–49,700 states/s where, in the next run of the
 * bench, one side per process read 45,800–53,200. Per case, every process's line of each side.
 */
function racesAt150(): { on: RaceLine[]; off: RaceLine[] }[] {
  const byCase = races.map(() => ({ on: [] as RaceLine[], off: [] as RaceLine[] }));
  for (let index = 0; index < 2 * PROCESSES; index += 1) {
    const side = index % 2 === 0 ? 'on' : 'off';
    const run = spawnSync(process.execPath, [...process.execArgv, process.argv[1] as string, `${CHILD_FLAG}=${side}`], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) throw new Error(`the process measuring A–D at 150 ms failed (${run.status}): ${run.stderr}`);
    const lines = run.stdout
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as RaceLine);
    lines.forEach((line, at) => byCase[at]?.[side].push(line));
    console.log(
      `  A–D at 150 ms, reduction ${side}, process ${Math.floor(index / 2) + 1} of ${PROCESSES}: ${span(lines.map((line) => line.rate))} states/s`,
    );
  }
  return byCase;
}
cases.push({ id: 'ledger-race-keyed', transport: 'http', settings: {}, target: false, goal: STATES_PER_S_LEDGER });
cases.push({ id: 'ledger-race-keyed', transport: 'http', settings: { latencyJitterMs: 3 }, target: false });
// The buffer at its defaults: complete since orderings that reach one model state are merged.
cases.push({ id: 'buffer-overload', transport: 'http', settings: {}, target: false });

/** The four figures, gathered as the lines below print them, for the summary at the end. */
const racesOn: number[] = [];
const racesOff: number[] = [];
const ledgerRates: { on: number; off: number }[] = [];
const ratios: { ratio: number; same: boolean }[] = [];
const overBudget = (within: boolean): string => (within ? '' : '  — over budget');
const span = (values: readonly number[]): string =>
  `${Math.min(...values).toLocaleString('en-US')}–${Math.max(...values).toLocaleString('en-US')}`;

for (const { on: onLines, off: offLines } of racesAt150()) {
  const on = median(onLines.map((line) => line.rate));
  const off = median(offLines.map((line) => line.rate));
  racesOn.push(on);
  racesOff.push(off);
  const middle = (lines: RaceLine[], value: number): RaceLine => lines.find((line) => line.rate === value) as RaceLine;
  const onMiddle = middle(onLines, on);
  const offMiddle = middle(offLines, off);
  const same = new Set([...onLines, ...offLines].map((line) => line.signature)).size === 1;
  const r = offMiddle.runs;
  console.log(
    `  ${onMiddle.name.padEnd(40)} median of ${onLines.length} processes ${on.toLocaleString('en-US')} states/s (${span(onLines.map((line) => line.rate))}) | off ${off.toLocaleString('en-US')} (${span(offLines.map((line) => line.rate))})  goal ≥ ${STATES_PER_S_RACES.toLocaleString('en-US')} states/s${budgetMark(`states/s ${onMiddle.name}`, on >= STATES_PER_S_RACES)}\n    the median processes: ${onMiddle.figure} | off ${offMiddle.figure}\n    ratio ${(onMiddle.states / offMiddle.states).toFixed(2)} (goal ≤ ${RATIO_MAX}), endings ${same ? 'identical' : 'DIFFERENT'}; off: ${r.arrival} runs try another arrival instant, ${r.sameInstant} another same-instant order; on: ${onMiddle.runs.pruned} pruned`,
  );
}

let allUnder = true;
for (const c of cases) {
  const { on, off } = measurePair(c);
  if (c.goal === STATES_PER_S_LEDGER)
    ledgerRates.push({ on: rate(on.result.states, on.ms), off: rate(off.result.states, off.ms) });
  const under = on.ms < 1000;
  if (c.target && !(under && on.result.complete)) allUnder = false;
  const name = caseName(c);
  const goal =
    c.goal === undefined
      ? ''
      : `  goal ≥ ${c.goal.toLocaleString('en-US')} states/s${budgetMark(`states/s ${name}`, rate(on.result.states, on.ms) >= c.goal)}`;
  console.log(
    `  ${name.padEnd(40)} ${figure(on)} | off ${figure(off)}${c.target ? (under ? '  < 1 s' : `  OVER 1 s${budgetMark(`explore ${c.id} ${c.transport}`, false)}`) : ''}${goal}`,
  );
}
console.log(
  `  exhaustive exploration of each of A–D (both transports) at its default latency range under 1 s: ${allUnder ? 'yes' : 'NO'}`,
);

// States with the reduction ÷ without, A–D at 300 ms of jitter, with the endings compared.
for (const id of ['A', 'B', 'C', 'D']) {
  for (const transport of ['stdio', 'http'] as const) {
    const c: Case = { id, transport, settings: { latencyJitterMs: 300 }, target: false };
    const { on, off } = measurePair(c);
    const { ratio, same, text } = reductionRatio(on, off);
    ratios.push({ ratio, same });
    const name = `${id} ${transport} latencyJitterMs=300`;
    console.log(
      `  ${name.padEnd(40)} ${figure(on)} | off ${figure(off)}\n    ${text}${budgetMark(`reduction ratio ${name}`, ratio <= RATIO_MAX && same)}`,
    );
  }
}

// `lab explore task-cancel-ack --set latencyJitterMs=20`: wall time, stopped at 120 s (then the partial rate).
function wall(reduction: boolean): { ms: number; states: number; runs: number; done: boolean } {
  const exploration = new Exploration(findScenario('task-cancel-ack'), {
    settings: { latencyJitterMs: 20 },
    ledger: { sql },
    reduction,
  });
  const started = performance.now();
  let done = false;
  while (!done && performance.now() - started < TASK_STOP_MS) done = exploration.advance(256);
  return {
    ms: performance.now() - started,
    states: exploration.progress().states,
    runs: exploration.runsByChoice().made,
    done,
  };
}
const taskOn = wall(true);
const taskOff = wall(false);
const taskText = (t: { ms: number; states: number; runs: number; done: boolean }): string =>
  `${t.done ? `${(t.ms / 1000).toFixed(1)} s` : `stopped at ${(t.ms / 1000).toFixed(0)} s, not done`} (${t.states.toLocaleString('en-US')} states in ${t.runs.toLocaleString('en-US')} runs, ${rate(t.states, t.ms).toLocaleString('en-US')} states/s)`;
console.log(
  `  explore task-cancel-ack latencyJitterMs=20: ${taskText(taskOn)} | off ${taskText(taskOff)}  goal < 10 s${budgetMark('explore task-cancel-ack latencyJitterMs=20 wall', taskOn.done && taskOn.ms < TASK_WALL_MS)}`,
);
const worstRatio = Math.max(...ratios.map((r) => r.ratio));
const allSame = ratios.every((r) => r.same);
const ledger = ledgerRates[0] as { on: number; off: number };
console.log('  the four figures (reduction on | off, this run):');
console.log(
  `    states/s, A–D at 150 ms jitter: ${span(racesOn)} | off ${span(racesOff)}  goal ≥ ${STATES_PER_S_RACES.toLocaleString('en-US')}${overBudget(Math.min(...racesOn) >= STATES_PER_S_RACES)}`,
);
console.log(
  `    states/s, ledger-race-keyed: ${ledger.on.toLocaleString('en-US')} | off ${ledger.off.toLocaleString('en-US')}  goal ≥ ${STATES_PER_S_LEDGER.toLocaleString('en-US')}${overBudget(ledger.on >= STATES_PER_S_LEDGER)}`,
);
console.log(
  `    explore task-cancel-ack latencyJitterMs=20, wall: ${taskText(taskOn)} | off ${taskText(taskOff)}  goal < ${TASK_WALL_MS / 1000} s${overBudget(taskOn.done && taskOn.ms < TASK_WALL_MS)}`,
);
console.log(
  `    states with reduction ÷ without, A–D at 300 ms jitter: at most ${worstRatio.toFixed(2)}, endings ${allSame ? 'identical' : 'DIFFERENT'}  goal ≤ ${RATIO_MAX}${overBudget(worstRatio <= RATIO_MAX && allSame)}`,
);
console.log(budgetSummary('bench, explorer'));
