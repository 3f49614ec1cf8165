// Proves the --ledger file survives a SIGKILL in the middle of its save and two runs writing it at once (LG-7):
// every kill leaves a file SQLite opens as the old or the new ledger, and two concurrent writers lose no committed row.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LedgerFile } from '../engine';
import { main } from './main';
import { loadSqlJs } from './sqlite';

const ROOT = resolve(import.meta.dirname, '../..');
const LAB = ['--import', 'tsx', join(ROOT, 'src/cli/lab.ts')];

function spawnLab(args: string[]) {
  return spawn(process.execPath, [...LAB, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

function runLab(args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((done) => {
    const child = spawnLab(args);
    let err = '';
    child.stderr.on('data', (chunk) => (err += String(chunk)));
    child.stdout.resume();
    child.on('close', (code) => done({ code, err }));
  });
}

async function effects(path: string): Promise<number> {
  const file = LedgerFile.open(await loadSqlJs(), new Uint8Array(readFileSync(path)));
  try {
    return Number(file.query('SELECT count(*) AS n FROM effects')[0]?.n);
  } finally {
    file.close();
  }
}

/** A valid ledger of about `rows` × 100 bytes, so that saving it takes long enough to be killed in the middle. */
async function bigLedger(path: string, rows: number): Promise<void> {
  const file = LedgerFile.open(await loadSqlJs(), null);
  const db = file.connect('fill');
  db.run('BEGIN');
  const pad = 'x'.repeat(60);
  for (let i = 0; i < rows; i++)
    db.run(
      'INSERT INTO ledger.effects (operation, subject, amount, tenant, request_id, connection, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ['charge', `${pad}${i}`, i, null, String(i), 'fill', i],
    );
  db.run('COMMIT');
  writeFileSync(path, file.export());
  file.close();
}

describe('--ledger FILE under crashes and concurrent runs', () => {
  it('a SIGKILL during the save leaves the old or the new ledger, never a broken file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-kill-'));
    const path = join(dir, 'big.sqlite');
    await bigLedger(path, 200_000);
    const before = await effects(path);
    const iterations = Number(process.env.LAB_KILL_ITERATIONS ?? 8);
    let killedMidSave = 0;
    let last = before;
    for (let i = 0; i < iterations; i++) {
      const child = spawnLab(['run', 'ledger-new-id-retry', '--ledger', path]);
      child.stdout.resume();
      child.stderr.resume();
      // Kill as soon as the save starts touching the folder (a temporary file appears or the ledger changes), plus a little.
      const watcher = watch(dir, (_event, name) => {
        if (name === null || name.endsWith('.lock')) return;
        watcher.close();
        setTimeout(() => child.kill('SIGKILL'), i % 4);
      });
      await new Promise((done) => child.on('close', done));
      watcher.close();
      if (readdirSync(dir).some((name) => name.endsWith('.tmp'))) killedMidSave += 1;
      // Either this run's two effects are all there or none of them is; nothing saved before is lost.
      const count = await effects(path);
      expect(count - last === 0 || count - last === 2, `iteration ${i}: ${last} effects before, ${count} after`).toBe(
        true,
      );
      last = count;
    }
    expect(existsSync(path)).toBe(true);
    console.info(
      `kill-during-save: ${iterations} kills, ${killedMidSave} left a temporary file behind (killed mid-save); the ledger opened every time`,
    );
  }, 300_000);

  it('two runs on one file at once commit every effect: 3 rounds × 2 runs × 2 effects = 12', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lab-writers-')), 's.sqlite');
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([
        runLab(['run', 'ledger-new-id-retry', '--ledger', path]),
        runLab(['run', 'ledger-new-id-retry', '--ledger', path]),
      ]);
      for (const result of results) expect(result, result.err).toMatchObject({ code: 0 });
    }
    expect(await effects(path)).toBe(12);
  }, 120_000);

  it('run task-cancel-ack --ledger FILE creates and saves the file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lab-task-')), 't.sqlite');
    const code = await main(['run', 'task-cancel-ack', '--ledger', path], {
      out: () => undefined,
      err: () => undefined,
    });
    expect(code).toBe(0);
    expect(existsSync(path)).toBe(true);
    const file = LedgerFile.open(await loadSqlJs(), new Uint8Array(readFileSync(path)));
    expect(file.query('SELECT count(*) AS n FROM tasks')[0]?.n).toBe(1);
    file.close();
  });
});
