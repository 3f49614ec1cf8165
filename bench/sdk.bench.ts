/**
 * `npm run bench:sdk`: a script, not a test. How long a run of the real MCP TypeScript SDK
 * on the virtual clock takes next to the lab's model running the same scenario, for A–D on both
 * transports (median of several runs), and for one long run its virtual steps per second: what a
 * learner waits for after flipping Implementation to ts-sdk.
 */
import { runScenario, type RequestRaceScenario } from '../src/engine';
import { findScenario } from '../src/scenarios/index';
import { runTsSdkScenario } from '../src/sdk/tsSdkRace';
import { runTsSdkV2Scenario } from '../src/sdk/tsSdkV2Race';

const REPEATS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function race(id: string): RequestRaceScenario {
  const scenario = findScenario(id);
  if (scenario.kind !== 'request-race') throw new Error(`${id} is not a request race`);
  return scenario;
}

console.log(`bench: the real SDK against the model, median of ${REPEATS} runs, node ${process.version}`);
console.log(
  `${'run'.padEnd(12)} ${'events'.padStart(7)} ${'ts-sdk ms'.padStart(10)} ${'v2 ms'.padStart(7)} ${'model ms'.padStart(9)} ${'ratio'.padStart(7)}`,
);
for (const id of ['A', 'B', 'C', 'D']) {
  for (const transport of ['stdio', 'http'] as const) {
    const sdkMs: number[] = [];
    const modelMs: number[] = [];
    const v2Ms: number[] = [];
    let events = 0;
    for (let repeat = 0; repeat < REPEATS; repeat += 1) {
      let started = performance.now();
      events = (await runTsSdkScenario(race(id), { transport })).events.length;
      sdkMs.push(performance.now() - started);
      started = performance.now();
      await runTsSdkV2Scenario(race(id), { transport });
      v2Ms.push(performance.now() - started);
      started = performance.now();
      runScenario(race(id), { transport });
      modelMs.push(performance.now() - started);
    }
    const sdk = median(sdkMs);
    const model = median(modelMs);
    console.log(
      `${`${id} ${transport}`.padEnd(12)} ${String(events).padStart(7)} ${sdk.toFixed(1).padStart(10)} ${median(v2Ms).toFixed(1).padStart(7)} ${model.toFixed(2).padStart(9)} ${`${(sdk / model).toFixed(0)}×`.padStart(7)}`,
    );
  }
}

// One long run: progress every ms for 20 s of virtual time, on both transports.
const long = {
  workMs: 20_000,
  progressEveryMs: 1,
  idleTimeoutMs: 3_600_000,
  maxTimeoutMs: 86_400_000,
  eventsMax: 10_000_000,
};
for (const transport of ['stdio', 'http'] as const) {
  let steps = 0;
  const started = performance.now();
  const t = await runTsSdkScenario(race('C'), { transport, settings: long, onStep: () => void (steps += 1) });
  const ms = performance.now() - started;
  console.log(
    `long C ${transport}: ${steps} virtual steps, ${t.events.length} events in ${ms.toFixed(0)} ms: ${Math.round(steps / (ms / 1000))} steps/s`,
  );
  steps = 0;
  const v2Started = performance.now();
  const v2 = await runTsSdkV2Scenario(race('C'), { transport, settings: long, onStep: () => void (steps += 1) });
  const v2RunMs = performance.now() - v2Started;
  console.log(
    `long C ${transport} (v2): ${steps} virtual steps, ${v2.events.length} events in ${v2RunMs.toFixed(0)} ms: ${Math.round(steps / (v2RunMs / 1000))} steps/s`,
  );
}
