// Runs every scenario (but the herd, which sends its one traced client's messages only) × transport × each single
// fault the fault grammar offers on each message of the run without faults (drop, delay:50, duplicate, stream-drop,
// crash), and counts how the runs end: followed, refused (LAB023), or a request left without an answer (LAB021).
//   npx tsx scripts/faultSweep.ts            the counts, and every LAB021 ending by scenario
//   npx tsx scripts/faultSweep.ts --list     also each LAB021 run and its message
//   npx tsx scripts/faultSweep.ts --refused  the refusals (LAB023) too
import { loadSqlJs } from '../src/cli/sqlite';
import { scenarios } from '../src/scenarios/index';
import {
  LabError,
  parseFaults,
  runScenario,
  usesSqlite,
  type MessageEvent,
  type Transcript,
} from '../src/engine/index';

const FAULTS = (seq: number) => [
  `drop:${seq}`,
  `delay:${seq}:50`,
  `duplicate:${seq}`,
  `stream-drop:${seq}`,
  `crash:${seq}`,
];

const sql = await loadSqlJs();
const list = process.argv.includes('--list');
let runs = 0;
const endings = new Map<string, number>();
const lab021 = new Map<string, string[]>();
for (const scenario of scenarios.filter((s) => s.kind !== 'herd')) {
  for (const transport of ['stdio', 'http'] as const) {
    const run = (faults?: string) =>
      runScenario(scenario, {
        transport,
        faults: faults === undefined ? undefined : parseFaults(faults),
        ledger: usesSqlite(scenario) ? { sql } : undefined,
      });
    let plain: Transcript;
    try {
      plain = run();
    } catch {
      continue;
    }
    const seqs = plain.events.filter((e): e is MessageEvent => e.kind === 'message').map((m) => m.seq);
    for (const seq of seqs) {
      for (const fault of FAULTS(seq)) {
        runs += 1;
        let ending = 'ran';
        try {
          run(fault);
        } catch (error) {
          ending = error instanceof LabError ? error.code : `crash: ${(error as Error).message}`;
          if (ending === 'LAB021' || (ending === 'LAB023' && process.argv.includes('--refused'))) {
            const key = `${ending} ${scenario.id} ${transport}`;
            lab021.set(key, [...(lab021.get(key) ?? []), `${fault}  ${(error as Error).message}`]);
          }
        }
        endings.set(ending, (endings.get(ending) ?? 0) + 1);
      }
    }
  }
}
console.log(`${runs} fault runs: ${[...endings].map(([k, v]) => `${k} ${v}`).join(', ')}`);
for (const [key, faults] of lab021) {
  console.log(`  ${key}: ${faults.length} (${faults.map((f) => f.split(' ')[0]).join(' ')})`);
  if (list) for (const f of faults) console.log(`    ${f}`);
}
