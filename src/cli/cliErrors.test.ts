// Proves bad paths, bad files and hostile input get a catalogued LAB message naming the path and what to do,
// never a Node stack trace; evidence --out never overwrites or follows a symlink out of its folder; control
// characters from input are escaped; prototype names are unknown settings.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lab } from './captured';
import { loadSqlJs } from './sqlite';
import { escapeControl } from './safeOutput';

const ROOT = resolve(import.meta.dirname, '../..');

/** Any control character but the newline that ends a line. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ESC = /\u001b/;

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

describe('--ledger paths are checked before the run', () => {
  it('a folder', async () => {
    const dir = tmp('lab-dir-');
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', dir);
    expect(r).toMatchObject({ code: 1, err: expect.stringMatching(new RegExp(`LAB012.*${dir}.* is a folder`)) });
  });
  it('a missing parent folder', async () => {
    const path = join(tmp('lab-np-'), 'missing', 'l.sqlite');
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', path);
    expect(r).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB012 .*missing\/l.sqlite.*folder that does not exist.*create the folder/),
    });
    expect(r.out).toBe('');
  });
  it('a read-only file, left as it was', async () => {
    const path = join(tmp('lab-ro-'), 'l.sqlite');
    expect((await lab('run', 'ledger-keyed-retry', '--ledger', path)).code).toBe(0);
    const before = readFileSync(path);
    chmodSync(path, 0o444);
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', path);
    expect(r).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB012 .*l.sqlite is read-only; make it writable/),
    });
    expect(readFileSync(path)).toEqual(before);
  });
  it('a ledger with an altered table', async () => {
    const path = join(tmp('lab-alt-'), 'l.sqlite');
    expect((await lab('run', 'ledger-keyed-retry', '--ledger', path)).code).toBe(0);
    const sql = await loadSqlJs();
    const db = new sql.Database(readFileSync(path));
    db.exec('ALTER TABLE effects RENAME COLUMN amount TO cents');
    writeFileSync(path, db.export());
    db.close();
    const before = readFileSync(path);
    const r = await lab('run', 'ledger-keyed-retry', '--ledger', path);
    expect(r).toMatchObject({ code: 1, out: '', err: expect.stringMatching(/LAB010 .*effects/) });
    expect(readFileSync(path)).toEqual(before);
  });
  it('a second run waits for the lock, then gives up with LAB013', async () => {
    const path = join(tmp('lab-lock-'), 'l.sqlite');
    const { openLedgerFile } = await import('./ledgerFile');
    const held = await openLedgerFile(path);
    process.env.LAB_LEDGER_WAIT_MS = '300';
    try {
      const r = await lab('run', 'ledger-keyed-retry', '--ledger', path);
      expect(r).toMatchObject({ code: 1, err: expect.stringMatching(/LAB013 .*l.sqlite is in use by another run/) });
    } finally {
      delete process.env.LAB_LEDGER_WAIT_MS;
      await held.release();
    }
    expect((await lab('run', 'ledger-keyed-retry', '--ledger', path)).code).toBe(0);
  });
});

describe('evidence --out', () => {
  it('"" , a file and a read-only folder are refused with LAB014', async () => {
    expect(await lab('evidence', '--out', '')).toMatchObject({ code: 1, err: expect.stringMatching(/LAB014 /) });
    const file = join(tmp('lab-ev-'), 'file.txt');
    writeFileSync(file, 'mine');
    expect(await lab('evidence', '--out', file)).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB014 .*file.txt is a file, not a folder/),
    });
    expect(readFileSync(file, 'utf8')).toBe('mine');
    const locked = tmp('lab-ev-ro-');
    chmodSync(locked, 0o555);
    expect(await lab('evidence', '--out', join(locked, 'out'))).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LAB014 .*cannot write/),
    });
    expect(existsSync(join(locked, 'out'))).toBe(false);
  });

  it('a folder with other files is refused without --force; --force never follows a symlink out of it', async () => {
    const parent = tmp('lab-ev-sym-');
    const out = join(parent, 'out');
    mkdirSync(out);
    writeFileSync(join(parent, 'victim.txt'), 'do not touch');
    symlinkSync('../victim.txt', join(out, 'README.md'));
    writeFileSync(join(out, 'notes.txt'), 'mine');
    const refused = await lab('evidence', '--out', out);
    expect(refused).toMatchObject({ code: 1, err: expect.stringMatching(/LAB014 .*out is not empty.*--force/) });
    expect(lstatSync(join(out, 'README.md')).isSymbolicLink()).toBe(true);
    const forced = await lab('evidence', '--out', out, '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(join(parent, 'victim.txt'), 'utf8')).toBe('do not touch');
    expect(lstatSync(join(out, 'README.md')).isFile()).toBe(true);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toMatch(/VF-12/);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('a new folder is written whole', async () => {
    const out = join(tmp('lab-ev-new-'), 'evidence');
    expect((await lab('evidence', '--out', out)).code).toBe(0);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toMatch(/VF-12/);
  });
});

describe('input never reaches the terminal raw', () => {
  it('escapeControl escapes C0, C1, DEL and bidi controls, keeps text', () => {
    expect(escapeControl('ok é ✓')).toBe('ok é ✓');
    expect(escapeControl('\u001b]0;pwned\u0007\r\nforged\u009b\u202e\u007f')).toBe(
      '\\x1b]0;pwned\\x07\\r\\nforged\\x9b\\u202e\\x7f',
    );
  });

  it('review escapes operation names and unknown keys', async () => {
    const file = join(tmp('lab-esc-'), 'x.json');
    const input = JSON.parse(readFileSync(join(ROOT, 'src/lesson/examples/unsafe-charge.json'), 'utf8'));
    input.operation.name = '\u001b]0;pwned\u0007\u001b[2J';
    writeFileSync(file, JSON.stringify(input));
    const ok = await lab('review', file);
    expect(ok.out + ok.err).not.toMatch(RAW_CONTROL);
    expect(ok.out).toMatch(/\\x1b\]0;pwned\\x07/);
    input['\u001b[2Jevil\nFLAGS: none'] = 1;
    writeFileSync(file, JSON.stringify(input));
    const bad = await lab('review', file);
    expect(bad.code).toBe(1);
    expect(bad.out + bad.err).not.toMatch(RAW_CONTROL);
    expect(bad.err).toMatch(/\\x1b\[2Jevil\\nFLAGS/);
  });

  it('an unknown scenario id with escape codes is escaped', async () => {
    const r = await lab('run', '\u001b[2Jx');
    expect(r.err).not.toMatch(ESC);
    expect(r.err).toMatch(/LAB001.*\\x1b\[2Jx/);
  });

  for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
    it(`--set ${key}=1 is an unknown setting (LAB004)`, async () => {
      const r = await lab('run', 'A', '--set', `${key}=1`);
      expect(r).toMatchObject({
        code: 1,
        err: expect.stringMatching(new RegExp(`LAB004 .*"${key}" is not a setting`)),
      });
    });
  }

  it('piping --json into head ends quietly (no EPIPE stack trace)', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/cli/lab.ts'), 'run', 'C', '--json', '--set', 'progressEveryMs=1'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (chunk) => (err += String(chunk)));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((done) => child.on('close', done));
    expect(err).toBe('');
    expect(code).toBe(0);
  });
});

describe('a runaway run', () => {
  it('is stopped by its wall-clock budget with LAB016 and saves nothing', async () => {
    const started = performance.now();
    const r = await lab(
      'run',
      'herd',
      '--set',
      'clients=100000',
      '--set',
      'admitPerWindow=1',
      '--set',
      'eventsMax=100000000',
      '--set',
      'attemptsMax=1000000',
      '--budget-ms',
      '300',
    );
    expect(r).toMatchObject({ code: 1, out: '', err: expect.stringMatching(/LAB016 .*budget of 300 ms/) });
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
