// Proves a change to the engine left every transcript as it was: the SHA-256 of each scenario on both
// transports for seeds 1–20 matches the committed manifest. A change that is meant to alter
// transcripts regenerates it with `npx tsx scripts/golden.ts hashes` and says why in its commit.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { scenarios } from '../scenarios/index';
import { GOLDEN_HASHES_PATH, GOLDEN_SEEDS_MAX, goldenTranscripts } from './golden';

it('every golden transcript is byte-identical to the committed manifest', async () => {
  const expected = JSON.parse(readFileSync(GOLDEN_HASHES_PATH, 'utf8')) as Record<string, string>;
  const actual: Record<string, string> = {};
  for (const { name, sha256 } of goldenTranscripts(await loadSqlJs())) actual[name] = sha256;
  const changed = Object.keys({ ...expected, ...actual }).filter((name) => expected[name] !== actual[name]);
  expect(changed).toEqual([]);
  expect(Object.keys(actual)).toHaveLength(scenarios.length * 2 * GOLDEN_SEEDS_MAX);
}, 60_000);
