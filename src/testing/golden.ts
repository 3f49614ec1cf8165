import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { scenarios } from '../scenarios/index';
import { runScenario, usesSqlite, type SqlModule, type Transport } from '../engine';

/** Where the SHA-256 of every golden transcript is kept (scripts/golden.ts hashes rewrites it). */
export const GOLDEN_HASHES_PATH = 'src/testing/golden.sha256.json';

export const GOLDEN_SEEDS_MAX = 20;

/** Every scenario on both transports for seeds 1–20, as the CLI's `--json` prints it, with its hash. */
export function* goldenTranscripts(sql: SqlModule): Generator<{ name: string; sha256: string }> {
  for (const scenario of scenarios) {
    for (const transport of ['stdio', 'http'] as Transport[]) {
      for (let seed = 1; seed <= GOLDEN_SEEDS_MAX; seed += 1) {
        const text = JSON.stringify(runScenario(scenario, { transport, seed, ledger: usesSqlite(scenario) ? { sql } : undefined }), null, 2);
        yield { name: `${scenario.id}.${transport}.${seed}`, sha256: bytesToHex(sha256(utf8ToBytes(text))) };
      }
    }
  }
}
