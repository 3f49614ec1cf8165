import {
  DefaultIntrinsics,
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { StudentCodeError, type ComponentInstance, type ComponentSource } from './runtime';
import type { Json } from './types';

/**
 * The sandbox a student's JavaScript runs in: QuickJS compiled to WebAssembly, the same in the lab
 * worker and under Node. The student's module sees the language and nothing else: no DOM, no network,
 * no lab internals, no `Date` (left out of the context) and no `Math.random` (it throws): the checks
 * must give the same answer every time.
 *
 * Every call is bounded: by instructions (QuickJS asks its interrupt handler every few thousand
 * operations; after `ticks` asks the call is ended, deterministically), by memory (the runtime's
 * limit), by stack depth, and by a wall-clock safety net (`wallMsPerCall`) for work that allocates so
 * much that the interrupt handler is seldom asked. Each run (ordering) gets a fresh context, so no
 * module state crosses orderings; the runtime is kept for the whole check.
 */
export interface SandboxLimits {
  /** Interrupt-handler asks per call before the call is ended (each about 10,000 QuickJS operations). */
  readonly ticks: number;
  readonly memoryBytes: number;
  readonly stackBytes: number;
  readonly wallMsPerCall: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  ticks: 2_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 192 * 1024,
  wallMsPerCall: 2_000,
};

export const STUDENT_FILE = 'student.js';

let loading: Promise<QuickJSWASMModule> | null = null;

/** QuickJS, loaded once per thread (its WebAssembly is compiled on first use). */
export function loadQuickJs(): Promise<QuickJSWASMModule> {
  if (loading === null) {
    const started = newQuickJSWASMModuleFromVariant(variant).catch((error: unknown) => {
      loading = null;
      throw error;
    });
    loading = started;
  }
  return loading;
}

/** Evaluated in every fresh context before the student's module: what the sandbox takes away, and the lab's call helpers. */
const PRELUDE = `
Math.random = function random() { throw new Error('Math.random is not available here: the lab checks every ordering and needs the same answer every time (derive what you need from the arguments)'); };
(function () {
  const kept = [];
  const encode = (value) => {
    if (value === undefined) return '{"undefined":true}';
    const text = JSON.stringify({ value });
    if (text === undefined) return '{"undefined":true}';
    return text;
  };
  const lab = {
    call(ns, fn, argsJson) { return encode(ns[fn](...JSON.parse(argsJson))); },
    make(ns, fn, argsJson) { kept.push(ns[fn](...JSON.parse(argsJson))); return kept.length - 1; },
    method(handle, name, argsJson) {
      const target = kept[handle];
      if (target === null || typeof target !== 'object' || typeof target[name] !== 'function') {
        throw new TypeError('the object returned by the factory has no method ' + name + '()');
      }
      return encode(target[name](...JSON.parse(argsJson)));
    },
  };
  Object.defineProperty(globalThis, '__lab', { value: Object.freeze(lab), enumerable: false });
})();
`;

interface DumpedError {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
  lineNumber?: unknown;
}

/** The student's file's line and column in a QuickJS stack (`at f (student.js:6:8)` or `at student.js:1:21`). */
function locate(stack: string): { line: number; column: number } | null {
  const match = new RegExp(`${STUDENT_FILE.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack);
  if (match === null) return null;
  return { line: Number(match[1]), column: Number(match[2]) };
}

function toStudentError(
  ctx: QuickJSContext,
  handle: QuickJSHandle,
  during: 'load' | 'call',
  budgetHit: () => string | null,
): StudentCodeError {
  const dumped: unknown = ctx.dump(handle);
  handle.dispose();
  const error: DumpedError =
    dumped !== null && typeof dumped === 'object' ? (dumped as DumpedError) : { message: String(dumped) };
  const name = typeof error.name === 'string' ? error.name : 'Error';
  const message = typeof error.message === 'string' ? error.message : String(error.message ?? dumped);
  const where = typeof error.stack === 'string' ? locate(error.stack) : null;
  const budget = budgetHit();
  if (budget !== null) return new StudentCodeError('budget', budget, where?.line, where?.column);
  if (name === 'InternalError' && message === 'out of memory')
    return new StudentCodeError(
      'budget',
      'the code ran out of its memory budget (a structure that grows without end?)',
      where?.line,
      where?.column,
    );
  if (name === 'InternalError' && message === 'stack overflow')
    return new StudentCodeError(
      'budget',
      'the code ran out of stack (a recursion without end?)',
      where?.line,
      where?.column,
    );
  if (name === 'SyntaxError' && during === 'load')
    return new StudentCodeError('syntax', `SyntaxError: ${message}`, where?.line, where?.column);
  return new StudentCodeError('exception', `${name}: ${message}`, where?.line, where?.column);
}

class SandboxInstance implements ComponentInstance {
  private readonly ctx: QuickJSContext;
  private readonly ns: QuickJSHandle;
  private readonly lab: QuickJSHandle;
  private disposed = false;

  constructor(
    private readonly runtime: QuickJSRuntime,
    source: string,
    private readonly guard: { begin(): void; hit(): string | null },
    private readonly onDispose: () => void = () => undefined,
  ) {
    this.ctx = runtime.newContext({ intrinsics: { ...DefaultIntrinsics, Date: false } });
    guard.begin();
    const prelude = this.ctx.evalCode(PRELUDE, 'lab-prelude.js');
    if (prelude.error !== undefined) {
      const message = JSON.stringify(this.ctx.dump(prelude.error));
      prelude.error.dispose();
      this.ctx.dispose();
      throw new Error(`the sandbox's prelude failed: ${message}`);
    }
    prelude.value.dispose();
    this.lab = this.ctx.getProp(this.ctx.global, '__lab');
    guard.begin();
    const loaded = this.ctx.evalCode(source, STUDENT_FILE, { type: 'module' });
    if (loaded.error !== undefined) {
      const error = toStudentError(this.ctx, loaded.error, 'load', () => guard.hit());
      this.lab.dispose();
      this.ctx.dispose();
      throw error;
    }
    this.ns = loaded.value;
  }

  private invoke(
    helper: 'call' | 'make' | 'method',
    head: QuickJSHandle,
    name: string,
    args: readonly Json[],
  ): string | number {
    if (this.disposed) throw new Error('the sandbox instance was disposed');
    const ctx = this.ctx;
    const fn = ctx.getProp(this.lab, helper);
    const nameHandle = ctx.newString(name);
    const argsHandle = ctx.newString(JSON.stringify(args));
    this.guard.begin();
    let result: ReturnType<QuickJSContext['callFunction']>;
    try {
      result = ctx.callFunction(fn, ctx.undefined, head, nameHandle, argsHandle);
    } catch (error) {
      // The host's own stack gave out inside the WebAssembly (QuickJS's limit is kept below it, so rare).
      if (error instanceof RangeError)
        throw new StudentCodeError('budget', 'the code ran out of stack (a recursion without end?)');
      throw error;
    } finally {
      fn.dispose();
      nameHandle.dispose();
      argsHandle.dispose();
    }
    if (result.error !== undefined) throw toStudentError(ctx, result.error, 'call', () => this.guard.hit());
    const value: unknown = ctx.dump(result.value);
    result.value.dispose();
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new Error(`the sandbox's ${helper} helper answered ${typeof value}`);
    return value;
  }

  private decode(text: string | number, what: string): Json {
    if (typeof text !== 'string') throw new Error(`the sandbox answered a number for ${what}`);
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && 'undefined' in parsed)
      throw new StudentCodeError('shape', `${what} returned undefined; it must return a value (null for nothing)`);
    return (parsed as { value: Json }).value;
  }

  hasExport(name: string): boolean {
    const handle = this.ctx.getProp(this.ns, name);
    const kind = this.ctx.typeof(handle);
    handle.dispose();
    return kind === 'function';
  }

  call(fn: string, args: readonly Json[]): Json {
    return this.decode(this.invoke('call', this.ns, fn, args), `${fn}()`);
  }

  make(fn: string, args: readonly Json[]): number {
    const handle = this.invoke('make', this.ns, fn, args);
    if (typeof handle !== 'number') throw new Error('the sandbox answered no handle');
    return handle;
  }

  method(handle: number, name: string, args: readonly Json[]): Json {
    const target = this.ctx.newNumber(handle);
    try {
      return this.decode(this.invoke('method', target, name, args), `${name}()`);
    } finally {
      target.dispose();
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.onDispose();
    this.ns.dispose();
    this.lab.dispose();
    this.ctx.dispose();
  }
}

/**
 * A student's JavaScript module as a component source. `exports` are the names the exercise needs:
 * a module that does not export them (as functions) is refused at once with `missing-export`.
 */
export function sandboxSource(
  quickjs: QuickJSWASMModule,
  source: string,
  exports: readonly string[],
  limits: SandboxLimits = DEFAULT_LIMITS,
): ComponentSource & { readonly limits: SandboxLimits } {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  let ticks = 0;
  let startedAt = 0;
  let stopped: string | null = null;
  runtime.setInterruptHandler(() => {
    ticks += 1;
    if (ticks > limits.ticks)
      stopped = `the call ran past its budget of about ${(limits.ticks * 10_000).toLocaleString('en-US')} operations (an endless loop?)`;
    else if (performance.now() - startedAt > limits.wallMsPerCall)
      stopped = `the call ran past its budget of ${limits.wallMsPerCall} ms (an endless loop, or memory that grows without end?)`;
    return stopped !== null;
  });
  const guard = {
    begin() {
      ticks = 0;
      stopped = null;
      startedAt = performance.now();
    },
    hit: () => stopped,
  };
  let closed = false;
  // Every instance still open: a runtime is freed only after its contexts.
  const live = new Set<SandboxInstance>();
  const open = (): SandboxInstance => {
    if (closed) throw new Error('the sandbox was closed');
    const instance = new SandboxInstance(runtime, source, guard, () => live.delete(instance));
    live.add(instance);
    return instance;
  };
  // Load once now: a syntax error or a missing export is the student's to see before any run.
  try {
    const first = open();
    try {
      const missing = exports.filter((name) => !first.hasExport(name));
      if (missing.length > 0)
        throw new StudentCodeError(
          'missing-export',
          `the module must export ${missing.map((name) => `function ${name}`).join(' and ')}; it does not (write \`export function ${missing[0]}(…) { … }\`)`,
        );
    } finally {
      first.dispose();
    }
  } catch (error) {
    closed = true;
    for (const instance of [...live]) instance.dispose();
    runtime.dispose();
    throw error;
  }
  return {
    limits,
    open,
    close() {
      if (closed) return;
      closed = true;
      for (const instance of [...live]) instance.dispose();
      runtime.dispose();
    },
  };
}
