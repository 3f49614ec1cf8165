// Proves a change to the engine left every run's behaviour as it was: the SHA-256 of each scenario's
// structure (events, times, lanes, wire messages, outcome; no prose) on both transports for seeds
// 1–20 matches the committed manifest, and the readable timeline of each at seed 1 (and of A–D on each
// real SDK) matches its text file byte for byte. A change meant to alter them regenerates both with
// `npx tsx scripts/golden.ts hashes` and says why in its commit; a wording change alters only the text files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { scenarios } from '../scenarios/index';
import { findScenario } from '../scenarios/index';
import { runScenario, TRANSPORTS, type LabEvent, type Transcript } from '../engine';
import { runText } from '../cli/runText';
import {
  GOLDEN_HASHES_PATH,
  GOLDEN_SDK_IMPLS,
  GOLDEN_SDK_SCENARIOS,
  GOLDEN_SEEDS_MAX,
  GOLDEN_TIMELINES_DIR,
  goldenSdkTimelines,
  goldenTimelines,
  goldenTranscripts,
  structuralHash,
} from './golden';

it('every golden transcript has the structure the committed manifest hashes', async () => {
  const expected = JSON.parse(readFileSync(GOLDEN_HASHES_PATH, 'utf8')) as Record<string, string>;
  const actual: Record<string, string> = {};
  for (const { name, sha256 } of goldenTranscripts(await loadSqlJs())) actual[name] = sha256;
  const changed = Object.keys({ ...expected, ...actual }).filter((name) => expected[name] !== actual[name]);
  expect(changed).toEqual([]);
  expect(Object.keys(actual)).toHaveLength(scenarios.length * 2 * GOLDEN_SEEDS_MAX);
}, 60_000);

it('every readable timeline at seed 1 is byte-identical to its committed text file, and there is no other', async () => {
  const files = new Set(readdirSync(GOLDEN_TIMELINES_DIR).filter((file) => file.endsWith('.txt')));
  const made: string[] = [];
  for (const { file, text } of goldenTimelines(await loadSqlJs())) {
    made.push(file);
    expect(files.has(file), `${file} is not committed; run npx tsx scripts/golden.ts hashes`).toBe(true);
    // toBe on the text: a failure prints the changed lines as a diff.
    expect(text, file).toBe(readFileSync(join(GOLDEN_TIMELINES_DIR, file), 'utf8'));
  }
  for await (const { file, text } of goldenSdkTimelines()) {
    made.push(file);
    expect(files.has(file), `${file} is not committed; run npx tsx scripts/golden.ts hashes`).toBe(true);
    expect(text, file).toBe(readFileSync(join(GOLDEN_TIMELINES_DIR, file), 'utf8'));
  }
  expect([...files].sort()).toEqual(made.sort());
  expect(made).toHaveLength(
    (scenarios.length + GOLDEN_SDK_IMPLS.length * GOLDEN_SDK_SCENARIOS.length) * TRANSPORTS.length,
  );
}, 120_000);

/** Every string the lab writes as prose, reworded: what a wording change does to a transcript. */
function reworded(transcript: Transcript): Transcript {
  const events = transcript.events.map((event) => {
    const copy: Record<string, unknown> = { ...event };
    for (const key of ['reason', 'summary', 'detail', 'purpose'])
      if (typeof copy[key] === 'string') copy[key] = `reworded: ${String(copy[key])}`;
    return copy as unknown as LabEvent;
  });
  return { ...transcript, title: `${transcript.title} (reworded)`, events } as Transcript;
}

it('a wording change alters the readable timeline and no structural hash; a change of time or of a wire message alters the hash', () => {
  const scenario = findScenario('C');
  const transcript = runScenario(scenario, { transport: 'stdio', seed: 1 });
  const rewordedTranscript = reworded(transcript);
  expect(runText(scenario, rewordedTranscript)).not.toBe(runText(scenario, transcript));
  expect(structuralHash(rewordedTranscript)).toBe(structuralHash(transcript));

  const later = {
    ...transcript,
    events: transcript.events.map((event, i) => (i === 5 ? { ...event, atMs: event.atMs + 1 } : event)),
  } as Transcript;
  expect(structuralHash(later)).not.toBe(structuralHash(transcript));
  const index = transcript.events.findIndex((event) => event.kind === 'message');
  const wire = transcript.events.map((event, i) =>
    i === index && event.kind === 'message' ? { ...event, message: { ...event.message, id: 999 } } : event,
  ) as LabEvent[];
  expect(structuralHash({ ...transcript, events: wire } as Transcript)).not.toBe(structuralHash(transcript));
  const outcome =
    transcript.kind === 'request-race'
      ? { ...transcript, outcome: { ...transcript.outcome, terminalAtMs: 1 } }
      : transcript;
  expect(structuralHash(outcome)).not.toBe(structuralHash(transcript));
});

it('a timeline says a cancellation stops the work only where the worker then stops, never where it finishes', () => {
  // The accepting server cannot stop a chunk already running: in A the cancellation lands in the last chunk and
  // the worker finishes. The acceptance says what is certain (nothing more is sent); the worker's step says how the work ends.
  const claims: string[] = [];
  let examined = 0;
  for (const file of readdirSync(GOLDEN_TIMELINES_DIR).filter((name) => name.endsWith('.txt'))) {
    const lines = readFileSync(join(GOLDEN_TIMELINES_DIR, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (!/accepts the cancellation/.test(line)) return;
      examined += 1;
      if (!/(?<!neither )\bstops\b/.test(line)) return;
      const after = lines.slice(index + 1);
      if (
        after.some((later) => /\bworker finished\b/.test(later)) ||
        !after.some((later) => /\bworker stopped\b/.test(later))
      )
        claims.push(`${file}: ${line.trim()}`);
    });
  }
  // Shows the check looked: the timelines hold acceptance lines, even when none of them claims a stop.
  expect(examined).toBeGreaterThan(0);
  expect(claims).toEqual([]);
});
