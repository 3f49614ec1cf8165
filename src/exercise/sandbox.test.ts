import { beforeAll, describe, expect, it } from 'vitest';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { StudentCodeError } from './runtime';
import { DEFAULT_LIMITS, loadQuickJs, sandboxSource } from './sandbox';

let qjs: QuickJSWASMModule;
beforeAll(async () => {
  qjs = await loadQuickJs();
});

function failure(run: () => unknown): StudentCodeError {
  try {
    run();
  } catch (error) {
    if (error instanceof StudentCodeError) return error;
    throw error;
  }
  throw new Error('expected the student code to fail');
}

describe('the QuickJS sandbox', () => {
  it('calls exports and methods with JSON in and out, and a fresh instance starts anew', () => {
    const source = sandboxSource(
      qjs,
      'let calls = 0;\nexport function count() { calls += 1; return calls; }\nexport function make(n) { return { add(x) { n += x; return { n }; } }; }',
      ['count', 'make'],
    );
    const first = source.open();
    expect(first.call('count', [])).toBe(1);
    expect(first.call('count', [])).toBe(2);
    const handle = first.make('make', [10]);
    expect(first.method(handle, 'add', [5])).toEqual({ n: 15 });
    first.dispose();
    const second = source.open();
    expect(second.call('count', [])).toBe(1);
    second.dispose();
    source.close();
  });

  it('names the line and column of a syntax error, before any run', () => {
    const error = failure(() => sandboxSource(qjs, 'export function f() {\n  return {;\n}', ['f']));
    expect(error.kind).toBe('syntax');
    expect(error.line).toBe(2);
    expect(error.column).toBeGreaterThan(0);
  });

  it('refuses a module that lacks an export the exercise needs', () => {
    const error = failure(() => sandboxSource(qjs, 'export function other() {}', ['createBuffer']));
    expect(error.kind).toBe('missing-export');
    expect(error.message).toContain('createBuffer');
  });

  it('names a thrown exception with its message and line', () => {
    const source = sandboxSource(qjs, 'export function f() {\n  throw new RangeError("too far");\n}', ['f']);
    const instance = source.open();
    const error = failure(() => instance.call('f', []));
    expect(error.kind).toBe('exception');
    expect(error.message).toBe('RangeError: too far');
    expect(error.line).toBe(2);
    source.close();
  });

  it('ends an endless loop with a budget error, and the sandbox still works after it', () => {
    const source = sandboxSource(
      qjs,
      'export function spin() { for (;;) {} }\nexport function ok() { return 1; }',
      ['spin', 'ok'],
      { ...DEFAULT_LIMITS, ticks: 50 },
    );
    const instance = source.open();
    const error = failure(() => instance.call('spin', []));
    expect(error.kind).toBe('budget');
    expect(instance.call('ok', [])).toBe(1);
    source.close();
  });

  it('ends a memory blow-up and an endless recursion with budget errors', () => {
    const source = sandboxSource(
      qjs,
      'export function grow() { const a = []; for (;;) a.push({ x: a.length }); }\nexport function deep() { return deep() + 1; }',
      ['grow', 'deep'],
      { ...DEFAULT_LIMITS, memoryBytes: 4 * 1024 * 1024 },
    );
    const instance = source.open();
    expect(failure(() => instance.call('grow', [])).kind).toBe('budget');
    const deep = source.open();
    expect(failure(() => deep.call('deep', [])).kind).toBe('budget');
    source.close();
  });

  it('gives no ambient time or randomness: Date is absent and Math.random throws', () => {
    const source = sandboxSource(
      qjs,
      'export function date() { return typeof Date; }\nexport function random() { return Math.random(); }\nexport function host() { return [typeof fetch, typeof setTimeout, typeof process, typeof window].join(","); }',
      ['date', 'random', 'host'],
    );
    const instance = source.open();
    expect(instance.call('date', [])).toBe('undefined');
    expect(failure(() => instance.call('random', [])).message).toContain('Math.random is not available');
    expect(instance.call('host', [])).toBe('undefined,undefined,undefined,undefined');
    source.close();
  });

  it('refuses undefined as an answer: the contract asks for a value', () => {
    const source = sandboxSource(qjs, 'export function nothing() {}', ['nothing']);
    expect(failure(() => source.open().call('nothing', [])).kind).toBe('shape');
    source.close();
  });
});
