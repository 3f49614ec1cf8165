// Proves the command line lists and runs scenarios A–D on both transports, prints JSON that equals the engine's transcript, and refuses bad arguments with a clear message and a non-zero exit.
import { describe, expect, it } from 'vitest';
import { lab } from './captured';
import { withLanes } from '../engine';
import { runScenarioById, scenarios } from '../scenarios/index';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSqlJs } from './sqlite';

describe('npm run lab', () => {
  it('list names every scenario', async () => {
    const { code, out } = await lab('list');
    expect(code).toBe(0);
    for (const { id } of scenarios) expect(out).toMatch(new RegExp(`^${id} `, 'm'));
  });

  for (const id of ['A', 'B', 'C', 'D']) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`run ${id} --transport ${transport} --json prints the transcript`, async () => {
        const { code, out } = await lab('run', id, '--transport', transport, '--json');
        expect(code).toBe(0);
        expect(out).toBe(`${JSON.stringify(withLanes(runScenarioById(id, { transport })), null, 2)}\n`);
      });
    }
  }

  it('run prints a readable timeline with the seed and settings first and the outcome last', async () => {
    const { code, out } = await lab('run', 'C', '--seed', '7', '--set', 'latencyMs=3');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[1]).toBe('transport=stdio seed=7 protocol=2026-07-28');
    expect(lines[2]).toMatch(/^settings .*latencyMs=3 /);
    expect(out).toMatch(/terminal state\s+timeout-max \(at 2000 ms\)/);
    expect(out).toMatch(/reproduce: npm run lab -- run C --transport stdio --seed 7/);
  });

  it('--set parses booleans, enums and none', async () => {
    const { code, out } = await lab(
      'run',
      'D',
      '--set',
      'httpCancel=post-notification',
      '--set',
      'progressToken=false',
      '--set',
      'cancelAtMs=none',
      '--json',
    );
    expect(code).toBe(0);
    expect(JSON.parse(out).settings).toMatchObject({
      httpCancel: 'post-notification',
      progressToken: false,
      cancelAtMs: null,
    });
  });

  it('verify prints VF-1 … VF-12, all ok', async () => {
    const { code, out } = await lab('verify');
    expect(code).toBe(0);
    expect(
      out
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('ok   VF-')),
    ).toHaveLength(12);
  });

  it('evidence --out DIR writes the artifacts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-evidence-'));
    const { code } = await lab('evidence', '--out', dir);
    expect(code).toBe(0);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toMatch(/\[x\] \*\*VF-12\*\*/);
    expect(JSON.parse(readFileSync(join(dir, 'reconnect-plan.json'), 'utf8')).sendLastEventId).toBe(false);
  });

  it('review FILE.json flags an unsafe mutation retried without a key; invalid input is answered field by field', async () => {
    const unsafe = await lab('review', 'src/lesson/examples/unsafe-charge.json');
    expect(unsafe.code).toBe(0);
    expect(unsafe.out).toMatch(/UNSAFE \/retry\/automatic: a retry under a new JSON-RPC id runs the mutation again/);
    const file = join(mkdtempSync(join(tmpdir(), 'lab-review-')), 'bad.json');
    writeFileSync(file, JSON.stringify({ transport: 'tcp' }));
    const bad = await lab('review', file);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/\/transport: must be one of "stdio", "http"/);
    writeFileSync(file, '{ not json');
    expect((await lab('review', file)).err).toMatch(/is not readable JSON/);
  });

  it('retries prints the retry table with the hint warning', async () => {
    const { code, out } = await lab('retries');
    expect(code).toBe(0);
    expect(out).toMatch(/^send_receipt_email\s+unsafe\s+no automatic retry/m);
    expect(out).toMatch(/! idempotentHint says true/);
  });

  it('runs a ledger scenario on real SQLite and prints its outcome', async () => {
    const { code, out } = await lab('run', 'ledger-race-keyed');
    expect(code).toBe(0);
    expect(out).toMatch(/SQLITE_BUSY/);
    expect(out).toMatch(/^\s+executions\s+1$/m);
    expect(out).toMatch(/scope of this ledger \(LG-8\):\n {2}- .*atomic/);
  });

  it('--ledger FILE creates a SQLite file and reopens it on the next run', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lab-ledger-')), 'ledger.sqlite');
    const first = await lab('run', 'ledger-keyed-retry', '--ledger', file, '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out).outcome.executions).toBe(1);
    expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
    const second = await lab('run', 'ledger-keyed-retry', '--ledger', file, '--json');
    expect(JSON.parse(second.out).outcome).toMatchObject({ executions: 0, replayed: 2 });
    const sql = await loadSqlJs();
    const db = new sql.Database(readFileSync(file));
    expect(db.exec('SELECT count(*) FROM idempotency_keys')[0]?.values[0]?.[0]).toBe(1);
    db.close();
  });

  it('--ledger with a file that is not a ledger refuses and leaves it untouched', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lab-ledger-')), 'notes.txt');
    writeFileSync(file, 'these are my notes, not a database');
    const { code, err } = await lab('run', 'ledger-keyed-retry', '--ledger', file);
    expect(code).toBe(1);
    expect(err).toMatch(/LAB010.*not a SQLite database.*unchanged/);
    expect(readFileSync(file, 'utf8')).toBe('these are my notes, not a database');
    expect(existsSync(file)).toBe(true);
  });

  const bad: Array<[string[], number, RegExp]> = [
    [['run', 'A', '--ledger', '/tmp/x.sqlite'], 2, /--ledger applies to ledger and task scenarios/],
    [['run', 'Z'], 1, /LAB001.*"Z" is not a scenario; known: A, B, C, D/],
    [['run', 'A', '--transport', 'tcp'], 1, /LAB002/],
    [['run', 'A', '--seed', '4.5'], 1, /LAB003/],
    [['run', 'A', '--seed=99999999999'], 1, /LAB003/],
    [['run', 'A', '--set', 'latencyMs=fast'], 1, /LAB005.*latencyMs/],
    [['run', 'A', '--set', 'nope=1'], 1, /LAB004.*nope/],
    [['run', 'A', '--set', 'latencyMs'], 2, /--set takes key=value/],
    [['run'], 2, /exactly one scenario/],
    [['run', 'A', '--frobnicate'], 2, /frobnicate/],
    [['launch'], 2, /unknown command "launch"/],
  ];
  for (const [argv, exitCode, message] of bad) {
    it(`refuses: lab ${argv.join(' ')}`, async () => {
      const { code, out, err } = await lab(...argv);
      expect(code).toBe(exitCode);
      expect(out).toBe('');
      expect(err).toMatch(message);
    });
  }
});
