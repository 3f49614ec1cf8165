// @ts-check
/**
 * The worker thread behind processRuntime.ts: it owns the student's process (`--cmd`) and pumps lines,
 * so the main thread can block on each answer (Atomics.wait) while this thread's event loop reads the
 * pipes. It knows nothing of the protocol: it writes the lines it is given, hands back the lines the
 * process prints (bounded), and reports how the process failed (spawn error, exit, time limit).
 *
 * Plain JavaScript on purpose: a worker thread gets no TypeScript loader under vitest, and tsx's would
 * have to be inherited; a .mjs file starts the same everywhere (tsx, vitest, a build).
 *
 * Every answer is posted on the port, then the shared counter is bumped and notified: the main thread
 * waits on the counter and takes the answer with receiveMessageOnPort (the pattern of synckit).
 */
import { spawn } from 'node:child_process';
import { workerData } from 'node:worker_threads';

/** @type {{ port: import('node:worker_threads').MessagePort, signal: SharedArrayBuffer, argv: string[], cwd: string, env: NodeJS.ProcessEnv, maxLineBytes: number, stderrBytes: number, killGraceMs: number }} */
const { port, signal, argv, cwd, env, maxLineBytes, stderrBytes, killGraceMs } = workerData;
const counter = new Int32Array(signal);

/** How long stdout and stderr may take to deliver their last bytes once the process has exited. */
const DRAIN_MS = 200;
/** How long a SIGKILLed process may take to be reaped before the answer goes anyway. */
const REAP_MS = 2000;

/** @type {import('node:child_process').ChildProcessWithoutNullStreams | undefined} */
let child;
let spawned = false;
/** @type {{ code: number | null, signal: string | null } | undefined} */
let exited;
let drained = false;
/** @type {(() => void)[]} */
let exitWaiters = [];
/** @type {{ id: number, timer: NodeJS.Timeout | undefined, handled: boolean } | undefined} */
let pending;
/** Set once the process is beyond use: every later request is answered with it. @type {Record<string, unknown> | undefined} */
let fatal;
/** The first line that arrived while nothing was asked (a protocol breach the main thread reports). @type {{ line: number, text: string } | undefined} */
let early;
let lineNumber = 0;
/** @type {Buffer[]} */
let partial = [];
let partialBytes = 0;
let stderrTail = Buffer.alloc(0);

/** @param {Record<string, unknown>} message */
function answer(message) {
  port.postMessage(message);
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
}

function stderrText() {
  return stderrTail.toString('utf8');
}

/** @param {NodeJS.Signals} sig */
function killGroup(sig) {
  if (child === undefined || child.pid === undefined) return;
  try {
    // Spawned detached, the process leads its own group: this reaches its children too.
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      // already gone
    }
  }
}

/** Calls `then` once the process has exited (and been reaped), or after `limitMs` whatever happened. */
function whenExited(limitMs, then) {
  if (exited !== undefined || !spawned) {
    then();
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    then();
  };
  const timer = setTimeout(once, limitMs);
  exitWaiters.push(once);
}

/** Ends the process at once and answers the pending request (if any) with `failure` once it is gone. */
function failPending(failure) {
  fatal = failure;
  killGroup('SIGKILL');
  const request = pending;
  if (request === undefined) return;
  request.handled = true;
  if (request.timer !== undefined) clearTimeout(request.timer);
  whenExited(REAP_MS, () => {
    if (pending === request) pending = undefined;
    answer({ id: request.id, fail: { ...failure, stderr: stderrText() } });
  });
}

/** @param {string} text */
function deliver(text) {
  lineNumber += 1;
  if (pending !== undefined && !pending.handled) {
    const request = pending;
    pending = undefined;
    if (request.timer !== undefined) clearTimeout(request.timer);
    answer({ id: request.id, line: lineNumber, text, early: false });
  } else if (early === undefined) {
    early = { line: lineNumber, text };
  }
}

/** @param {Buffer} chunk */
function onStdout(chunk) {
  let start = 0;
  while (start < chunk.length && fatal === undefined) {
    const newline = chunk.indexOf(10, start);
    const end = newline === -1 ? chunk.length : newline;
    partialBytes += end - start;
    if (partialBytes > maxLineBytes) {
      partial = [];
      failPending({ kind: 'too-long', line: lineNumber + 1, limit: maxLineBytes });
      return;
    }
    partial.push(chunk.subarray(start, end));
    if (newline === -1) return;
    let text = Buffer.concat(partial).toString('utf8');
    partial = [];
    partialBytes = 0;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    deliver(text);
    start = newline + 1;
  }
}

/** @param {Buffer} chunk */
function onStderr(chunk) {
  stderrTail = Buffer.concat([stderrTail, chunk]);
  if (stderrTail.length > stderrBytes) stderrTail = stderrTail.subarray(stderrTail.length - stderrBytes);
}

/** Once the process has exited and its pipes are drained (or had their chance): answer what waits. */
function settleExit() {
  if (drained || exited === undefined) return;
  drained = true;
  const failure = { kind: 'exit', code: exited.code, signal: exited.signal };
  if (fatal === undefined) fatal = failure;
  if (pending !== undefined && !pending.handled) {
    const request = pending;
    pending = undefined;
    if (request.timer !== undefined) clearTimeout(request.timer);
    answer({ id: request.id, fail: { ...failure, stderr: stderrText() } });
  }
}

/** @param {number} id */
function start(id) {
  try {
    child = spawn(argv[0] ?? '', argv.slice(1), { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    fatal = { kind: 'spawn', code: errorCode(error), message: String(error) };
    answer({ id, fail: fatal });
    return;
  }
  const started = child;
  started.once('spawn', () => {
    spawned = true;
    answer({ id, pid: started.pid });
  });
  started.once('error', (error) => {
    if (spawned) return; // a failed kill or write after the start: the exit says what matters
    fatal = { kind: 'spawn', code: errorCode(error), message: error.message };
    answer({ id, fail: fatal });
  });
  started.once('exit', (code, sig) => {
    exited = { code, signal: sig };
    const waiters = exitWaiters;
    exitWaiters = [];
    for (const waiter of waiters) waiter();
    setTimeout(settleExit, DRAIN_MS);
  });
  started.once('close', settleExit);
  started.stdout.on('data', onStdout);
  started.stderr.on('data', onStderr);
  // Writing to a process that has just exited fails with EPIPE: its exit is what gets reported.
  started.stdin.on('error', () => {});
}

/** @param {unknown} error */
function errorCode(error) {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** @param {number} id @param {string} line @param {number} timeoutMs */
function send(id, line, timeoutMs) {
  if (early !== undefined) {
    const first = early;
    early = undefined;
    answer({ id, line: first.line, text: first.text, early: true });
    return;
  }
  if (fatal !== undefined || child === undefined) {
    answer({ id, fail: { ...(fatal ?? { kind: 'closed' }), stderr: stderrText() } });
    return;
  }
  const request = { id, timer: /** @type {NodeJS.Timeout | undefined} */ (undefined), handled: false };
  pending = request;
  request.timer = setTimeout(() => {
    if (pending === request && !request.handled) failPending({ kind: 'timeout', ms: timeoutMs });
  }, timeoutMs);
  child.stdin.write(line + '\n');
}

/** SIGTERM to the group, SIGKILL after the grace (and to whatever of the group ignored SIGTERM), then answer. */
function close(id) {
  if (fatal === undefined) fatal = { kind: 'closed' };
  const finish = () => {
    answer({ id, closed: true });
    port.close();
  };
  if (child === undefined || !spawned) {
    finish();
    return;
  }
  child.stdin.end();
  if (exited === undefined) killGroup('SIGTERM');
  whenExited(killGraceMs, () => {
    killGroup('SIGKILL');
    whenExited(REAP_MS, finish);
  });
}

port.on('message', (/** @type {{ id: number, type: string, line?: string, timeoutMs?: number }} */ request) => {
  if (request.type === 'start') start(request.id);
  else if (request.type === 'send') send(request.id, request.line ?? '', request.timeoutMs ?? 0);
  else if (request.type === 'close') close(request.id);
});

process.on('uncaughtException', (error) => {
  failPending({ kind: 'internal', message: String(error) });
});
