/**
 * The page's checks of what the workers send (protocol.ts: valibot and every message schema), loaded
 * beside the workers' start instead of with the page (issue #9: initial JS at most 150 kB gzip). The
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
 * A queue for one worker's events: each task runs in arrival order once the checks are loaded, so a
 * worker's error never overtakes an answer it sent before; `fail` hears why when the checks could
 * not be loaded (that task's message is then not read).
 */
export function arrivalQueue(fail: (problem: string) => void): (task: (checks: ProtocolChecks) => void) => void {
  let queue: Promise<void> = Promise.resolve();
  return (task) => {
    queue = queue.then(protocolChecks).then(task, (error: unknown) => fail(`the page could not load its protocol checks (${error instanceof Error ? error.message : String(error)})`));
  };
}
