// Proves `lab review` reads with a limit whatever the file is: a device that never ends, a pipe that never
// ends and a FIFO nobody writes each end in a catalogued LAB error, bounded in memory and in time.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lab } from './captured';
import { readBounded } from './boundedRead';

const fifo = () => {
  const path = join(mkdtempSync(join(tmpdir(), 'lab-fifo-')), 'in.json');
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
};

describe('review reads at most its limit', () => {
  it('/dev/zero, whose size reads as 0, is refused with LAB015 after the limit', async () => {
    const r = await lab('review', '/dev/zero');
    expect(r).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(
        /LAB015 .*\/dev\/zero holds more than the reviewer reads \(1048576 bytes\).*not a regular file/,
      ),
    });
  });

  it('a pipe that never ends (yes) is refused with LAB015', async () => {
    const path = fifo();
    const writer = spawn('sh', ['-c', `exec yes > '${path}'`], { stdio: 'ignore' });
    try {
      const r = await lab('review', path);
      expect(r).toMatchObject({
        code: 1,
        err: expect.stringMatching(/LAB015 .*in.json holds more than the reviewer reads/),
      });
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('a FIFO without a writer, or whose writer stays silent, ends with LAB027 within its time limit', () => {
    const path = fifo();
    const started = Date.now();
    expect(() => readBounded(path, 100, 'reviewer', 300)).toThrow(
      /LAB027 .*in.json delivered 0 bytes and did not end within 300 ms/,
    );
    const silent = spawn('sh', ['-c', `exec sleep 30 > '${path}'`], { stdio: 'ignore' });
    try {
      expect(() => readBounded(path, 100, 'reviewer', 300)).toThrow(/LAB027 /);
    } finally {
      silent.kill('SIGKILL');
    }
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a FIFO whose writer sends a design and closes is reviewed', async () => {
    const path = fifo();
    const writer = spawn('sh', ['-c', `exec cat src/lesson/examples/safe-charge.json > '${path}'`], {
      stdio: 'ignore',
    });
    const r = await lab('review', path);
    writer.kill('SIGKILL');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/charge/);
  });

  it('a regular file over the limit is refused by its size before it is read', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lab-big-')), 'big.json');
    writeFileSync(path, 'x'.repeat(101));
    expect(() => readBounded(path, 100, 'reviewer')).toThrow(
      /LAB015 .*big.json is 101 bytes, more than the reviewer reads \(100\)/,
    );
  });
});
