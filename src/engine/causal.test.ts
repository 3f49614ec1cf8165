// Proves the log stamps facts the diagram and the explorer read instead of re-deriving them: every
// event's lane (actor) and the event that caused it, in every scenario on both transports.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { scenarios } from '../scenarios/index';
import { runScenario, usesSqlite, type LabEvent, type SqlModule } from './index';
import { withLanes } from './lanes';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

describe("every event has a lane (the view's) and a cause", () => {
  for (const scenario of scenarios) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`${scenario.id} on ${transport}`, () => {
        const t = runScenario(scenario, {
          transport,
          settings: scenario.kind === 'herd' ? { clients: 200 } : {},
          ledger: usesSqlite(scenario) ? { sql } : undefined,
        });
        const bySeq = new Map<number, LabEvent>(t.events.map((e) => [e.seq, e]));
        for (const event of withLanes(t).events) {
          expect(event.actor.length).toBeGreaterThan(0);
          if (event.causeSeq !== null) expect(event.causeSeq).toBeLessThan(event.seq);
          // A delivery is caused by its message and happens on the receiver's lane.
          if (event.kind === 'delivered') {
            expect(event.causeSeq).toBe(event.messageSeq);
            expect(event.actor).toBe(event.to);
          }
          if (event.kind === 'message') expect(event.actor).toBe(event.from);
          if (event.kind === 'worker') expect(event.actor).toBe('worker');
          if (event.kind === 'sql') expect(event.actor).toBe(event.connection);
          // A deadline fires because it was armed or reset: its cause chain reaches that event.
          if (event.kind === 'deadline' && event.action === 'fired') {
            let cause = event.causeSeq === null ? undefined : bySeq.get(event.causeSeq);
            while (
              cause !== undefined &&
              !(cause.kind === 'deadline' && cause.action !== 'fired' && cause.deadline === event.deadline)
            )
              cause = cause.causeSeq === null ? undefined : bySeq.get(cause.causeSeq);
            expect(cause, `deadline fired at seq ${event.seq} has no arming in its causes`).toBeDefined();
          }
        }
      });
    }
  }
});
