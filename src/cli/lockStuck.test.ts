// Proves the --ledger lock never spins: a lock left by a dead run that the lab cannot rename away ends
// in a catalogued LAB012 naming it, within the wait limit and without burning the CPU; a lock the lab
// cannot remove after its run is reported with what happened to the run, never as a raw EPERM stack.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lab } from './captured';

/** A pid that was alive a moment ago and is gone now: what a SIGKILLed run leaves in its lock. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(String(child.stdout));
}

function plantStaleLock(ledger: string): void {
  mkdirSync(`${ledger}.lock`);
  writeFileSync(join(`${ledger}.lock`, 'owner.json'), JSON.stringify({ pid: deadPid(), host: hostname() }));
}

const appendOnly: string[] = [];
afterEach(() => {
  for (const dir of appendOnly.splice(0)) spawnSync('chattr', ['-a', dir]);
  delete process.env.LAB_LEDGER_WAIT_MS;
});

describe('a stale lock the lab cannot simply rename', () => {
  it('with a name near the file system limit, is broken and the run goes on', async () => {
    const ledger = join(mkdtempSync(join(tmpdir(), 'lab-long-')), `${'l'.repeat(240)}.sqlite`);
    plantStaleLock(ledger);
    process.env.LAB_LEDGER_WAIT_MS = '2000';
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', ledger);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(existsSync(`${ledger}.lock`)).toBe(false);
  }, 15_000);

  it('in an append-only folder (chattr +a, as root): LAB012 at once, not a spin until killed', async () => {
    expect(process.getuid?.(), 'this test makes a folder append-only, which needs root').toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'lab-append-'));
    const ledger = join(dir, 'F.sqlite');
    plantStaleLock(ledger);
    expect(spawnSync('chattr', ['+a', dir]).status).toBe(0);
    appendOnly.push(dir);
    process.env.LAB_LEDGER_WAIT_MS = '2000';
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', ledger);
    expect(r).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(
        /LAB012 .*F.sqlite.lock is left by process \d+, which is gone, and the lab cannot remove it \(EPERM\); nothing was read or written/,
      ),
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(process.cpuUsage(cpuBefore).user / 1000).toBeLessThan(1_500);
  }, 15_000);

  it('a run in an append-only folder says its save failed and the lock stays, without a stack', async () => {
    expect(process.getuid?.(), 'this test makes a folder append-only, which needs root').toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'lab-append-'));
    expect(spawnSync('chattr', ['+a', dir]).status).toBe(0);
    appendOnly.push(dir);
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', join(dir, 'F.sqlite'));
    expect(r.err).not.toMatch(/THREW|at .*\.ts:/);
    expect(JSON.parse(readFileSync(join(dir, 'F.sqlite.lock', 'owner.json'), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    expect(r).toMatchObject({
      code: 1,
      err: expect.stringMatching(
        /LAB012 .*F.sqlite could not be saved \(EPERM\); the ledger file there is unchanged; then .*F.sqlite.lock could not be removed after the run \(EPERM\)/,
      ),
    });
    // The lock names this test process, which lives on; the next run of a user comes after its owner exited.
    writeFileSync(join(dir, 'F.sqlite.lock', 'owner.json'), JSON.stringify({ pid: deadPid(), host: hostname() }));
    process.env.LAB_LEDGER_WAIT_MS = '2000';
    const again = await lab('run', 'ledger-keyed-retry', '--ledger', join(dir, 'F.sqlite'));
    expect(again).toMatchObject({
      code: 1,
      err: expect.stringMatching(
        /LAB012 .*F.sqlite.lock is left by process \d+, which is gone, and the lab cannot remove it \(EPERM\)/,
      ),
    });
  }, 15_000);
});
