import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { processSource, splitCommand, type ProcessComponentSource, type ProcessSourceOptions } from './processRuntime';
import { StudentCodeError } from './runtime';
import type { Json } from './types';

/** Real python3 and real processes: each test starts its own and closes it. */

const FIXTURES = fileURLToPath(new URL('./fixtures/python/', import.meta.url));
const fixture = (name: string) => `${FIXTURES}${name}`;

const opened: ProcessComponentSource[] = [];
function source(command: string, options?: ProcessSourceOptions): ProcessComponentSource {
  const created = processSource(command, options);
  opened.push(created);
  return created;
}
afterEach(() => {
  for (const each of opened.splice(0)) each.close();
});

/** The StudentCodeError `run` throws (fails the test if it throws anything else, or nothing). */
function codeError(run: () => unknown): StudentCodeError {
  try {
    run();
  } catch (error) {
    if (error instanceof StudentCodeError) return error;
    throw error;
  }
  throw new Error('expected a StudentCodeError, nothing was thrown');
}

/** Whether a process runs (a zombie waiting for its parent to reap it has ended: it counts as gone). */
function alive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

async function gone(pid: number, withinMs = 3000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !alive(pid);
}

const progress = (token: string, n: number): Json => ({ kind: 'progress', token, progress: n, total: 10 });
const final = (requestId: number): Json => ({ kind: 'final', requestId, message: `done ${requestId}` });

describe('splitCommand', () => {
  it('splits on blanks and keeps quoted words whole, without a shell', () => {
    expect(splitCommand('python3 my_buffer.py')).toEqual(['python3', 'my_buffer.py']);
    expect(splitCommand(`  python3   'my dir/buf.py' "a \\"b\\" \\$c" d\\ e ''  `)).toEqual([
      'python3',
      'my dir/buf.py',
      'a "b" $c',
      'd e',
      '',
    ]);
    expect(splitCommand('echo $HOME|cat')).toEqual(['echo', '$HOME|cat']);
  });

  it('refuses an unterminated quote and an empty command as process errors', () => {
    expect(codeError(() => splitCommand('python3 "my_buffer.py')).kind).toBe('process');
    expect(codeError(() => splitCommand("python3 'x")).message).toMatch(/unterminated ' quote/);
    expect(codeError(() => splitCommand('   ')).message).toMatch(/empty/);
  });
});

describe('processSource over python3', () => {
  it('calls, makes and calls methods of the reference buffer', () => {
    const buffer = source(`python3 ${fixture('buffer_ref.py')}`);
    const component = buffer.open();
    expect(buffer.pid).toBeGreaterThan(0);
    const h = component.make('createBuffer', [2]);
    expect(h).toBe(0);
    expect(component.method(h, 'offer', [progress('a', 1)])).toBe('queued');
    expect(component.method(h, 'offer', [progress('a', 2)])).toBe('coalesced');
    expect(component.method(h, 'offer', [final(7)])).toBe('queued');
    // Full, holding [progress a, final 7]: the oldest progress goes.
    expect(component.method(h, 'offer', [progress('b', 1)])).toBe('dropped-oldest');
    expect(component.method(h, 'offer', [final(8)])).toBe('dropped-oldest');
    // Full of finals: a final is refused, a progress is the one dropped.
    expect(component.method(h, 'offer', [final(9)])).toBe('refused');
    expect(component.method(h, 'offer', [progress('c', 1)])).toBe('dropped-oldest');
    expect(component.method(h, 'take', [])).toEqual({
      kind: 'final',
      requestId: 7,
      message: 'done 7',
      needsRefetch: true,
    });
    expect(component.method(h, 'take', [])).toEqual({ kind: 'final', requestId: 8, message: 'done 8' });
    expect(component.method(h, 'take', [])).toBeNull();
    // A second object is independent of the first.
    const other = component.make('createBuffer', [1]);
    expect(other).toBe(1);
    expect(component.method(other, 'offer', [final(1)])).toBe('queued');
    expect(component.method(h, 'offer', [final(2)])).toBe('queued');
  });

  it('tells the planted buffer bug from the reference: the wrong one drops a final', () => {
    const outcome = (file: string) => {
      const component = source(`python3 ${fixture(file)}`).open();
      const h = component.make('createBuffer', [2]);
      const offered = [final(1), final(2), final(3)].map((item) => component.method(h, 'offer', [item]));
      const taken = [component.method(h, 'take', []), component.method(h, 'take', [])];
      return { offered, taken };
    };
    expect(outcome('buffer_ref.py')).toEqual({ offered: ['queued', 'queued', 'refused'], taken: [final(1), final(2)] });
    expect(outcome('buffer_wrong.py')).toEqual({
      offered: ['queued', 'queued', 'dropped-oldest'],
      taken: [{ ...(final(2) as Record<string, Json>), needsRefetch: true }, final(3)],
    });
  });

  // The contract speaks of 10,000 clients (backoff_ref.py's busiest window holds 41.2% of them); 3,000 show
  // the same spread (42.2%) in a third of the calls.
  it('spreads the reference backoff (no 100 ms window holds half the clients); the wrong one herds', () => {
    const busiestWindow = (file: string, clients: number) => {
      const component = source(`python3 ${fixture(file)}`).open();
      const counts = new Map<number, number>();
      for (let client = 0; client < clients; client += 1) {
        const delay = component.call('backoffDelayMs', [`client-${client}`, 0]);
        if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > 250)
          throw new Error(`delay out of range: ${String(delay)}`);
        counts.set(delay, (counts.get(delay) ?? 0) + 1);
      }
      let busiest = 0;
      for (let start = 0; start <= 250; start += 1) {
        let inWindow = 0;
        for (let ms = start; ms < start + 100; ms += 1) inWindow += counts.get(ms) ?? 0;
        busiest = Math.max(busiest, inWindow);
      }
      expect(component.call('backoffDelayMs', ['client-1', 10])).toBeLessThanOrEqual(8000);
      expect(component.call('backoffDelayMs', ['client-1', 3])).toBe(component.call('backoffDelayMs', ['client-1', 3]));
      return busiest;
    };
    expect(busiestWindow('backoff_ref.py', 3000)).toBeLessThanOrEqual(1500);
    // Without jitter every client waits the same 250 ms: one window holds them all (a few hundred show it).
    expect(busiestWindow('backoff_wrong.py', 200)).toBe(200);
  }, 20_000);

  it('starts each instance afresh on reset: module state, objects and handles', () => {
    const testbed = source(`python3 ${fixture('testbed.py')}`);
    const first = testbed.open();
    const pid = testbed.pid;
    expect(first.call('count', [])).toBe(1);
    expect(first.call('count', [])).toBe(2);
    const counter = first.make('makeCounter', [5]);
    expect(first.method(counter, 'addOne', [])).toBe(6);
    const second = testbed.open();
    expect(testbed.pid).toBe(pid); // reset, not a restart
    expect(second.call('count', [])).toBe(1);
    expect(second.make('makeDictCounter', [10])).toBe(0);
    expect(second.method(0, 'bump', [])).toBe(11);
    expect(() => first.call('count', [])).toThrow(/replaced by a newer open/);
    expect(second.call('echo', [null, [1, 'two'], { three: true }])).toEqual([null, [1, 'two'], { three: true }]);
  });

  it("maps an exception in Python to kind 'exception' with its line, and goes on", () => {
    const testbed = source(`python3 ${fixture('testbed.py')}`);
    const component = testbed.open();
    const lines = readFileSync(fixture('testbed.py'), 'utf8').split('\n');
    const raiseLine = lines.findIndex((line) => line.includes('raise ValueError("boom")')) + 1;
    expect(raiseLine).toBeGreaterThan(0);
    const error = codeError(() => component.call('boom', []));
    expect(error.kind).toBe('exception');
    expect(error.message).toBe('ValueError: boom');
    expect(error.line).toBe(raiseLine);
    expect(codeError(() => component.call('notJson', [])).message).toMatch(/not JSON/);
    expect(codeError(() => component.call('noSuchExport', [])).kind).toBe('exception');
    expect(component.call('say', ['a print() goes to stderr'])).toBeNull();
    expect(component.call('count', [])).toBe(1);
  });

  it("ends a process that does not answer in time with 'budget', and it is gone", async () => {
    const testbed = source(`python3 ${fixture('testbed.py')}`, { callTimeoutMs: 800 });
    const component = testbed.open();
    const pid = component.call('pid', []);
    expect(pid).toBe(testbed.pid);
    const started = Date.now();
    const error = codeError(() => component.call('sleepForever', []));
    const elapsed = Date.now() - started;
    expect(error.kind).toBe('budget');
    expect(error.message).toMatch(/did not answer call sleepForever within 800 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(790);
    expect(elapsed).toBeLessThan(4000);
    expect(alive(Number(pid))).toBe(false);
    // Sticky: the source has no process any more.
    expect(codeError(() => testbed.open()).kind).toBe('budget');
  });

  it("reports a program that prints what is not JSON as 'process', quoting the line", () => {
    const error = codeError(() => source(`python3 ${fixture('noisy.py')}`).open());
    expect(error.kind).toBe('process');
    expect(error.message).toMatch(
      /^line 1 of the process output is not JSON: "hello from a program that prints plain text"/,
    );
  });

  it('catches a program that does not speak the protocol at hello', () => {
    const error = codeError(() => source('cat').open());
    expect(error.kind).toBe('process');
    expect(error.message).toMatch(/answer to hello, is not an object with "ok".*does not speak the lab's protocol/);
  });

  it("reports a command that does not exist as 'process', not a crash", () => {
    const missing = source('definitely-not-a-lab-command --flag');
    const error = codeError(() => missing.open());
    expect(error.kind).toBe('process');
    expect(error.message).toBe(
      'the command "definitely-not-a-lab-command" was not found on PATH: is it installed, and is the name right?',
    );
    expect(codeError(() => source('python3 x.py', { cwd: '/no/such/folder' }).open()).message).toMatch(
      /does not exist/,
    );
    expect(codeError(() => source('python3 "unterminated').open()).message).toMatch(/unterminated/);
  });

  it("reports a Python file that does not compile as 'syntax', with its line", () => {
    const folder = mkdtempSync(join(tmpdir(), 'lab-syntax-'));
    try {
      writeFileSync(
        join(folder, 'broken.py'),
        'from labproto import serve\n\ndef offer(item:\n    return 1\n\nserve({"offer": offer})\n',
      );
      const error = codeError(() => source('python3 broken.py', { cwd: folder }).open());
      expect(error.kind).toBe('syntax');
      expect(error.line).toBe(3);
      expect(error.message).toMatch(/^SyntaxError: .*\(broken\.py, line 3\)$/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('reports a process that exits with its code and the end of its stderr', () => {
    const component = source(`python3 ${fixture('testbed.py')}`).open();
    const error = codeError(() => component.call('exitNow', [3]));
    expect(error.kind).toBe('process');
    expect(error.message).toMatch(
      /^the process exited with code 3 \(the lab was waiting for the answer to call exitNow\); the end of its stderr:\n.*testbed: about to exit with 3/s,
    );
  });

  it('reports an answer line over 1 MiB as a process error', () => {
    const component = source(`python3 ${fixture('testbed.py')}`).open();
    expect(component.call('big', [1000])).toBe('x'.repeat(1000));
    const error = codeError(() => component.call('big', [1_200_000]));
    expect(error.kind).toBe('process');
    expect(error.message).toMatch(/is longer than 1048576 bytes/);
  });

  it('close() ends the process group, grandchildren included, and may be called twice', async () => {
    const testbed = source(`python3 ${fixture('testbed.py')}`);
    const component = testbed.open();
    const pid = Number(component.call('pid', []));
    const grandchild = Number(component.call('spawnGrandchild', []));
    expect(alive(pid)).toBe(true);
    expect(alive(grandchild)).toBe(true);
    testbed.close();
    testbed.close();
    expect(await gone(pid)).toBe(true);
    expect(await gone(grandchild)).toBe(true);
    expect(() => testbed.open()).toThrow(/after close/);
  });
});
