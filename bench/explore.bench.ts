/**
 * `npm run bench`: the race explorer's speed — orderings/s and states/s — exploring A–D on
 * both transports at their default latency range and with 150 ms of jitter, the keyed ledger race
 * on real sql.js, and the buffer at its defaults (merged states). Reports whether exhaustive exploration of each of A–D at its default range stays
 * under 1 s (the target). A script, not a test: the numbers depend on the machine.
 */
import { loadSqlJs } from '../src/cli/sqlite';
import { explore, type ExploreResult } from '../src/engine';
import { findScenario } from '../src/scenarios/index';
import { budgetMark, budgetSummary } from './budget';

const REPEATS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const sql = await loadSqlJs();
console.log(`bench: explorer (every ordering, invariants after every event), median of ${REPEATS}, node ${process.version}`);

interface Case {
  readonly id: string;
  readonly transport: 'stdio' | 'http';
  readonly settings: Record<string, unknown>;
  /** One of the "under 1 s" targets: A–D at their default latency range. */
  readonly target: boolean;
}

const cases: Case[] = [];
for (const id of ['A', 'B', 'C', 'D']) {
  for (const transport of ['stdio', 'http'] as const) {
    cases.push({ id, transport, settings: {}, target: true });
    cases.push({ id, transport, settings: { latencyJitterMs: 150 }, target: false });
  }
}
cases.push({ id: 'ledger-race-keyed', transport: 'http', settings: {}, target: false });
cases.push({ id: 'ledger-race-keyed', transport: 'http', settings: { latencyJitterMs: 3 }, target: false });
// The buffer at its defaults: complete since orderings that reach one model state are merged.
cases.push({ id: 'buffer-overload', transport: 'http', settings: {}, target: false });

let allUnder = true;
for (const c of cases) {
  const times: number[] = [];
  let result: ExploreResult | null = null;
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    const started = performance.now();
    result = explore(findScenario(c.id), { transport: c.transport, settings: c.settings, ledger: { sql } });
    times.push(performance.now() - started);
  }
  const r = result as ExploreResult;
  const ms = median(times);
  const settings = Object.entries(c.settings).map(([k, v]) => `${k}=${String(v)}`).join(' ') || 'defaults';
  const under = ms < 1000;
  if (c.target && !(under && r.complete)) allUnder = false;
  console.log(
    `  ${`${c.id} ${c.transport} ${settings}`.padEnd(44)} ${String(r.schedules).padStart(6)} orderings ${String(r.states).padStart(6)} states ${ms.toFixed(1).padStart(9)} ms ` +
      `${Math.round(r.schedules / (ms / 1000)).toLocaleString('en-US').padStart(9)} orderings/s ${Math.round(r.states / (ms / 1000)).toLocaleString('en-US').padStart(9)} states/s` +
      `${r.complete ? '' : ' (cut by the bound)'}${c.target ? (under ? '  < 1 s' : `  OVER 1 s${budgetMark(`explore ${c.id} ${c.transport}`, false)}`) : ''}`,
  );
}
console.log(`  exhaustive exploration of each of A–D (both transports) at its default latency range under 1 s: ${allUnder ? 'yes' : 'NO'}`);
console.log(budgetSummary('bench, explorer'));
