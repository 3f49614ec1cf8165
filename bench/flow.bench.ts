/**
 * The herd benchmark: a script, not a test. For each backoff policy it runs the 10,000-client herd
 * (the reference settings: 500 admitted per 100 ms, base 100 ms, cap 30 s, all starting together)
 * and reports its wall time and simulated events per second, next to a bare Scheduler
 * (src/engine/core/scheduler.ts with no-op events) replaying the exact same schedule in the same process:
 * the same number of events, pushed at the same virtual times in the same order. The ratio is what
 * the herd model (admission, backoff draws, window summaries) costs over the virtual clock itself.
 */
import { BACKOFF_POLICIES, type BackoffPolicy } from '../src/engine';
import type { HerdOutcome } from '../src/engine';
import { runScenario } from '../src/engine';
import { Scheduler } from '../src/engine';
import { herd } from '../src/scenarios/herd';

const REPEATS = 5;
const CLIENTS = 10_000;
const reference = {
  clients: CLIENTS,
  baseMs: 100,
  capMs: 30_000,
  admitPerWindow: 500,
  windowMs: 100,
  rejectRttMs: 100,
  initialJitter: false,
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The schedule of one run: the times pushed before the first event, and the times each event pushed, in pop order. */
interface Schedule {
  readonly initialAtMs: number[];
  readonly childOffsets: Int32Array;
  readonly childAtMs: Float64Array;
  readonly events: number;
}

function capture(policy: BackoffPolicy): { schedule: Schedule; outcome: HerdOutcome; transcriptEvents: number } {
  const initialAtMs: number[] = [];
  const offsets: number[] = [];
  const children: number[] = [];
  const transcript = runScenario(herd, {
    settings: { ...reference, policy },
    trace: {
      push: (atMs) => void (offsets.length === 0 ? initialAtMs.push(atMs) : children.push(atMs)),
      pop: () => void offsets.push(children.length),
    },
  });
  offsets.push(children.length);
  return {
    schedule: {
      initialAtMs,
      childOffsets: Int32Array.from(offsets),
      childAtMs: Float64Array.from(children),
      events: offsets.length - 1,
    },
    outcome: transcript.outcome,
    transcriptEvents: transcript.events.length,
  };
}

/** Replays a schedule on a bare Scheduler: each event only pushes the events its original pushed. */
function replay(schedule: Schedule): number {
  const scheduler = new Scheduler({ eventsMax: schedule.events + 1 });
  let popped = 0;
  const run = (): void => {
    const index = popped++;
    const end = schedule.childOffsets[index + 1] as number;
    for (let child = schedule.childOffsets[index] as number; child < end; child += 1)
      scheduler.at(schedule.childAtMs[child] as number, 'client', 'event', run);
  };
  for (const atMs of schedule.initialAtMs) scheduler.at(atMs, 'client', 'event', run);
  scheduler.runUntilIdle();
  return scheduler.eventsRun;
}

const rows: string[][] = [];
for (const policy of BACKOFF_POLICIES) {
  const { schedule, outcome, transcriptEvents } = capture(policy);
  if (outcome.totalAttempts !== schedule.events)
    throw new Error(`${policy}: ${schedule.events} scheduler events for ${outcome.totalAttempts} attempts`);
  const herdMs: number[] = [];
  const bareMs: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    let startedAt = performance.now();
    runScenario(herd, { settings: { ...reference, policy } });
    herdMs.push(performance.now() - startedAt);
    startedAt = performance.now();
    const replayed = replay(schedule);
    bareMs.push(performance.now() - startedAt);
    if (replayed !== schedule.events)
      throw new Error(`${policy}: the bare replay ran ${replayed} events, not ${schedule.events}`);
  }
  const herdRate = schedule.events / (median(herdMs) / 1000);
  const bareRate = schedule.events / (median(bareMs) / 1000);
  rows.push([
    policy,
    schedule.events.toLocaleString('en-US'),
    `${(outcome.allReconnectedAtMs / 1000).toFixed(1)} s`,
    outcome.peakAttemptsPerWindow.toLocaleString('en-US'),
    String(transcriptEvents),
    `${median(herdMs).toFixed(1)} ms`,
    Math.round(herdRate).toLocaleString('en-US'),
    `${median(bareMs).toFixed(1)} ms`,
    Math.round(bareRate).toLocaleString('en-US'),
    (herdRate / bareRate).toFixed(2),
  ]);
}

const header = [
  'policy',
  'attempts (= events)',
  'all back at',
  'peak/window',
  'transcript events',
  'herd wall',
  'herd events/s',
  'bare scheduler',
  'bare events/s',
  'herd/bare',
];
const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((row) => (row[column] as string).length)),
);
const line = (cells: string[]) =>
  cells
    .map((cell, column) =>
      column === 0 ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number),
    )
    .join('  ');
console.log(
  `bench: herd of ${CLIENTS.toLocaleString('en-US')} clients, 500 admitted per 100 ms, base 100 ms, cap 30 s, refusal round trip 100 ms, no initial jitter; seed 1; median of ${REPEATS}; node ${process.version}`,
);
console.log(`  ${line(header)}`);
console.log(`  ${widths.map((width) => '-'.repeat(width)).join('  ')}`);
for (const row of rows) console.log(`  ${line(row)}`);
console.log(
  '  herd wall: the whole run (settings, model, window summaries, transcript); bare scheduler: the same push/pop schedule with no-op events.',
);
