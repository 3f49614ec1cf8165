/**
 * `npm run bench`: a script, not a test. Reports the engine's simulated events per second on a large
 * generated run next to a bare binary heap replaying the exact same push/pop sequence in the same
 * process, and their ratio (how much the protocol model, transcript and chooser cost over the queue).
 */
import { BinaryHeap } from '../src/engine';
import { runScenario } from '../src/engine';
import { scenarioC } from '../src/scenarios/C';

const REPEATS = 5;
const settings = { maxTimeoutMs: 86_400_000, idleTimeoutMs: 3_600_000, workMs: 150_000, progressEveryMs: 1, eventsMax: 10_000_000 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
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
console.log(`bench: engine (scenario C, workMs=${settings.workMs}, progressEveryMs=${settings.progressEveryMs}), ${eventsRun} queue pops (events run plus withdrawn deadlines), ${transcript.events.length} transcript events, node ${process.version}`);

const engineMs: number[] = [];
const unrecordedMs: number[] = [];
const heapMs: number[] = [];
for (let repeat = 0; repeat < REPEATS; repeat += 1) {
  let started = performance.now();
  runScenario(scenarioC, { settings });
  engineMs.push(performance.now() - started);

  started = performance.now();
  runScenario(scenarioC, { settings, record: false });
  unrecordedMs.push(performance.now() - started);

  started = performance.now();
  const heap = new BinaryHeap<{ atMs: number; seq: number }>();
  for (let i = 0; i < ops.length; i += 2) {
    const atMs = ops[i] as number;
    if (atMs === -1) heap.pop();
    else heap.push({ atMs, seq: ops[i + 1] as number });
  }
  heapMs.push(performance.now() - started);
}

const engineRate = eventsRun / (median(engineMs) / 1000);
const unrecordedRate = eventsRun / (median(unrecordedMs) / 1000);
const heapRate = eventsRun / (median(heapMs) / 1000);
const rows = [
  ['engine (full protocol model + transcript)', median(engineMs), engineRate],
  ['engine, recording off (what an explorer runs)', median(unrecordedMs), unrecordedRate],
  ['bare binary heap (same push/pop sequence)', median(heapMs), heapRate],
] as const;
for (const [name, ms, rate] of rows) console.log(`  ${name.padEnd(47)} ${ms.toFixed(1).padStart(9)} ms  ${Math.round(rate).toLocaleString('en-US').padStart(13)} events/s`);
console.log(`  ratio engine/heap: ${(engineRate / heapRate).toFixed(3)} recorded (target >= 0.25), ${(unrecordedRate / heapRate).toFixed(3)} recording off (target >= 0.5); median of ${REPEATS}`);
