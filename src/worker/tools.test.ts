// Proves the worker's lab tools return what the panels draw: 12 holding VF results, a deterministic evidence zip whose files are buildEvidence's, the skill zip, the reviewer's verdicts, and compact panel views cut from real runs.
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import type { SqlModule } from '../engine';
import { buildEvidence } from '../lesson/evidence';
import { buildSkill } from '../lesson/skill';
import unsafeCharge from '../lesson/examples/unsafe-charge.json';
import safeCharge from '../lesson/examples/safe-charge.json';
import type { Runner } from '../lesson/verification';
import { runScenarioById } from '../scenarios/index';
import { evidenceZip, reviewLab, skillZip, runPanel, verifyLab } from './tools';
import type { BufferView, HerdView, ProxyView, ReconnectView, TasksView } from './panelTypes';

let sql: SqlModule;
let run: Runner;
beforeAll(async () => {
  sql = await loadSqlJs();
  run = (id, options = {}) => runScenarioById(id, { ...options, ledger: options.ledger ?? { sql } });
});

describe('verification', () => {
  it('gives VF-1 … VF-12 and the RC-7, RC-8, RC-9, BF-5 and LG-P5 statements, all holding, each with evidence naming a scenario and transport', () => {
    const results = verifyLab(run);
    expect(results.map((r) => r.id)).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `VF-${i + 1}`),
      'RC-7',
      'RC-8',
      'RC-9',
      'BF-5',
      'LG-P5',
    ]);
    expect(results.every((r) => r.holds)).toBe(true);
    expect(
      results.every(
        (r) =>
          r.evidence.length > 0 &&
          r.evidence.every((e) => e.scenario !== '' && (e.transport === 'stdio' || e.transport === 'http')),
      ),
    ).toBe(true);
  });
});

describe('evidence zip', () => {
  it('holds exactly buildEvidence’s files with their contents', () => {
    const bundle = evidenceZip(run, sql);
    const expected = buildEvidence(run, sql);
    const unzipped = unzipSync(bundle.bytes);
    expect(Object.keys(unzipped)).toEqual(expected.map((f) => f.path));
    expect(bundle.files.map((f) => f.path)).toEqual(expected.map((f) => f.path));
    expect(new TextDecoder().decode(unzipped['README.md'])).toBe(
      expected.find((f) => f.path === 'README.md')?.contents,
    );
  });

  it('is byte-identical across two exports', () => {
    expect(Buffer.from(evidenceZip(run, sql).bytes).equals(Buffer.from(evidenceZip(run, sql).bytes))).toBe(true);
  });
});

describe('skill zip', () => {
  it('holds exactly buildSkill’s files, in the mcp-reliability-reviewer folder, and is the same bytes each time', () => {
    const bundle = skillZip();
    const unzipped = unzipSync(bundle.bytes);
    const expected = buildSkill();
    expect(Object.keys(unzipped)).toEqual(expected.map((f) => f.path));
    for (const file of expected) expect(new TextDecoder().decode(unzipped[file.path])).toBe(file.contents);
    expect(Object.keys(unzipped).every((path) => path.startsWith('mcp-reliability-reviewer/'))).toBe(true);
    expect(Buffer.from(skillZip().bytes).equals(Buffer.from(bundle.bytes))).toBe(true);
  });
});

describe('reviewer', () => {
  it('flags the unsafe charge retried without a key, and passes the safe one without unsafe flags', () => {
    const unsafe = reviewLab(unsafeCharge);
    expect(unsafe.ok).toBe(true);
    if (unsafe.ok)
      expect(unsafe.review.flags.some((f) => f.severity === 'unsafe' && f.field.startsWith('/retry'))).toBe(true);
    const safe = reviewLab(safeCharge);
    expect(safe.ok && safe.review.flags.filter((f) => f.severity === 'unsafe')).toEqual([]);
  });

  it('answers invalid input field by field', () => {
    const result = reviewLab({ ...unsafeCharge, transport: 'pigeon' });
    expect(result).toEqual({ ok: false, errors: [expect.objectContaining({ field: '/transport' })] });
  });
});

describe('panel views', () => {
  it('buffer: a smaller capacity drops more, the finals survive, the refetch mark is set', () => {
    const small = runPanel(run, 'buffer-overload', { settings: { capacity: 4 } }) as BufferView;
    const large = runPanel(run, 'buffer-overload', { settings: { capacity: 32 } }) as BufferView;
    expect(small.kind).toBe('buffer');
    expect(small.dropped).toBeGreaterThan(large.dropped);
    expect(small.points.every((p) => p.occupancyEvents <= 4)).toBe(true);
    expect(small.finalDelivered).toBe(true);
    expect(small.finals.length).toBeGreaterThan(0);
    expect(small.finals.every((p) => p.action !== 'dropped')).toBe(true);
    expect(small.needsRefetch).toBe(small.refetchMark !== null);
  });

  it('herd: the series and the numbers move with the policy', () => {
    const jitter = runPanel(run, 'herd', { settings: { clients: 2000 } }) as HerdView;
    const none = runPanel(run, 'herd', { settings: { clients: 2000, policy: 'none' } }) as HerdView;
    expect(jitter).toMatchObject({ kind: 'herd', clients: 2000, policy: 'full-jitter' });
    expect(jitter.attemptsPerWindow.reduce((a, b) => a + b, 0)).toBe(jitter.totalAttempts);
    expect(none.totalAttempts).not.toBe(jitter.totalAttempts);
  });

  it('tasks, proxy and reconnect: the status trace, the headers, the plan', () => {
    const tasks = runPanel(run, 'task-cancel-ack') as TasksView;
    expect(tasks.rows.map((r) => r.action)).toContain('cancel-acknowledged');
    const proxy = runPanel(run, 'proxy-buffering', {
      transport: 'http',
      settings: { honourNoBuffering: true },
    }) as ProxyView;
    expect(proxy.honourNoBuffering).toBe(true);
    expect(proxy.outcome.sseHeaders).toMatchObject({ 'X-Accel-Buffering': 'no' });
    const reconnect = runPanel(run, 'reconnect-listen') as ReconnectView;
    expect(reconnect.outcome.reconnectPlan.refetch).toContain('tools/list');
  });

  it('refuses a scenario without a panel', () => {
    expect(() => runPanel(run, 'A')).toThrow(/no panel/);
  });

  it('reports the first 100 field errors and the count of all', () => {
    const result = reviewLab({
      ...unsafeCharge,
      recovery: { ...unsafeCharge.recovery, refetch: Array.from({ length: 5_000 }, () => 0) },
    });
    expect(result).toMatchObject({ ok: false, errorsTotal: 5_000 });
    if (!result.ok) expect(result.errors).toHaveLength(100);
  });
});
