// Proves the page's check of an event (schemas.ts EventSchema, which goes straight to the schema of the
// event's kind) says what valibot's variant over the same kinds says: every event of runs of each model
// passes with the same output, and a spoilt event (a field missing or of the wrong type, an unknown or
// missing kind, not an object) is refused with the same issues.
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import type { SqlModule } from '../engine';
import { runScenarioById } from '../scenarios/index';
import { EventSchema } from './schemas';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});
const eventsOf = (id: string) => runScenarioById(id, { ledger: { sql } }).events;

const variant = v.variant('kind', EventSchema.options);
const outcome = (schema: typeof variant, input: unknown) => {
  const result = v.safeParse(schema, input);
  return {
    success: result.success,
    output: result.output,
    issues: result.issues?.map(({ kind, type, message, path }) => ({
      kind,
      type,
      message,
      path: path?.map((item) => item.key),
    })),
  };
};

const SCENARIOS = [
  'A',
  'B',
  'C',
  'D',
  'ledger-race-unsafe',
  'task-cancel-ack',
  'buffer-overload',
  'reconnect-listen',
  'herd',
];

describe('the check of an event', () => {
  it.each(SCENARIOS)('%s: each event passes as the variant passes it', (id) => {
    for (const event of eventsOf(id)) expect(outcome(EventSchema, event)).toEqual(outcome(variant, event));
  });

  it('refuses a spoilt event with the same issues as the variant', () => {
    const events = SCENARIOS.flatMap((id) => eventsOf(id));
    const kinds = new Map(events.map((event) => [event.kind, event as unknown as Record<string, unknown>]));
    expect(kinds.size).toBeGreaterThan(10);
    const spoilt: unknown[] = [null, 7, 'message', [], {}, { kind: 'no-such-kind', seq: 0 }, { kind: 3 }];
    for (const event of kinds.values())
      for (const field of Object.keys(event).filter((name) => name !== 'kind')) {
        const { [field]: _dropped, ...without } = event;
        spoilt.push(without, { ...event, [field]: { not: 'this' } });
      }
    for (const input of spoilt) expect(outcome(EventSchema, input)).toEqual(outcome(variant, input));
    expect(outcome(EventSchema, { kind: 'deadline' }).success).toBe(false);
  });
});
