import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { findScenario, scenarios } from '../scenarios/index';
import {
  IMPLEMENTATIONS,
  runScenario,
  TRANSPORTS,
  usesSqlite,
  type Implementation,
  type SqlModule,
  type Transcript,
} from '../engine';
import { runText } from '../cli/runText';
import { withLanes } from '../engine';
import { runResolved } from '../runs/runs';
import { resolveRunParams } from '../runs/runSpec';

/** Where the SHA-256 of every golden transcript's structure is kept (scripts/golden.ts hashes rewrites it). */
export const GOLDEN_HASHES_PATH = 'src/testing/golden.sha256.json';

/** Where the readable timeline of every scenario on both transports at seed 1 is kept, one text file each. */
export const GOLDEN_TIMELINES_DIR = 'src/testing/goldens';

export const GOLDEN_SEEDS_MAX = 20;

/** The seed of the text timelines: one readable run per scenario and transport is enough to review wording. */
export const GOLDEN_TIMELINE_SEED = 1;

/**
 * Fields whose text is the lab's own prose (why a deadline fired, what a step means, a message's short
 * name): a change of wording is not a change of behaviour, so the structural golden keeps only that such
 * a field is there. Wire data (JSON-RPC messages, HTTP bodies and headers, SQL and SQLite's errors) is
 * behaviour and is kept whole, whatever its keys are called.
 */
const PROSE_KEYS: ReadonlySet<string> = new Set([
  'title',
  'reason',
  'summary',
  'detail',
  'purpose',
  'malformed',
  'source',
  'statement',
  'explanation',
]);
const WIRE_KEYS: ReadonlySet<string> = new Set(['message', 'body', 'headers', 'sql', 'error', 'params']);

/** A prose field's value in the projection: present, wording left out. */
export const PROSE_MARK = '…';

function project(value: unknown, depth: number): unknown {
  if (depth > 64) throw new Error('a transcript nests deeper than 64 levels');
  if (Array.isArray(value)) return value.map((item) => project(item, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (WIRE_KEYS.has(key)) out[key] = field;
    else if (PROSE_KEYS.has(key) && typeof field === 'string') out[key] = PROSE_MARK;
    else out[key] = project(field, depth + 1);
  }
  return out;
}

/**
 * The structure of a transcript: every event's kind, time, lane (the view's, as `actor`), cause and
 * fields, every wire message byte for byte, the settings and the outcome, with the lab's prose reduced
 * to PROSE_MARK. Its hash changes when the behaviour changes and stays when only wording does.
 */
export function structuralProjection(transcript: Transcript): unknown {
  return project(withLanes(transcript), 0);
}

export function structuralHash(transcript: Transcript): string {
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify(structuralProjection(transcript)))));
}

/** Every scenario on both transports for seeds 1–20, with the hash of its structure. */
export function* goldenTranscripts(sql: SqlModule): Generator<{ name: string; sha256: string }> {
  for (const scenario of scenarios) {
    for (const transport of TRANSPORTS) {
      for (let seed = 1; seed <= GOLDEN_SEEDS_MAX; seed += 1) {
        const transcript = runScenario(scenario, {
          transport,
          seed,
          ledger: usesSqlite(scenario) ? { sql } : undefined,
        });
        yield { name: `${scenario.id}.${transport}.${seed}`, sha256: structuralHash(transcript) };
      }
    }
  }
}

/** Every scenario on both transports at seed 1, as `lab run` prints it: `<scenario>.<transport>.txt`. */
export function* goldenTimelines(sql: SqlModule): Generator<{ file: string; text: string }> {
  for (const scenario of scenarios) {
    for (const transport of TRANSPORTS) {
      const transcript = runScenario(scenario, {
        transport,
        seed: GOLDEN_TIMELINE_SEED,
        ledger: usesSqlite(scenario) ? { sql } : undefined,
      });
      yield { file: `${scenario.id}.${transport}.txt`, text: `${runText(scenario, transcript)}\n` };
    }
  }
}

/** The real SDKs' lanes whose timelines are committed beside the model's: the same steps, read side by side (every implementation but the model). */
export const GOLDEN_SDK_IMPLS: readonly Exclude<Implementation, 'model'>[] = IMPLEMENTATIONS.filter(
  (impl): impl is Exclude<Implementation, 'model' | 'ext-tasks'> => impl !== 'model' && impl !== 'ext-tasks',
);

/** The scenarios an SDK runs (the request races A–D). */
export const GOLDEN_SDK_SCENARIOS = ['A', 'B', 'C', 'D'] as const;

/**
 * A–D on both transports at seed 1 on each real SDK, as `lab run <id> --impl <impl>` prints it:
 * `<scenario>.<transport>.<impl>.txt`. The structural hash is the model's alone; these show the SDK lanes' wording.
 */
export async function* goldenSdkTimelines(): AsyncGenerator<{ file: string; text: string }> {
  for (const impl of GOLDEN_SDK_IMPLS) {
    for (const id of GOLDEN_SDK_SCENARIOS) {
      for (const transport of TRANSPORTS) {
        const run = resolveRunParams(
          { scenario: id, impl, transport, seed: String(GOLDEN_TIMELINE_SEED) },
          findScenario,
        );
        const transcript = await runResolved(run);
        yield { file: `${id}.${transport}.${impl}.txt`, text: `${runText(run.scenario, transcript)}\n` };
      }
    }
  }
}
