// Proves the evidence export (docs/requirements.md#artifacts-ar) contains every listed artifact, built from real runs, and is byte-identical across exports;
// and that its progress counts every run it makes, artifacts first, never falling, ending at the total it announced first.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { runScenarioById } from '../scenarios/index';
import type { SqlModule } from '../engine';
import { buildEvidence, evidenceArtifactRunsPlanned } from './evidence';
import { verifyRunsPlanned, type Runner, type VerifyProgress } from './verification';

let sql: SqlModule;
let run: Runner;
beforeAll(async () => {
  sql = await loadSqlJs();
  run = (id, options = {}) => runScenarioById(id, { ...options, ledger: options.ledger ?? { sql } });
});

describe('evidence export', () => {
  it('has every artifact docs/requirements.md lists, plus the verification, the reviewer skill folder and an index', () => {
    const paths = buildEvidence(run, sql).map((f) => f.path);
    expect(paths).toEqual([
      'cancellation-race-stdio.json',
      'cancellation-race-http.json',
      'retry-table.json',
      'idempotency-key-record.json',
      'key-mismatch-fixture.json',
      'concurrent-same-key.json',
      'reopen-check.json',
      'alias-check.json',
      'buffer-overload.json',
      'sse-headers-and-idle-policy.json',
      'reconnect-plan.json',
      'task-cancellation-trace.json',
      'verification.json',
      'mcp-reliability-reviewer/SKILL.md',
      'mcp-reliability-reviewer/review-input.schema.json',
      'mcp-reliability-reviewer/examples/safe-charge.json',
      'mcp-reliability-reviewer/examples/safe-charge.review.txt',
      'mcp-reliability-reviewer/examples/unsafe-charge.json',
      'mcp-reliability-reviewer/examples/unsafe-charge.review.txt',
      'README.md',
    ]);
  });

  it('is byte-identical across two exports', () => {
    expect(JSON.stringify(buildEvidence(run, sql))).toBe(JSON.stringify(buildEvidence(run, sql)));
  });

  it('carries real content: the key record, the refusal, the plan, and all VF statements holding', () => {
    const files = Object.fromEntries(
      buildEvidence(run, sql).map((f) => [f.path, JSON.parse(f.path.endsWith('.json') ? f.contents : '{}')]),
    );
    expect(files['idempotency-key-record.json'].record).toEqual([
      expect.objectContaining({ key: 'checkout-7', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);
    expect(JSON.stringify(files['key-mismatch-fixture.json'].responses)).toMatch(/IDEMPOTENCY_KEY_REUSED/);
    expect(files['reconnect-plan.json']).toMatchObject({ sendLastEventId: false, replayUnsafeMutations: false });
    expect(files['sse-headers-and-idle-policy.json'].headers).toEqual({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
    });
    expect(files['cancellation-race-stdio.json'].outcome.cancellationSignal).toBe('notifications/cancelled');
    expect(files['cancellation-race-http.json'].outcome.cancellationSignal).toBe('stream-close');
    expect((files['verification.json'] as Array<{ holds: boolean }>).every((r) => r.holds)).toBe(true);
  });

  it('reports its progress: artifacts then checklist, every run counted once, never falling, ending at the total', () => {
    const reports: VerifyProgress[] = [];
    let made = 0;
    const counting: Runner = (id, options) => {
      made += 1;
      return run(id, options);
    };
    const files = buildEvidence(counting, sql, (progress) => reports.push(progress));
    const total = evidenceArtifactRunsPlanned() + verifyRunsPlanned();
    expect(reports[0]).toEqual({ runsDone: 0, runsTotal: total, statement: 'cancellation-race-stdio.json' });
    for (const [i, report] of reports.entries()) {
      expect(report.runsTotal).toBe(total);
      expect(report.runsDone).toBeLessThanOrEqual(total);
      if (i > 0) expect(report.runsDone).toBeGreaterThanOrEqual(reports[i - 1]!.runsDone);
    }
    expect(reports.at(-1)?.runsDone).toBe(total);
    // The total is the runs the export really makes.
    expect(made).toBe(total);
    // Artifacts (named by file) before statements (named by id), never interleaved.
    const phases = reports.map((r) => (r.statement.endsWith('.json') ? 'artifact' : 'checklist'));
    expect(phases.indexOf('checklist')).toBe(phases.lastIndexOf('artifact') + 1);
    expect(reports.find((r) => r.statement === 'VF-1')?.runsDone).toBe(evidenceArtifactRunsPlanned());
    // Hearing the progress changes nothing in the files.
    expect(JSON.stringify(files)).toBe(JSON.stringify(buildEvidence(run, sql)));
  }, 120_000);
});
