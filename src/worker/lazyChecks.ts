/**
 * The page's checks of what the workers send (protocol.ts: valibot and every message schema), loaded
 * beside the workers' start instead of with the page (so the initial JS stays at most 150 kB gzip). The
 * first answer cannot arrive before a worker has started, so nothing waits longer in practice; every
 * message is still checked before it is read, and messages are handled in the order they arrived.
 */

export type ProtocolChecks = typeof import('./protocol');

let loading: Promise<ProtocolChecks> | null = null;

/** Starts loading the checks (once; again after a failed load). */
export function protocolChecks(): Promise<ProtocolChecks> {
  const started = (loading ??= import('./protocol'));
  started.catch(() => {
    if (loading === started) loading = null;
  });
  return started;
}

/**
 * Runs `task` in a task of its own, soon: a MessageChannel message in the browser (no 4 ms clamp, as
 * nested timers have), a timer elsewhere (Node tests).
 */
export function nextTask(task: () => void): void {
  if (typeof window === 'undefined' || typeof MessageChannel === 'undefined') {
    setTimeout(task, 0);
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    task();
  };
  channel.port2.postMessage(null);
}

/**
 * A queue for one worker's events: each runs in arrival order once the checks are loaded, so a
 * worker's error never overtakes an answer it sent before, and each in a task of its own: the browser
 * may hand the page several worker messages in one task, and the checks of a long answer's parts
 * (runParts.ts) must not add up into one long task. `fail` hears why when the checks could not be
 * loaded (that event is then not read).
 */
export function arrivalQueue(fail: (problem: string) => void): (task: (checks: ProtocolChecks) => void) => void {
  const waiting: Array<(checks: ProtocolChecks) => void> = [];
  let pumping = false;
  const pump = () => {
    const task = waiting.shift();
    if (task === undefined) {
      pumping = false;
      return;
    }
    protocolChecks().then(
      (checks) => {
        try {
          task(checks);
        } finally {
          nextTask(pump);
        }
      },
      (error: unknown) => {
        fail(`the page could not load its protocol checks (${error instanceof Error ? error.message : String(error)})`);
        nextTask(pump);
      },
    );
  };
  return (task) => {
    waiting.push(task);
    if (pumping) return;
    pumping = true;
    nextTask(pump);
  };
}
