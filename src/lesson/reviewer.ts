import type { ValidateFunction } from 'ajv';
import { assert, classify, type BackoffPolicy, type RetryClassification, type Transport } from '../engine';
import { failureCards, runCommand, type FailureCard } from './failureCards';
import {
  allHold,
  boundaryCases,
  fill,
  flowChecks,
  raceRows,
  render,
  retryContract,
  reviewRules,
  type RuleFacts,
} from './reviewRules';
// Compiled from reviewInputSchema at build time (npm run validators): no code is generated in the page.
import { validateReviewInput } from './generated/validators.js';

import type { Cancellation, LedgerStore, QueuePolicy } from './reviewInputSchema';

export { reviewInputSchema } from './reviewInputSchema';

/**
 * The reliability reviewer (docs/requirements.md#artifacts-ar): given an MCP operation, its transport, timeout policy, retry
 * behaviour, queue policy and recovery plan, it returns a race table, a retry classification, the
 * idempotency boundary, flow-control checks and the failure cards its choices run into (docs/requirements.md#failure-modes-each-runnable-next-to-its-fix) —
 * each unsafe choice flagged with its reason. Invalid input is answered field by field.
 */
export interface ReviewInput {
  operation: {
    name: string;
    mutates: boolean;
    idempotencyKey: boolean;
    /** The effect lives in another service (a payment API, a deployment). */
    remoteEffect?: boolean;
    annotations?: {
      readOnlyHint?: boolean;
      idempotentHint?: boolean;
      destructiveHint?: boolean;
      openWorldHint?: boolean;
    };
    /** Key claim, effect and result commit in one transaction. */
    atomicKeyCheck?: boolean;
    /** The ledger stores and compares an argument fingerprint. */
    fingerprint?: boolean;
    /** Returned results are rebuilt from stored JSON. */
    defensiveCopies?: boolean;
  };
  transport: Transport;
  cancellation: Cancellation;
  timeouts: { idleMs: number; maxMs: number | null; progressResetsMax?: boolean };
  retry: { automatic: boolean; sameKey?: boolean; attemptsMax: number; backoff: BackoffPolicy };
  queue: { policy: QueuePolicy; capacityEvents: number; reserveForFinal: boolean };
  ledger: LedgerStore;
  proxy?: { bufferingDisabled: boolean };
  recovery: {
    newRequestId: boolean;
    lastEventId: boolean;
    refetch: string[];
    replayUnsafeMutations: boolean;
    pollTasksUntilTerminal?: boolean;
  };
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
  /** The rule of reviewRules.ts that raised it, and the requirements it enforces (docs/requirements.md). */
  rule: string;
  requirements: readonly string[];
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
  flowControl: { check: string; ok: boolean; detail: string; id: string; requirements: readonly string[] }[];
  flags: Flag[];
  failureCards: FailureCard[];
}

/** `errorsTotal`: how many errors there were when only the first ones are listed (see reviewLimits.ts). */
export type ReviewResult = { ok: true; review: Review } | { ok: false; errors: FieldError[]; errorsTotal?: number };

const validateInput = validateReviewInput as ValidateFunction<ReviewInput>;

function fieldErrors(): FieldError[] {
  return (validateInput.errors ?? []).map((error) => {
    const field = error.instancePath === '' ? '/' : error.instancePath;
    if (error.keyword === 'required')
      return { field: `${error.instancePath}/${String(error.params.missingProperty)}`, message: 'is required' };
    if (error.keyword === 'additionalProperties')
      return {
        field: `${error.instancePath}/${String(error.params.additionalProperty)}`,
        message: 'is not a field the reviewer knows',
      };
    if (error.keyword === 'enum')
      return {
        field,
        message: `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    return { field, message: error.message ?? 'is invalid' };
  });
}

export function review(input: unknown): ReviewResult {
  if (!validateInput(input)) return { ok: false, errors: fieldErrors() };
  const op = input.operation;
  const durableKey = allHold(retryContract.durableKey, input, { hintWarnings: [] });
  const classification = classify({
    name: op.name,
    description: '',
    annotations: op.annotations ?? {},
    contract: { mutates: op.mutates, durableKey, deterministicRead: !op.mutates },
  });
  const facts: RuleFacts = { hintWarnings: classification.hintWarnings };

  // Every check is a row of reviewRules.ts, in its order; the skill document prints the same table.
  const flags: Flag[] = [];
  for (const rule of reviewRules) {
    if (!allHold(rule.when, input, facts)) continue;
    const reasons = rule.reason === null ? facts.hintWarnings : [fill(rule.reason, input)];
    for (const reason of reasons)
      flags.push({
        field: rule.field,
        severity: rule.severity,
        reason,
        card: rule.card?.id ?? null,
        rule: rule.id,
        requirements: rule.requirements,
      });
  }
  const flowControl = flowChecks.map((c) => ({
    check: c.check,
    ok: allHold(c.ok, input, facts),
    detail: render(c.detail, input, facts),
    id: c.id,
    requirements: c.requirements,
  }));
  const raceTable: RaceRow[] = raceRows.map((row) => ({
    ordering: render(row.ordering, input, facts),
    server: render(row.server, input, facts),
    client: render(row.client, input, facts),
    wire: render(row.wire, input, facts),
  }));
  const boundary = boundaryCases.find((b) => allHold(b.when, input, facts));
  assert(boundary !== undefined, 'the last idempotency-boundary case holds for every input');
  const idempotencyBoundary = boundary.lines.map((line) => render(line, input, facts));

  const cardIds = new Set(flags.map((f) => f.card).filter((c): c is FailureCard['id'] => c !== null));
  const cards = Object.values(failureCards).filter((card) => cardIds.has(card.id));
  return {
    ok: true,
    review: {
      operation: op.name,
      raceTable,
      retryClassification: classification,
      idempotencyBoundary,
      flowControl,
      flags,
      failureCards: cards,
    },
  };
}

export function formatReview(result: ReviewResult): string {
  if (!result.ok) {
    const more = (result.errorsTotal ?? result.errors.length) - result.errors.length;
    return [
      'The review input is invalid:',
      ...result.errors.map((e) => `  ${e.field}: ${e.message}`),
      ...(more > 0 ? [`  … and ${more.toLocaleString('en')} more errors`] : []),
    ].join('\n');
  }
  const r = result.review;
  const lines = [`Reliability review of ${r.operation}`, '', 'race table'];
  for (const row of r.raceTable)
    lines.push(`  ${row.ordering}\n    server: ${row.server}\n    client: ${row.client}\n    wire:   ${row.wire}`);
  lines.push('', `retry classification: ${r.retryClassification.retryClass} — ${r.retryClassification.rule}`);
  lines.push('', 'idempotency boundary', ...r.idempotencyBoundary.map((l) => `  - ${l}`));
  lines.push(
    '',
    'flow-control checks',
    ...r.flowControl.map(
      (c) => `  [${c.ok ? 'ok' : '!!'}] ${c.check}: ${c.detail} [${c.id}; ${c.requirements.join(', ')}]`,
    ),
  );
  lines.push(
    '',
    r.flags.length === 0 ? 'flags: none' : 'flags',
    ...r.flags.map(
      (f) => `  ${f.severity.toUpperCase()} ${f.field}: ${f.reason} [${f.rule}; ${f.requirements.join(', ')}]`,
    ),
  );
  if (r.failureCards.length > 0)
    lines.push(
      '',
      'failure cards',
      ...r.failureCards.map(
        (c) =>
          `  ${c.failure}\n    symptom: ${c.symptom}\n    correct response: ${c.correctResponse}\n    see it: ${runCommand(c.failureRun)}\n    see the fix: ${runCommand(c.fixRun)}`,
      ),
    );
  return lines.join('\n');
}
