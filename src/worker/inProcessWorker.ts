import initSqlJs from 'sql.js';
import type { SqlModule } from '../engine';
import type { WorkerLike } from './client';
import { createLabHost } from './host';
import { memoryLedgerStorage, type LedgerStorage } from './ledgerStorage';
import type { LabResponse } from './protocol';
import { inParts } from './runParts';

/**
 * A stand-in for the engine worker in Node tests: the same host code, behind structured clones and an
 * asynchronous hop, so the client and store are exercised through the real boundary checks.
 * Pages never import this (they use the real Worker from client.ts).
 */
export interface InProcessWorker extends WorkerLike {
  /** Sends a raw, possibly malformed, message as if the page had posted it. */
  postRaw(message: unknown): void;
  /** Makes the worker answer with `response` instead of running the host (to test the client); a list is sent as that many messages. */
  answerWith(response: (request: unknown) => unknown): void;
  /** Delays the answer to matching requests, so answers can arrive out of order. */
  delayWith(delayMs: (request: unknown) => number): void;
  readonly posted: unknown[];
}

export interface InProcessWorkerOptions {
  /** Where the ledger is kept; share one between two workers to stand for a page reload. */
  storage?: LedgerStorage;
  /** sql.js; by default loaded once per test process from node_modules. */
  sql?: Promise<SqlModule>;
}

let nodeSql: Promise<SqlModule> | null = null;

export function createInProcessWorker(options: InProcessWorkerOptions = {}): InProcessWorker {
  const host = createLabHost({
    sql: options.sql ?? (nodeSql ??= initSqlJs()),
    storage: options.storage ?? memoryLedgerStorage(),
  });
  const listeners = new Map<string, Array<(event: MessageEvent<unknown>) => void>>();
  const posted: unknown[] = [];
  let answer: (request: unknown) => unknown = (request) =>
    host.handleMessage(request, (progress) => dispatch(progress));
  let delay: (request: unknown) => number = () => 0;
  let terminated = false;

  /**
   * Hands one message to the page's listeners, asynchronously, as a real worker would: cloned when
   * sent, and delivered in the order sent (a run's parts sent ahead of its answer arrive before it).
   */
  const outbox: unknown[] = [];
  function dispatch(response: unknown): void {
    outbox.push(structuredClone(response));
    setTimeout(() => {
      const data = outbox.shift();
      if (terminated) return;
      for (const listener of listeners.get('message') ?? []) listener(new MessageEvent('message', { data }));
    }, 0);
  }

  const deliver = (message: unknown) => {
    const request = structuredClone(message);
    posted.push(request);
    // Like the real worker, the host starts on the message at once; the answer travels back later.
    const answered = Promise.resolve(answer(request));
    setTimeout(() => {
      void answered.then((response) => {
        // A long answer goes in parts, as engine.worker.ts sends it (a stand-in's raw answer goes as it is).
        // A stand-in may answer with a list of messages (parts, then an answer): sent one by one as they are.
        if (Array.isArray(response)) {
          for (const message of response as unknown[]) dispatch(message);
          return;
        }
        let messages: unknown[] = [response];
        try {
          messages = inParts(response as LabResponse);
        } catch {
          // Not a well-formed answer (a test's stand-in): sent as it is, for the client to refuse.
        }
        for (const message of messages) dispatch(message);
      });
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
