import type { ValidateFunction } from 'ajv';
import { classify, type RetryClassification } from '../engine';
import { failureCards, runCommand, type FailureCard } from './failureCards';
// Compiled from reviewInputSchema at build time (npm run validators): no code is generated in the page.
import { validateReviewInput } from './generated/validators.js';

export { reviewInputSchema } from './reviewInputSchema';

/**
 * The reliability reviewer (SPEC §10): given an MCP operation, its transport, timeout policy, retry
 * behaviour, queue policy and recovery plan, it returns a race table, a retry classification, the
 * idempotency boundary, flow-control checks and the SPEC §9 failure cards its choices run into —
 * each unsafe choice flagged with its reason. Invalid input is answered field by field.
 */
export interface ReviewInput {
  operation: {
    name: string;
    mutates: boolean;
    idempotencyKey: boolean;
    /** The effect lives in another service (a payment API, a deployment). */
    remoteEffect?: boolean;
    annotations?: { readOnlyHint?: boolean; idempotentHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean };
    /** Key claim, effect and result commit in one transaction. */
    atomicKeyCheck?: boolean;
    /** The ledger stores and compares an argument fingerprint. */
    fingerprint?: boolean;
    /** Returned results are rebuilt from stored JSON. */
    defensiveCopies?: boolean;
  };
  transport: 'stdio' | 'http';
  cancellation: 'notifications/cancelled' | 'close-stream' | 'post-notification';
  timeouts: { idleMs: number; maxMs: number | null; progressResetsMax?: boolean };
  retry: { automatic: boolean; sameKey?: boolean; attemptsMax: number; backoff: 'none' | 'exponential' | 'full-jitter' | 'equal-jitter' | 'decorrelated-jitter' };
  queue: { policy: 'coalesce-drop-oldest' | 'unbounded' | 'drop-newest'; capacityEvents: number; reserveForFinal: boolean };
  ledger: 'shared-durable' | 'per-replica' | 'in-memory' | 'none';
  proxy?: { bufferingDisabled: boolean };
  recovery: { newRequestId: boolean; lastEventId: boolean; refetch: string[]; replayUnsafeMutations: boolean; pollTasksUntilTerminal?: boolean };
}


export interface FieldError {
  /** JSON Pointer-like path of the field, e.g. /timeouts/maxMs. */
  field: string;
  message: string;
}

export interface Flag {
  field: string;
  severity: 'unsafe' | 'warning';
  reason: string;
  card: FailureCard['id'] | null;
}

export interface RaceRow {
  ordering: string;
  server: string;
  client: string;
  wire: string;
}

export interface Review {
  operation: string;
  raceTable: RaceRow[];
  retryClassification: RetryClassification;
  idempotencyBoundary: string[];
  flowControl: { check: string; ok: boolean; detail: string }[];
  flags: Flag[];
  failureCards: FailureCard[];
}

export type ReviewResult = { ok: true; review: Review } | { ok: false; errors: FieldError[] };

const validateInput = validateReviewInput as ValidateFunction<ReviewInput>;

function fieldErrors(): FieldError[] {
  return (validateInput.errors ?? []).map((error) => {
    const field = error.instancePath === '' ? '/' : error.instancePath;
    if (error.keyword === 'required') return { field: `${error.instancePath}/${String(error.params.missingProperty)}`, message: 'is required' };
    if (error.keyword === 'additionalProperties') return { field: `${error.instancePath}/${String(error.params.additionalProperty)}`, message: 'is not a field the reviewer knows' };
    if (error.keyword === 'enum') return { field, message: `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    return { field, message: error.message ?? 'is invalid' };
  });
}

export function review(input: unknown): ReviewResult {
  if (!validateInput(input)) return { ok: false, errors: fieldErrors() };
  const i = input;
  const flags: Flag[] = [];
  const flag = (field: string, severity: Flag['severity'], reason: string, card: FailureCard | null): void => {
    flags.push({ field, severity, reason, card: card?.id ?? null });
  };
  const op = i.operation;
  const signal = i.transport === 'http' ? 'closing the request’s SSE response stream' : 'notifications/cancelled';

  // Cancellation signal per transport (RC-5).
  if (i.transport === 'http' && i.cancellation === 'post-notification') flag('/cancellation', 'unsafe', 'on Streamable HTTP closing the request’s response stream is the cancellation; a POSTed notifications/cancelled is not', failureCards.httpPostsCancel);
  if (i.transport === 'http' && i.cancellation === 'notifications/cancelled') flag('/cancellation', 'unsafe', 'notifications/cancelled is the stdio signal; on Streamable HTTP close the response stream', failureCards.httpPostsCancel);
  if (i.transport === 'stdio' && i.cancellation !== 'notifications/cancelled') flag('/cancellation', 'unsafe', 'stdio has no per-request stream to close: send notifications/cancelled', null);

  // Deadlines (RC-1, RC-2, RC-4).
  if (i.timeouts.maxMs === null) flag('/timeouts/maxMs', 'unsafe', 'no maximum timeout: steady progress keeps hung work alive forever', failureCards.progressResetsEverything);
  if (i.timeouts.progressResetsMax === true) flag('/timeouts/progressResetsMax', 'unsafe', 'progress must reset the idle clock only, never the absolute budget', failureCards.progressResetsEverything);
  if (i.timeouts.maxMs !== null && i.timeouts.idleMs >= i.timeouts.maxMs) flag('/timeouts/idleMs', 'warning', `the idle timeout (${i.timeouts.idleMs} ms) is not shorter than the maximum (${i.timeouts.maxMs} ms), so it never fires first`, null);

  // Retries and idempotency (LG, RT).
  const durableKey = op.idempotencyKey && i.ledger === 'shared-durable';
  const classification = classify({ name: op.name, description: '', annotations: op.annotations ?? {}, contract: { mutates: op.mutates, durableKey, deterministicRead: !op.mutates } });
  if (op.mutates && i.retry.automatic && classification.retryClass === 'unsafe') {
    flag('/retry/automatic', 'unsafe', op.idempotencyKey ? `the key is only as durable as its ledger (${i.ledger}); a retry can run the effect twice` : 'a retry under a new JSON-RPC id runs the mutation again; no key lets the server recognise the intent', failureCards.newIdAsDedupe);
  }
  if (op.mutates && op.idempotencyKey && i.retry.automatic && i.retry.sameKey === false) flag('/retry/sameKey', 'unsafe', 'a retry must repeat the same key with identical arguments, or it is a new intent', failureCards.newIdAsDedupe);
  if (op.mutates && op.idempotencyKey && (i.ledger === 'in-memory' || i.ledger === 'per-replica')) flag('/ledger', 'unsafe', `an ${i.ledger} ledger forgets keys on restart and does not span replicas`, failureCards.inMemoryLedger);
  if (op.mutates && op.idempotencyKey && i.ledger === 'none') flag('/ledger', 'unsafe', 'a key with nowhere durable to record it de-duplicates nothing', failureCards.inMemoryLedger);
  if (op.mutates && op.idempotencyKey && op.atomicKeyCheck === false) flag('/operation/atomicKeyCheck', 'unsafe', 'checking the key and running the effect as separate steps lets two workers both see the key missing', failureCards.separateKeyCheck);
  if (op.mutates && op.idempotencyKey && op.fingerprint === false) flag('/operation/fingerprint', 'unsafe', 'without an argument fingerprint one key can alias two intents', failureCards.keyReusedChangedArgs);
  if (op.mutates && op.idempotencyKey && op.defensiveCopies === false) flag('/operation/defensiveCopies', 'unsafe', 'returning the stored object lets a caller corrupt later replays', failureCards.sharedMutableResult);
  if (op.remoteEffect === true && op.mutates) flag('/operation/remoteEffect', 'warning', 'a local ledger makes the local record atomic, not the remote effect: the other service must accept the same key, or write the effect to a transactional outbox in the same transaction', null);
  for (const warning of classification.hintWarnings) flag('/operation/annotations', 'warning', warning, null);

  // Backoff (RV-4, RV-5).
  if (i.retry.automatic && i.retry.attemptsMax > 0 && (i.retry.backoff === 'none' || i.retry.backoff === 'exponential')) {
    flag('/retry/backoff', i.retry.backoff === 'none' ? 'unsafe' : 'warning', i.retry.backoff === 'none' ? 'retrying without backoff turns recovery into a thundering herd' : 'exponential backoff without jitter keeps clients in lockstep waves', failureCards.herd);
  }

  // Flow control (BF).
  const flowControl = [
    { check: 'the progress queue is bounded', ok: i.queue.policy !== 'unbounded', detail: i.queue.policy === 'unbounded' ? 'memory grows with a slow consumer' : `${i.queue.capacityEvents} events, ${i.queue.policy}` },
    {
      check: 'replaceable progress is what gets dropped',
      ok: i.queue.policy === 'coalesce-drop-oldest',
      detail: { 'coalesce-drop-oldest': 'adjacent progress coalesces; the oldest progress is dropped first', 'drop-newest': 'dropping the newest progress keeps stale values and can drop a final response', unbounded: 'nothing is ever dropped, so nothing bounds memory' }[i.queue.policy],
    },
    { check: 'the final response is never dropped', ok: i.queue.reserveForFinal, detail: i.queue.reserveForFinal ? 'capacity is reserved for the final response' : 'under pressure the final response can be dropped' },
    { check: 'capacity leaves room for progress and a final', ok: i.queue.capacityEvents >= 2, detail: `${i.queue.capacityEvents} events` },
  ];
  if (i.queue.policy === 'unbounded') flag('/queue/policy', 'unsafe', 'an unbounded queue grows without limit behind a slow consumer', failureCards.unboundedQueue);
  if (!i.queue.reserveForFinal) flag('/queue/reserveForFinal', 'unsafe', 'the final response must never be dropped', failureCards.finalDropped);
  if (i.queue.capacityEvents < 2) flag('/queue/capacityEvents', 'warning', 'a capacity under 2 cannot hold a progress value and a final response', null);
  if (i.transport === 'http' && i.proxy?.bufferingDisabled === false) flag('/proxy/bufferingDisabled', 'unsafe', 'a buffering proxy turns progress into bursts that trip the idle timeout; send X-Accel-Buffering: no and Cache-Control: no-cache', failureCards.proxyBuffers);

  // Recovery (RV-3, TK).
  if (i.recovery.lastEventId) flag('/recovery/lastEventId', 'unsafe', 'this protocol revision keeps no stream state: Last-Event-ID resumes nothing', failureCards.lastEventIdAssumed);
  if (!i.recovery.newRequestId) flag('/recovery/newRequestId', 'unsafe', 'a reconnect is a new request and needs a new JSON-RPC id', failureCards.lastEventIdAssumed);
  if (i.recovery.refetch.length === 0) flag('/recovery/refetch', 'unsafe', 'after a drop, refetch the affected state from its authoritative methods (tools/list, resources/list, prompts/list, tasks/get …)', failureCards.lastEventIdAssumed);
  if (i.recovery.replayUnsafeMutations) flag('/recovery/replayUnsafeMutations', 'unsafe', 'never repeat an unsafe mutation because its response was lost: reconcile first', failureCards.newIdAsDedupe);
  if (i.recovery.pollTasksUntilTerminal === false) flag('/recovery/pollTasksUntilTerminal', 'unsafe', 'a tasks/cancel acknowledgement is not a cancellation: poll until a terminal status', failureCards.taskAckFinal);

  const raceTable: RaceRow[] = [
    { ordering: 'cancellation wins', server: 'marks the request cancelled, stops work, suppresses the response (complete() returns nothing)', client: 'has abandoned the request; expects nothing more', wire: signal },
    { ordering: 'completion wins', server: 'sends the response; ignores the late cancellation without error or reply', client: 'ignores the response of a request it already abandoned', wire: `${signal}, crossing the response` },
    {
      ordering: i.timeouts.maxMs === null ? 'maximum deadline: none (flagged)' : `maximum deadline at ${i.timeouts.maxMs} ms`,
      server: 'receives the cancellation the timeout sends and stops',
      client: `gives up at the deadline (idle ${i.timeouts.idleMs} ms, reset by progress only), then cancels`,
      wire: signal,
    },
  ];

  const idempotencyBoundary = !op.mutates
    ? ['A read with no side effect: retry with a new JSON-RPC id once the failure boundary is understood.']
    : op.idempotencyKey
      ? [
          `The key is checked and recorded in the ${i.ledger} ledger${op.atomicKeyCheck === false ? ' — in separate steps (flagged)' : ', in one transaction with the effect record and the result'}.`,
          op.remoteEffect === true ? 'The remote effect is outside that transaction: the other service must accept the same key, or deliver the effect from a transactional outbox.' : 'The effect is recorded locally, inside the boundary.',
          'A retry must carry the same key and identical arguments; other arguments under the same key are refused (422-like).',
        ]
      : ['No idempotency key: nothing de-duplicates this mutation. Do not retry automatically; reconcile first.'];

  const cardIds = new Set(flags.map((f) => f.card).filter((c): c is FailureCard['id'] => c !== null));
  const cards = Object.values(failureCards).filter((card) => cardIds.has(card.id));
  return { ok: true, review: { operation: op.name, raceTable, retryClassification: classification, idempotencyBoundary, flowControl, flags, failureCards: cards } };
}

export function formatReview(result: ReviewResult): string {
  if (!result.ok) return ['The review input is invalid:', ...result.errors.map((e) => `  ${e.field}: ${e.message}`)].join('\n');
  const r = result.review;
  const lines = [`Reliability review of ${r.operation}`, '', 'race table'];
  for (const row of r.raceTable) lines.push(`  ${row.ordering}\n    server: ${row.server}\n    client: ${row.client}\n    wire:   ${row.wire}`);
  lines.push('', `retry classification: ${r.retryClassification.retryClass} — ${r.retryClassification.rule}`);
  lines.push('', 'idempotency boundary', ...r.idempotencyBoundary.map((l) => `  - ${l}`));
  lines.push('', 'flow-control checks', ...r.flowControl.map((c) => `  [${c.ok ? 'ok' : '!!'}] ${c.check}: ${c.detail}`));
  lines.push('', r.flags.length === 0 ? 'flags: none' : 'flags', ...r.flags.map((f) => `  ${f.severity.toUpperCase()} ${f.field}: ${f.reason}`));
  if (r.failureCards.length > 0) lines.push('', 'failure cards (SPEC §9)', ...r.failureCards.map((c) => `  ${c.failure}\n    symptom: ${c.symptom}\n    correct response: ${c.correctResponse}\n    see it: ${runCommand(c.failureRun)}\n    see the fix: ${runCommand(c.fixRun)}`));
  return lines.join('\n');
}
