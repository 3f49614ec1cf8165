/**
 * The lab's sentences for the steps every request goes through, in one place, so the same step reads
 * the same in every model and in the real SDKs' lanes. Each sentence has one shape: what happened,
 * then a colon and why or by what mechanism. A function takes only the parts that vary (a time, the
 * lane's own mechanism); a lane names its mechanism, never rewords the step.
 */

/** `what: how`, or `what` alone when there is no mechanism to add. */
function said(what: string, how?: string): string {
  return how === undefined || how === '' ? what : `${what}: ${how}`;
}

// ── the client's deadlines ───────────────────────────────────────────────────────────────────────

export const deadlineWording = {
  idleArmed: (idleTimeoutMs: number): string => `no useful activity for ${idleTimeoutMs} ms ends the request`,
  maxArmed: (maxTimeoutMs: number): string =>
    `absolute budget of ${maxTimeoutMs} ms from the start; progress never moves it`,
  idleReset: 'progress arrived: the idle clock restarts (the maximum deadline does not move)',
  /** The catalogued failure mode where progress restarts both deadlines. */
  everyReset: 'progress arrived: this client restarts every deadline',
  /** The idle deadline fired, and the lane's mechanism when it has its own. */
  idleFired: (idleTimeoutMs: number, how?: string): string =>
    said(`idle timeout: no progress reached the client for ${idleTimeoutMs} ms`, how),
  /** The maximum deadline fired, and the lane's mechanism when it has its own. */
  maxFired: (maxTimeoutMs: number, how?: string): string => said(`maximum timeout of ${maxTimeoutMs} ms reached`, how),
  disarmedByResponse: 'the final response arrived',
  disarmedByAbandon: 'the client abandoned the request',
  disarmedAfterEnd: 'the request already ended on the client',
} as const;

// ── the client gives up ──────────────────────────────────────────────────────────────────────────

/** The user cancelled the call (`reason`, as the cancellation carries it); `how` is what the client (or the SDK) does about it. */
export function userCancelled(reason: string, how: string): string {
  return said(`the user cancelled ("${reason}")`, how);
}

/** The client's state waiting → settled; `how` when a lane's API says more. */
export function clientSettled(how?: string): string {
  return said('final response received', how);
}

/** A real SDK's client found its maximum passed only when progress arrived; the progress is not passed on. */
export function maxFoundOnProgress(sdk: string): string {
  return `${sdk} found maxTotalTimeout exceeded when this progress arrived and rejected the request instead of passing it on`;
}

/** The client closed a request's response stream: what arrives on it afterwards is discarded. */
export function arrivedOnClosedStream(closedAtMs: number): string {
  return `the client closed this response stream at ${closedAtMs} ms; what arrives on it is discarded`;
}

// ── cancellation on the wire and at the server ───────────────────────────────────────────────────

/** How the server learned of a cancellation (the `how` of cancel-accepted, the server's state and TERMINAL). */
export const cancelHow = {
  notified: 'notifications/cancelled received',
  disconnected: 'response stream disconnected',
  /** The real SDK's Server: it aborts the handler's signal for the request. */
  sdkAborted: (reason: string): string => `the SDK's Server aborted the handler's extra.signal (reason: ${reason})`,
} as const;

/** The client closes a request's response stream (Streamable HTTP): `why` it gave up, `how` that closes it. */
export function clientClosesStream(
  why: string,
  how = 'closing the response stream is the cancellation; nothing is POSTed',
): string {
  return said(why, how);
}

/** The server ends a request's response stream with its final response; `how` when a lane's transport says more. */
export function responseEndsStream(how?: string): string {
  return said("the final response ends the request's SSE stream", how);
}

/** The server observed a response stream's disconnect: `what` closed, and what the server does about it. */
export function disconnectObserved(what: string, how = 'the server treats the disconnect as the cancellation'): string {
  return said(what, how);
}

/**
 * The server accepted a cancellation (`how` it learned of it): what is certain from here is that nothing more
 * is sent. Whether the work stops is the worker's step to say: a chunk already running (A's last) finishes.
 */
export function cancelAccepted(how: string, after = 'the server sends nothing more for this request'): string {
  return said(how, after);
}

/** The server ignored a cancellation: `why`, then how (RC-7: without error or reply). */
export function cancelIgnored(why: string, how = 'the server ignores it without error or reply'): string {
  return said(why, how);
}

// ── the server's worker ──────────────────────────────────────────────────────────────────────────

export const workerWording = {
  /** The worker starts: how much work in how many chunks, and what happens at each checkpoint. */
  started: (workMs: number, chunks: number, how: string): string =>
    said(`${workMs} ms of work in ${chunks} chunk(s)`, how),
  /** The spec model's worker: a cancellation can stop it only between chunks. */
  uninterruptible: 'each chunk is uninterruptible',
  chunkDone: (chunk: number, chunks: number): string => `chunk ${chunk} of ${chunks} done`,
  /** A checkpoint saw the cancellation; `how` the work ends. */
  stopped: (chunk: number, how = 'the work stops and its resources are freed'): string =>
    said(`checkpoint ${chunk} observed the cancellation`, how),
  /** The work reached completion; `how` the result leaves the worker. */
  finished: (how = 'the worker calls complete()'): string => said('the work reached completion', how),
} as const;

// ── how the request ends ─────────────────────────────────────────────────────────────────────────

/** The server's state active → completed; `by` is who sends the final response. */
export function serverCompleted(by = 'the server'): string {
  return `result committed: ${by} sends the final response`;
}

export const TERMINAL_COMPLETED = 'the server sent the final response';

/** TERMINAL cancelled: the server accepted the cancellation, `how` it learned of it. */
export function terminalCancelled(how: string): string {
  return said('the server accepted the cancellation', how);
}

/** The server's result lost the race to an accepted cancellation; `how` the lane drops it. */
export function responseSuppressed(how = 'complete() sends no response and nothing more'): string {
  return said('the cancellation was accepted first', how);
}

/** What each client ending means for the response the server sent. */
const CLIENT_WORDS = {
  completed: 'used the response',
  cancelled: 'cancelled the request',
  'timeout-idle': 'gave up on its idle deadline',
  'timeout-max': 'gave up on its maximum deadline',
} as const;

/**
 * The two sides ended the request differently. Short enough to read whole in Presentation's two-line
 * playbar at 1280×720 (e2e/overview.spec.ts): the facts beside the diagram already say each side's ending.
 */
export function viewsDiverge(
  serverEndedAtMs: number,
  clientOutcome: keyof typeof CLIENT_WORDS,
  clientEndedAtMs: number,
): string {
  return (
    `the server completed at ${serverEndedAtMs} ms and sent its final response; the client ${CLIENT_WORDS[clientOutcome]} at ${clientEndedAtMs} ms ` +
    'and discards the response, whenever it arrives'
  );
}

/**
 * Where the lab cites its idempotency requirements (LG, LG-P): the key is the lesson's pattern, not the
 * protocol's. MCP 2026-07-28 defines no idempotency key; it has only the `idempotentHint` tool annotation,
 * a hint (a proposal for request idempotency was closed unmerged).
 */
export const KEY_IS_APPLICATION_CONTRACT =
  'The idempotency key is an application contract, not part of MCP: the protocol has only the idempotentHint tool annotation, a hint.';
