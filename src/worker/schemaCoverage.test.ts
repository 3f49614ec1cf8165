// Proves the worker's schemas and the engine's transcripts agree both ways: the compiler checks that
// every transcript the engine can build passes the schemas (schemas.ts), and this test checks the other
// way, that the schemas check every field the engine writes. valibot's object schemas drop the keys
// they do not name, so a transcript read through them equals the engine's only when no field of an
// event or an outcome goes unchecked (the page read four such fields before, and nine more went unchecked).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { runScenario, usesSqlite, type Transport } from '../engine';
import { scenarios } from '../scenarios/index';
import { checkedTranscript } from './schemas';

describe('the worker schema checks every field of every transcript', () => {
  it.each(scenarios.map((scenario) => scenario.id))('%s on both transports at seed 1', async (id) => {
    const scenario = scenarios.find((s) => s.id === id);
    if (scenario === undefined) throw new Error(`no scenario ${id}`);
    const sql = usesSqlite(scenario) ? await loadSqlJs() : null;
    for (const transport of ['stdio', 'http'] as Transport[]) {
      const transcript = runScenario(scenario, { transport, seed: 1, ledger: sql === null ? undefined : { sql } });
      const read = v.parse(checkedTranscript, transcript);
      expect(read.outcome, `${id} ${transport}: outcome`).toEqual(transcript.outcome);
      // The wire message itself is the MCP schema's to check (src/testing/schema.test.ts); check passes it whole.
      const withoutWire = (event: object) => ('message' in event ? { ...event, message: null } : event);
      for (const [i, event] of transcript.events.entries())
        expect(withoutWire(read.events[i] ?? {}), `${id} ${transport}: event ${i} (${event.kind})`).toEqual(
          withoutWire(event),
        );
    }
  });
});
