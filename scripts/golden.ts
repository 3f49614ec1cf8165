// Golden transcripts: a refactor of the engine must change no transcript except where a named defect is
// fixed. `hashes` rewrites both goldens a unit test checks on every `npm test`: src/testing/golden.sha256.json,
// the SHA-256 of each scenario's structure on both transports for seeds 1–20, and src/testing/goldens/,
// the readable timeline of each at seed 1, and of A–D on each real SDK (regenerate them, and say why, when a change is meant; a wording
// change shows as a diff of the text files alone). `write DIR` saves the whole `--json` transcripts;
// `compare DIR` runs them again and lists every file whose bytes differ, with the first differing line.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import {
  goldenSdkTimelines,
  goldenTimelines,
  goldenTranscripts,
  GOLDEN_HASHES_PATH,
  GOLDEN_TIMELINES_DIR,
} from '../src/testing/golden';
import { scenarios } from '../src/scenarios/index';
import { runScenario, usesSqlite } from '../src/engine';
import { withLanes } from '../src/engine';

const [mode, dir] = process.argv.slice(2);
if (mode === 'hashes') {
  // Everything is computed before anything is written: a run that fails partway (a type error, a throwing
  // scenario) leaves both goldens as they were, never a half-emptied folder.
  const sql = await initSqlJs();
  const hashes: Record<string, string> = {};
  for (const { name, sha256 } of goldenTranscripts(sql)) hashes[name] = sha256;
  const timelines = [...goldenTimelines(sql)];
  for await (const timeline of goldenSdkTimelines()) timelines.push(timeline);
  writeFileSync(GOLDEN_HASHES_PATH, `${JSON.stringify(hashes, null, 1)}\n`);
  console.log(`wrote ${Object.keys(hashes).length} hashes to ${GOLDEN_HASHES_PATH}`);
  // The folder holds exactly the current timelines: one of a removed scenario goes with it.
  mkdirSync(GOLDEN_TIMELINES_DIR, { recursive: true });
  for (const file of readdirSync(GOLDEN_TIMELINES_DIR))
    if (file.endsWith('.txt')) rmSync(join(GOLDEN_TIMELINES_DIR, file));
  for (const { file, text } of timelines) writeFileSync(join(GOLDEN_TIMELINES_DIR, file), text);
  console.log(`wrote ${timelines.length} timelines to ${GOLDEN_TIMELINES_DIR}/`);
  process.exit(0);
}
if ((mode !== 'write' && mode !== 'compare') || dir === undefined) {
  console.error('usage: tsx scripts/golden.ts write|compare DIR | hashes');
  process.exit(2);
}
const sql = await initSqlJs();
mkdirSync(dir, { recursive: true });
let same = 0;
const differ: string[] = [];
for (const scenario of scenarios) {
  for (const transport of ['stdio', 'http'] as const) {
    for (let seed = 1; seed <= 20; seed += 1) {
      const name = `${scenario.id}.${transport}.${seed}.json`;
      let text: string;
      try {
        text = JSON.stringify(
          withLanes(runScenario(scenario, { transport, seed, ledger: usesSqlite(scenario) ? { sql } : undefined })),
          null,
          2,
        );
      } catch (error) {
        text = `ERROR ${(error as Error).message}`;
      }
      const path = join(dir, name);
      if (mode === 'write') writeFileSync(path, text);
      else if (!existsSync(path)) differ.push(`${name}: no golden file`);
      else {
        const golden = readFileSync(path, 'utf8');
        if (golden === text) same += 1;
        else {
          const a = golden.split('\n');
          const b = text.split('\n');
          const line = a.findIndex((l, i) => l !== b[i]);
          differ.push(
            `${name}: line ${line + 1}\n  golden: ${a[line]?.slice(0, 160)}\n  now:    ${b[line]?.slice(0, 160)}`,
          );
        }
      }
    }
  }
}
if (mode === 'compare') {
  console.log(`${same} identical, ${differ.length} differ`);
  for (const d of differ) console.log(d);
  process.exit(differ.length === 0 ? 0 : 1);
}
