// Proves docs/requirements.md#failure-modes-each-runnable-next-to-its-fix: every row of the failure-mode table can be run — a run that shows the failure next to one that shows the fix — and each card links to both, computed from the transcripts.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { findScenario, runScenarioById } from '../scenarios/index';
import type { RunOptions, SqlModule } from '../engine';
import { failureCards, type FailureCard } from './failureCards';
import { checkFailureModes } from './failureModes';
import type { Runner } from './verification';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});
const run: Runner = (id, options: RunOptions = {}) => runScenarioById(id, { ...options, ledger: { sql } });

describe('every failure mode of docs/requirements.md is runnable, with its fix beside it', () => {
  it('all 14 rows of the table, in order', () => {
    const cards = Object.values(failureCards);
    expect(cards).toHaveLength(14);
    for (const card of cards) {
      expect(() => findScenario(card.failureRun.scenario), card.id).not.toThrow();
      expect(() => findScenario(card.fixRun.scenario), card.id).not.toThrow();
    }
  });

  it('each failure run shows the failure and each fix run shows the fix', () => {
    const results = checkFailureModes(run);
    expect(results.map((r) => r.id)).toEqual(Object.values(failureCards).map((c) => c.id));
    for (const result of results) {
      expect(result.problems, result.id).toEqual([]);
      expect(result.failureShown && result.fixShown, result.id).toBe(true);
      expect(result.failureDetail.length).toBeGreaterThan(0);
    }
  });

  it('a run that does not show the failure is caught (the check can fail)', () => {
    // Run the fix where the failure should be: every row must notice.
    const swapped: Runner = (id, options) => {
      const card = (Object.values(failureCards) as FailureCard[]).find(
        (c) =>
          c.failureRun.scenario === id &&
          JSON.stringify(c.failureRun.settings ?? {}) === JSON.stringify(options?.settings ?? {}),
      );
      return card === undefined
        ? run(id, options)
        : run(card.fixRun.scenario, { transport: card.fixRun.transport, settings: card.fixRun.settings });
    };
    for (const result of checkFailureModes(swapped)) expect(result.failureShown, result.id).toBe(false);
  });
});
