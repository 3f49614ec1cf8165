/**
 * `npm run bench`: a script, not a test. Reports the engine's simulated events per second on a large
 * generated run next to a bare binary heap replaying the exact same push/pop sequence in the same
 * process, and their ratio (how much the protocol model, transcript and chooser cost over the queue).
 *
 * Method: one untimed round of each first (so the engine's code is as optimised as the heap loop's
 * when timing starts), then REPEATS rounds, each timing the recorded run, the run with recording off
 * and the heap replay in turn. Before each timed run the garbage of the one before is collected when
 * the script runs with --expose-gc (as `npm run bench` does), so no run pays for another's transcript.
 * It prints the median and the fastest of each, in wall time (what events/s means, and the targets) and
 * in CPU time (this process's, so it counts the GC's helper threads too but not the time the machine
 * gave to others); the machine is shared, so compare the ratios (measured in the same rounds), not the
 * absolute figures, and read `uptime` beside them.
 */
import { BinaryHeap } from '../src/engine';
import { runScenario } from '../src/engine';
import { scenarioC } from '../src/scenarios/C';
import { budgetMark, budgetSummary } from './budget';

const REPEATS = 7;
const settings = {
  maxTimeoutMs: 86_400_000,
  idleTimeoutMs: 3_600_000,
  workMs: 150_000,
  progressEveryMs: 1,
  eventsMax: 10_000_000,
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const collect = (globalThis as { gc?: () => void }).gc;

/** Wall-clock and CPU milliseconds of `run`, after collecting what the previous run left (when gc is exposed). */
function timed(run: () => void): { wall: number; cpu: number } {
  collect?.();
  const cpu = process.cpuUsage();
  const started = performance.now();
  run();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

// Capture the schedule once: pushes as (atMs, seq), pops as -1.
const ops: number[] = [];
let pops = 0;
const transcript = runScenario(scenarioC, {
  settings,
  trace: {
    push: (atMs, seq) => void ops.push(atMs, seq),
    pop: () => {
      pops += 1;
      ops.push(-1, -1);
    },
  },
});
const eventsRun = pops;
console.log(
  `bench: engine (scenario C, workMs=${settings.workMs}, progressEveryMs=${settings.progressEveryMs}), ${eventsRun} queue pops (events run plus withdrawn deadlines), ${transcript.events.length} transcript events, node ${process.version}`,
);
if (collect === undefined) console.log('  (no --expose-gc: one run may pay for the garbage of the run before it)');

const recorded = (): void => void runScenario(scenarioC, { settings });
const unrecorded = (): void => void runScenario(scenarioC, { settings, record: false });
const bareHeap = (): void => {
  const heap = new BinaryHeap<{ atMs: number; seq: number }>();
  for (let i = 0; i < ops.length; i += 2) {
    const atMs = ops[i] as number;
    if (atMs === -1) heap.pop();
    else heap.push({ atMs, seq: ops[i + 1] as number });
  }
};

// Warm-up: untimed, so both sides are timed with optimised code.
recorded();
unrecorded();
bareHeap();

const engineMs: { wall: number; cpu: number }[] = [];
const unrecordedMs: { wall: number; cpu: number }[] = [];
const heapMs: { wall: number; cpu: number }[] = [];
for (let repeat = 0; repeat < REPEATS; repeat += 1) {
  engineMs.push(timed(recorded));
  unrecordedMs.push(timed(unrecorded));
  heapMs.push(timed(bareHeap));
}
const wallOf = (times: { wall: number }[]): number[] => times.map((time) => time.wall);
const cpuOf = (times: { cpu: number }[]): number[] => times.map((time) => time.cpu);

const rate = (ms: number): number => eventsRun / (ms / 1000);
const fastestOf = (values: number[]): number => Math.min(...values);
const rows = [
  ['engine (full protocol model + transcript)', engineMs],
  ['engine, recording off (what an explorer runs)', unrecordedMs],
  ['bare binary heap (same push/pop sequence)', heapMs],
] as const;
console.log(
  `  ${''.padEnd(47)} ${'median ms'.padStart(10)} ${'events/s'.padStart(13)} ${'fastest ms'.padStart(11)} ${'events/s'.padStart(13)} ${'CPU ms, median'.padStart(15)}`,
);
for (const [name, times] of rows) {
  const typical = median(wallOf(times));
  const fastest = fastestOf(wallOf(times));
  console.log(
    `  ${name.padEnd(47)} ${typical.toFixed(1).padStart(10)} ${Math.round(rate(typical)).toLocaleString('en-US').padStart(13)} ${fastest.toFixed(1).padStart(11)} ${Math.round(rate(fastest)).toLocaleString('en-US').padStart(13)} ${median(cpuOf(times)).toFixed(1).padStart(15)}`,
  );
}
const ratio = (engine: number[], heap: number[], pick: (values: number[]) => number): string =>
  (pick(heap) / pick(engine)).toFixed(3);
console.log(
  `  ratio engine/heap, wall median: ${ratio(wallOf(engineMs), wallOf(heapMs), median)} recorded (target >= 0.25)${budgetMark('engine/heap recorded', Number(ratio(wallOf(engineMs), wallOf(heapMs), median)) >= 0.25)}, ${ratio(wallOf(unrecordedMs), wallOf(heapMs), median)} recording off (target >= 0.5)${budgetMark('engine/heap recording off', Number(ratio(wallOf(unrecordedMs), wallOf(heapMs), median)) >= 0.5)}; ${REPEATS} rounds after a warm-up`,
);
console.log(
  `  ratio engine/heap, wall fastest: ${ratio(wallOf(engineMs), wallOf(heapMs), fastestOf)} recorded, ${ratio(wallOf(unrecordedMs), wallOf(heapMs), fastestOf)} recording off`,
);
console.log(
  `  ratio engine/heap, CPU median: ${ratio(cpuOf(engineMs), cpuOf(heapMs), median)} recorded, ${ratio(cpuOf(unrecordedMs), cpuOf(heapMs), median)} recording off`,
);
console.log(budgetSummary('bench, engine'));
