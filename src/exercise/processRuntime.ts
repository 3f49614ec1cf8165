import { statSync } from 'node:fs';
import { basename, delimiter, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { type ComponentInstance, type ComponentSource, StudentCodeError } from './runtime';
import type { Json } from './types';

/**
 * The `--cmd` runtime: a student's component is an external process (`python3 my_buffer.py`) speaking
 * the JSON-lines protocol of docs/exercise-protocol.md over its stdin and stdout. The engine runs on a
 * virtual clock and calls its components synchronously, so every call here blocks until the process
 * answers: a worker thread (processBridge.worker.mjs) owns the process and its pipes, and the main
 * thread sleeps on a shared counter (Atomics.wait) until the worker posts the answer, which it then
 * takes with receiveMessageOnPort.
 *
 * One process serves a whole check: `open()` starts it (and says hello) the first time, and afterwards
 * sends `reset`, after which the process must have forgotten every object and all module state.
 * Any failure of the process itself (it exits, answers late, prints what is not the protocol) ends it
 * and is sticky: every later `open()` throws the same error. An exception in the student's code is
 * not: the process answered, so the next call goes on.
 */

/** The protocol version this runtime speaks (the answer to `hello`). */
export const PROTOCOL_VERSION = 1;
/** How long one request may take, wall clock, unless `callTimeoutMs` says otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = 5000;
/** The longest line the process may print (an answer), in bytes. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** How much of the process's stderr is kept for messages (its end). */
const STDERR_BYTES = 4096;
/** Between SIGTERM and SIGKILL when the process is closed. */
const KILL_GRACE_MS = 500;
/** The start (spawn) and hello may take this long at least, whatever the call limit: an interpreter starting. */
const START_TIMEOUT_MS = 10_000;
/** Beyond the worker's own limit, how long the main thread waits before it gives up on the worker itself. */
const WORKER_SLACK_MS = 3000;
/** At most this many lines, each at most this long, of stderr in a message. */
const STDERR_LINES = 12;
const STDERR_LINE_CHARS = 240;
const EXCERPT_CHARS = 120;

/** The folder of labproto.py, put on PYTHONPATH so a student's `import labproto` works wherever the file is. */
const LABPROTO_DIR = fileURLToPath(new URL('./fixtures/python/', import.meta.url));

export interface ProcessSourceOptions {
  /** The wall-clock limit of one request, in ms (default 5000); past it the process is ended ('budget'). */
  readonly callTimeoutMs?: number;
  /** The folder the process starts in (default: this process's). */
  readonly cwd?: string;
}

/** A ComponentSource over a process; `pid` is the running process's id, for messages and tests. */
export interface ProcessComponentSource extends ComponentSource {
  readonly pid: number | undefined;
}

/**
 * Splits a command line as a POSIX shell would for the simple cases: blanks separate words; '…' keeps
 * everything literally; "…" keeps everything but lets \ escape \ " $ ` and a newline; outside quotes
 * \ escapes the next character. No expansion ($VAR, globs, ~) and no operators (|, ;, >): no shell runs.
 * Throws a StudentCodeError('process') on an unterminated quote or an empty command.
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < command.length) {
    const c = command.charAt(i);
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i += 1;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1)
        throw new StudentCodeError('process', `the command has an unterminated ' quote: ${excerpt(command)}`);
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i += 1;
      for (;;) {
        if (i >= command.length)
          throw new StudentCodeError('process', `the command has an unterminated " quote: ${excerpt(command)}`);
        const d = command.charAt(i);
        if (d === '"') break;
        const next = command.charAt(i + 1);
        if (d === '\\' && (next === '\\' || next === '"' || next === '$' || next === '`' || next === '\n')) {
          if (next !== '\n') word += next;
          i += 2;
        } else {
          word += d;
          i += 1;
        }
      }
      inWord = true;
      i += 1;
    } else if (c === '\\' && i + 1 < command.length) {
      const next = command.charAt(i + 1);
      if (next !== '\n') word += next;
      inWord = inWord || next !== '\n';
      i += 2;
    } else {
      word += c;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0)
    throw new StudentCodeError(
      'process',
      'the command is empty: say which program to run, e.g. --cmd "python3 my_buffer.py"',
    );
  return words;
}

/**
 * A component that runs as a process speaking the lab's JSON-lines protocol. Nothing starts until the
 * first `open()`; `close()` ends the process (and its children) and may be called any number of times.
 */
export function processSource(command: string, options: ProcessSourceOptions = {}): ProcessComponentSource {
  return new ProcessSource(command, options);
}

// ---------------------------------------------------------------------------------------------------
// What the worker answers (checked here: it is our own code, but a wrong shape must not pass silently).

type Failure =
  | { readonly kind: 'spawn'; readonly code: string | undefined; readonly message: string }
  | { readonly kind: 'exit'; readonly code: number | null; readonly signal: string | null; readonly stderr: string }
  | { readonly kind: 'timeout'; readonly stderr: string }
  | { readonly kind: 'too-long'; readonly line: number; readonly stderr: string }
  | { readonly kind: 'closed' | 'internal'; readonly message: string; readonly stderr: string };

type BridgeAnswer =
  | { readonly id: number; readonly type: 'started'; readonly pid: number }
  | {
      readonly id: number;
      readonly type: 'line';
      readonly line: number;
      readonly text: string;
      readonly early: boolean;
    }
  | { readonly id: number; readonly type: 'fail'; readonly fail: Failure }
  | { readonly id: number; readonly type: 'closed' };

type BridgeRequest =
  | { readonly type: 'start' }
  | { readonly type: 'send'; readonly line: string; readonly timeoutMs: number }
  | { readonly type: 'close' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function readFailure(fail: Record<string, unknown>): Failure {
  const stderr = text(fail.stderr);
  switch (fail.kind) {
    case 'spawn':
      return {
        kind: 'spawn',
        code: typeof fail.code === 'string' ? fail.code : undefined,
        message: text(fail.message),
      };
    case 'exit':
      return {
        kind: 'exit',
        code: typeof fail.code === 'number' ? fail.code : null,
        signal: typeof fail.signal === 'string' ? fail.signal : null,
        stderr,
      };
    case 'timeout':
      return { kind: 'timeout', stderr };
    case 'too-long':
      return { kind: 'too-long', line: typeof fail.line === 'number' ? fail.line : 0, stderr };
    case 'closed':
      return { kind: 'closed', message: '', stderr };
    default:
      return { kind: 'internal', message: text(fail.message) || `an unknown failure ${String(fail.kind)}`, stderr };
  }
}

function readAnswer(message: unknown): BridgeAnswer {
  if (!isRecord(message) || typeof message.id !== 'number')
    throw new Error(`processRuntime: the bridge worker answered a message without an id: ${excerpt(String(message))}`);
  const id = message.id;
  if (typeof message.pid === 'number') return { id, type: 'started', pid: message.pid };
  if (typeof message.text === 'string' && typeof message.line === 'number')
    return { id, type: 'line', line: message.line, text: message.text, early: message.early === true };
  if (isRecord(message.fail)) return { id, type: 'fail', fail: readFailure(message.fail) };
  if (message.closed === true) return { id, type: 'closed' };
  throw new Error(`processRuntime: the bridge worker answered a message of no known shape (id ${id})`);
}

// ---------------------------------------------------------------------------------------------------
// Words for messages: nothing the process printed reaches a terminal unescaped, nor unbounded.

/** Control characters, C1 controls and the bidirectional overrides, shown as \u{…} escapes. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are escaped
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function sanitise(value: string): string {
  return value.replace(UNSAFE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}

/** A short, quoted, escaped excerpt of what the process printed. */
function excerpt(value: string, max: number = EXCERPT_CHARS): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return `"${sanitise(cut.replace(/\n/g, '\\n').replace(/\t/g, '\\t'))}"`;
}

/** The last lines of the process's stderr, bounded, indented under a message; '' when it printed nothing. */
function stderrEnd(stderr: string): string {
  const lines = stderr.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length > 0 && (lines[lines.length - 1] ?? '').trim() === '') lines.pop();
  if (lines.length === 0) return '';
  const last = lines
    .slice(-STDERR_LINES)
    .map((line) => `  ${sanitise(line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line)}`);
  return `; the end of its stderr:\n${last.join('\n')}`;
}

// ---------------------------------------------------------------------------------------------------
// Processes still running when Node exits (a source never closed) are ended with it.

const running = new Set<number>();
let exitHookInstalled = false;

function track(pid: number): void {
  running.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const each of running) killGroupNow(each);
  });
}

function killGroupNow(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The request a message names: `call createBuffer`, `method offer of object 0`, `reset`, `hello`. */
type What = string;

class ProcessSource implements ProcessComponentSource {
  private readonly argv: readonly string[] | undefined;
  private readonly commandError: StudentCodeError | undefined;
  private readonly callTimeoutMs: number;
  private readonly cwd: string;
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private counter: Int32Array | undefined;
  private nextId = 0;
  private started = false;
  private closed = false;
  /** The failure that ended the process: every later open() throws it again. */
  private fatal: StudentCodeError | undefined;
  /** Which instance may call: each open() makes the one before it stale. */
  private generation = 0;
  private processId: number | undefined;

  constructor(command: string, options: ProcessSourceOptions) {
    const timeout = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    if (!Number.isFinite(timeout) || timeout <= 0)
      throw new RangeError(`callTimeoutMs must be a positive number of ms, not ${timeout}`);
    this.callTimeoutMs = timeout;
    this.cwd = options.cwd ?? process.cwd();
    try {
      this.argv = splitCommand(command);
    } catch (error) {
      if (!(error instanceof StudentCodeError)) throw error;
      this.commandError = error;
    }
  }

  get pid(): number | undefined {
    return this.processId;
  }

  open(): ComponentInstance {
    if (this.closed) throw new Error('processRuntime: open() after close()');
    if (this.fatal !== undefined) throw copy(this.fatal);
    if (!this.started) {
      this.start();
    } else {
      const answer = this.exchange({ op: 'reset' }, 'reset', this.callTimeoutMs);
      if (Object.keys(answer).some((key) => key !== 'ok'))
        this.protocolError(`the answer to reset is ${excerpt(JSON.stringify(answer))}, not {"ok":true}`);
    }
    this.generation += 1;
    return this.instance(this.generation);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.shutdown();
  }

  private instance(generation: number): ComponentInstance {
    let disposed = false;
    const check = (what: What) => {
      if (disposed || generation !== this.generation)
        throw new Error(`processRuntime: ${what} on an instance that was disposed or replaced by a newer open()`);
      if (this.closed) throw new Error(`processRuntime: ${what} after close()`);
      if (this.fatal !== undefined) throw copy(this.fatal);
    };
    return {
      call: (fn, args) => {
        const what = `call ${fn}`;
        check(what);
        return this.value(this.exchange({ op: 'call', fn, args: [...args] }, what, this.callTimeoutMs), what);
      },
      make: (fn, args) => {
        const what = `make ${fn}`;
        check(what);
        const answer = this.exchange({ op: 'make', fn, args: [...args] }, what, this.callTimeoutMs);
        const handle = answer.handle;
        if (typeof handle !== 'number' || !Number.isSafeInteger(handle) || handle < 0)
          return this.protocolError(
            `the answer to ${what} has no "handle" that is a non-negative integer: ${excerpt(JSON.stringify(answer))}`,
          );
        return handle;
      },
      method: (handle, name, args) => {
        const what = `method ${name} of object ${handle}`;
        check(what);
        return this.value(
          this.exchange({ op: 'method', handle, name, args: [...args] }, what, this.callTimeoutMs),
          what,
        );
      },
      dispose: () => {
        disposed = true;
      },
    };
  }

  private value(answer: { readonly [key: string]: Json }, what: What): Json {
    if (!('value' in answer))
      return this.protocolError(
        `the answer to ${what} has no "value" (a function that returns nothing answers {"ok":true,"value":null}): ${excerpt(JSON.stringify(answer))}`,
      );
    return answer.value ?? null;
  }

  /** Starts the worker and the process, then says hello. */
  private start(): void {
    this.started = true;
    if (this.commandError !== undefined) this.fail(this.commandError);
    const argv = this.argv ?? [];
    let isFolder: boolean;
    try {
      isFolder = statSync(this.cwd).isDirectory();
    } catch {
      isFolder = false;
    }
    if (!isFolder)
      this.fail(
        new StudentCodeError(
          'process',
          `the folder to run the command in, ${excerpt(this.cwd)}, does not exist or is not a folder`,
        ),
      );

    const channel = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    this.port = channel.port1;
    this.counter = new Int32Array(signal);
    const pythonPath = process.env.PYTHONPATH ? `${process.env.PYTHONPATH}${delimiter}${LABPROTO_DIR}` : LABPROTO_DIR;
    this.worker = new Worker(new URL('./processBridge.worker.mjs', import.meta.url), {
      workerData: {
        port: channel.port2,
        signal,
        argv,
        cwd: this.cwd,
        // Unbuffered Python answers at once even without flush(); no __pycache__ beside the student's file.
        env: { ...process.env, PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: pythonPath },
        maxLineBytes: MAX_LINE_BYTES,
        stderrBytes: STDERR_BYTES,
        killGraceMs: KILL_GRACE_MS,
      },
      transferList: [channel.port2],
      // The worker is plain JavaScript: no loader (tsx's, an inspector) to inherit.
      execArgv: [],
    });
    // A forgotten close() must not keep Node alive; the exit hook ends the process then.
    this.worker.unref();
    this.worker.on('error', () => {
      // The main thread notices by its own time limit; an 'error' without a listener would crash Node.
    });

    const started = this.request({ type: 'start' }, START_TIMEOUT_MS);
    if (started === undefined)
      this.fail(
        new StudentCodeError(
          'process',
          `the command ${excerpt(argv.join(' '))} did not start within ${START_TIMEOUT_MS} ms`,
        ),
      );
    if (started.type === 'fail') this.fail(this.startError(started.fail, argv));
    if (started.type !== 'started')
      this.fail(new StudentCodeError('process', 'the bridge worker did not report the process start'));
    this.processId = started.pid;
    track(started.pid);

    const hello = this.exchange({ op: 'hello' }, 'hello', Math.max(this.callTimeoutMs, START_TIMEOUT_MS));
    if (hello.protocol !== PROTOCOL_VERSION) {
      this.fail(
        new StudentCodeError(
          'process',
          `the process answered the lab's hello with ${excerpt(JSON.stringify(hello))}, not {"ok":true,"protocol":${PROTOCOL_VERSION}}: it does not speak this lab's protocol (see docs/exercise-protocol.md; in Python, serve your exports with labproto)`,
        ),
      );
    }
  }

  private startError(failure: Failure, argv: readonly string[]): StudentCodeError {
    const program = excerpt(argv[0] ?? '');
    if (failure.kind === 'spawn') {
      if (failure.code === 'ENOENT')
        return new StudentCodeError(
          'process',
          `the command ${program} was not found${(argv[0] ?? '').includes('/') ? '' : ' on PATH'}: is it installed, and is the name right?`,
        );
      if (failure.code === 'EACCES')
        return new StudentCodeError(
          'process',
          `the command ${program} cannot be run (permission denied: is it executable?)`,
        );
      return new StudentCodeError('process', `the command ${program} could not start: ${sanitise(failure.message)}`);
    }
    return this.failureError(failure, 'start');
  }

  /** The StudentCodeError a failure of the process means. */
  private failureError(failure: Failure, what: What): StudentCodeError {
    switch (failure.kind) {
      case 'spawn':
        return new StudentCodeError('process', `the process could not start: ${sanitise(failure.message)}`);
      case 'exit': {
        const syntax = what === 'hello' ? this.pythonSyntaxError(failure.stderr) : undefined;
        if (syntax !== undefined) return syntax;
        const how =
          failure.code !== null
            ? `exited with code ${failure.code}`
            : `was ended by signal ${failure.signal ?? 'unknown'}`;
        return new StudentCodeError(
          'process',
          `the process ${how} (the lab was waiting for the answer to ${what})${stderrEnd(failure.stderr)}`,
        );
      }
      case 'timeout':
        return new StudentCodeError(
          'budget',
          `the process did not answer ${what} within ${this.callTimeoutMs} ms; the lab ended it${stderrEnd(failure.stderr)}`,
        );
      case 'too-long':
        return new StudentCodeError(
          'process',
          `line ${failure.line} of the process output (the answer to ${what}) is longer than ${MAX_LINE_BYTES} bytes; the lab ended the process`,
        );
      case 'closed':
        return new StudentCodeError('process', `the process was already ended when the lab sent ${what}`);
      case 'internal':
        return new StudentCodeError(
          'process',
          `the lab lost the process while waiting for ${what}: ${sanitise(failure.message)}`,
        );
    }
  }

  /**
   * A Python program that cannot compile dies before its hello with a SyntaxError (or IndentationError,
   * TabError) as the last line of stderr, after `File "…", line N`: that is a 'syntax' error, with the
   * line when the file is one the command names (the student's file, not some module it imports).
   */
  private pythonSyntaxError(stderr: string): StudentCodeError | undefined {
    const lines = stderr.replace(/\r\n?/g, '\n').trimEnd().split('\n');
    const last = /^(SyntaxError|IndentationError|TabError): (.*)$/.exec(lines[lines.length - 1] ?? '');
    if (last === null) return undefined;
    let file: string | undefined;
    let line: number | undefined;
    for (const each of lines) {
      const where = /^\s*File "(.+)", line (\d+)/.exec(each);
      if (where !== null) {
        file = where[1];
        line = Number(where[2]);
      }
    }
    if (file === undefined || line === undefined)
      return new StudentCodeError('syntax', sanitise(`${last[1]}: ${last[2]}`));
    const named = (this.argv ?? []).some((arg) => resolve(this.cwd, arg) === resolve(this.cwd, file));
    return new StudentCodeError(
      'syntax',
      sanitise(`${last[1]}: ${last[2]} (${basename(file)}, line ${line})`),
      named ? line : undefined,
    );
  }

  /**
   * Sends one protocol message and returns the answer when it is {"ok":true,…}. {"ok":false} throws
   * StudentCodeError('exception') and the process goes on; anything else ends the process and throws.
   */
  private exchange(
    message: { readonly [key: string]: Json },
    what: What,
    timeoutMs: number,
  ): { readonly [key: string]: Json } {
    const answer = this.request(
      { type: 'send', line: JSON.stringify(message), timeoutMs },
      timeoutMs + KILL_GRACE_MS + WORKER_SLACK_MS,
    );
    if (answer === undefined) {
      return this.fail(
        new StudentCodeError(
          'budget',
          `the process did not answer ${what} within ${this.callTimeoutMs} ms (and the lab's bridge to it did not report); the lab ended it`,
        ),
      );
    }
    if (answer.type === 'fail') {
      if (what === 'hello' && answer.fail.kind === 'timeout') {
        return this.fail(
          new StudentCodeError(
            'process',
            `the process did not answer the lab's hello within ${timeoutMs} ms: is it a program speaking the lab's protocol (docs/exercise-protocol.md)?${stderrEnd(answer.fail.stderr)}`,
          ),
        );
      }
      return this.fail(this.failureError(answer.fail, what));
    }
    if (answer.type !== 'line')
      return this.fail(new StudentCodeError('process', `the lab's bridge to the process answered ${what} out of turn`));
    if (answer.early) {
      return this.protocolError(
        `line ${answer.line} of the process output, ${excerpt(answer.text)}, came when the lab had asked nothing (one answer per request; print debugging output to stderr)`,
      );
    }
    let parsed: Json;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      return this.protocolError(
        `line ${answer.line} of the process output is not JSON: ${excerpt(answer.text)} (stdout carries the protocol's answers only: print debugging output to stderr)`,
      );
    }
    if (!isRecord(parsed) || typeof parsed.ok !== 'boolean') {
      const hint =
        what === 'hello'
          ? ": it does not speak the lab's protocol (see docs/exercise-protocol.md; in Python, serve your exports with labproto)"
          : '';
      return this.protocolError(
        `line ${answer.line} of the process output, the answer to ${what}, is not an object with "ok": ${excerpt(answer.text)}${hint}`,
      );
    }
    if (parsed.ok) return parsed;
    if (what === 'hello')
      return this.protocolError(
        `the process answered the lab's hello with an error: ${excerpt(JSON.stringify(parsed))}`,
      );
    const error =
      typeof parsed.error === 'string' && parsed.error !== ''
        ? parsed.error
        : `the student's code failed in ${what} (the answer said no more)`;
    const line =
      typeof parsed.line === 'number' && Number.isSafeInteger(parsed.line) && parsed.line > 0 ? parsed.line : undefined;
    throw new StudentCodeError('exception', sanitise(error), line);
  }

  /** The process broke the protocol: it is ended, and the error is sticky. */
  private protocolError(message: string): never {
    return this.fail(new StudentCodeError('process', message));
  }

  /** Ends the process, remembers the error (every later open() throws it) and throws it. */
  private fail(error: StudentCodeError): never {
    this.fatal = error;
    this.shutdown();
    throw error;
  }

  /** Posts a request to the worker and blocks until its answer, or `waitMs` (undefined then). */
  private request(body: BridgeRequest, waitMs: number): BridgeAnswer | undefined {
    const port = this.port;
    const counter = this.counter;
    if (port === undefined || counter === undefined) return undefined;
    this.nextId += 1;
    const id = this.nextId;
    port.postMessage({ ...body, id });
    const deadline = Date.now() + waitMs;
    for (;;) {
      // Read the counter before looking at the port: an answer posted after the look bumps the counter
      // past `seen`, so the wait below returns at once instead of sleeping through it.
      const seen = Atomics.load(counter, 0);
      const received = receiveMessageOnPort(port);
      if (received !== undefined) {
        const answer = readAnswer(received.message);
        if (answer.id === id) return answer;
        continue; // the late answer to a request the main thread gave up on
      }
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      Atomics.wait(counter, 0, seen, left);
    }
  }

  /** Ends the process (SIGTERM, SIGKILL after the grace, its whole group) and the worker. Idempotent. */
  private shutdown(): void {
    const worker = this.worker;
    if (worker === undefined) return;
    const closed = this.request({ type: 'close' }, KILL_GRACE_MS + WORKER_SLACK_MS);
    if (this.processId !== undefined) {
      if (closed === undefined) killGroupNow(this.processId);
      running.delete(this.processId);
    }
    this.worker = undefined;
    this.port?.close();
    this.port = undefined;
    this.counter = undefined;
    void worker.terminate();
  }
}

function copy(error: StudentCodeError): StudentCodeError {
  return new StudentCodeError(error.kind, error.message, error.line, error.column);
}
