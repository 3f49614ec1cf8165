import type { WorkerLike } from './client';
import { handleMessage } from './host';

/**
 * A stand-in for the lab worker in Node tests: the same host code, behind structured clones and an
 * asynchronous hop, so the client and store are exercised through the real boundary checks.
 * Pages never import this (they use the real Worker from client.ts).
 */
export interface InProcessWorker extends WorkerLike {
  /** Sends a raw, possibly malformed, message as if the page had posted it. */
  postRaw(message: unknown): void;
  /** Makes the worker answer with `response` instead of running the host (to test the client). */
  answerWith(response: (request: unknown) => unknown): void;
  /** Delays the answer to matching requests, so answers can arrive out of order. */
  delayWith(delayMs: (request: unknown) => number): void;
  readonly posted: unknown[];
}

export function createInProcessWorker(): InProcessWorker {
  const listeners = new Map<string, Array<(event: MessageEvent<unknown>) => void>>();
  const posted: unknown[] = [];
  let answer: (request: unknown) => unknown = handleMessage;
  let delay: (request: unknown) => number = () => 0;
  let terminated = false;

  const deliver = (message: unknown) => {
    const request = structuredClone(message);
    posted.push(request);
    setTimeout(() => {
      if (terminated) return;
      const data = structuredClone(answer(request));
      for (const listener of listeners.get('message') ?? []) listener(new MessageEvent('message', { data }));
    }, delay(request));
  };

  return {
    posted,
    postMessage: deliver,
    postRaw: deliver,
    answerWith(response) {
      answer = response;
    },
    delayWith(delayMs) {
      delay = delayMs;
    },
    addEventListener(type: string, listener: (event: never) => void) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener as (event: MessageEvent<unknown>) => void]);
    },
    terminate() {
      terminated = true;
    },
  };
}
