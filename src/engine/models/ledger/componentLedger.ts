import type {
  ComponentClock,
  ComponentProbe,
  LedgerCall,
  LedgerProgramComponent,
  LedgerProgramEnd,
  LedgerStepAnswer,
  LedgerValue,
} from '../../core/components';
import { LabError } from '../../core/errors';
import type { StatementResult } from '../../core/sqlite';
import type { JsonObject, JsonValue } from '../../mcp/protocol';
import {
  COUNT_EXECUTION,
  INSERT_EFFECT,
  canonicalJson,
  effectRow,
  fingerprint,
  resultJsonFor,
  type Intent,
  type Program,
  type ProgramResult,
  type Step,
} from './ledger';

/**
 * A student's idempotent mutation (the `ledger` and `reserve-inventory` exercises) in the place of
 * `atomicMutation`. The student's `execute(key, args, effect)` is a program of SQL statements: the
 * adapter runs each one it yields as a step of the lab's own program, so every statement is a
 * scheduler event of its own and two connections interleave exactly as they do for the lab's ledger.
 *
 * The adapter follows what ran, not what the program says: which transaction is open (from the
 * BEGIN, COMMIT and ROLLBACK that succeeded), whether the effect committed, and which key records
 * which intent. It reports the statements of the contract the program breaks and answers the lab
 * as `atomicMutation` would, with the effect counted where it really committed. A program that says
 * something its statements contradict (an execution that never committed) ends the run (LAB050).
 */
export const LEDGER_STATEMENTS = [
  'changed-arguments-refused',
  'same-arguments-replayed',
  'survives-reopen',
  'no-secret-stored',
  'reconcile-by-key',
] as const;
export type LedgerStatement = (typeof LEDGER_STATEMENTS)[number];

/** The argument a call carries that the ledger must never keep (LG-P5). */
const SECRET_ARGUMENT = 'paymentToken';

/** What one key records, as the adapter saw it commit. */
interface KeyRecord {
  /** The lab's fingerprint of the intent that committed under the key. */
  readonly fingerprint: string;
  /** The effect's result, canonical JSON: what a replay must return. */
  readonly resultJson: string;
  readonly requestId: string;
  /** How many reopens of the ledger had happened when it committed. */
  readonly reopens: number;
}

/** One run's memory of what committed, across its requests (one per LedgerLab with a student's program). */
export class ComponentLedgerRun {
  readonly records = new Map<string, KeyRecord>();
  reopens = 0;

  constructor(
    readonly make: (call: LedgerCall, clock: ComponentClock) => LedgerProgramComponent,
    readonly probe: ComponentProbe,
    readonly clock: ComponentClock,
  ) {}

  breach(statement: LedgerStatement, explanation: string): void {
    this.probe.breach(statement, explanation, this.clock);
  }

  /** The ledger was saved, closed and reopened (or the server restarted on its file). */
  reopened(): void {
    this.reopens += 1;
  }

  /**
   * LG-P4: the client looked its key up after a lost response. `storedJson` is the row's result_json
   * (undefined: no row). Answers the result to hand the client, or null when there is none to read.
   */
  reconciled(key: string, storedJson: string | undefined): JsonObject | null {
    const record = this.records.get(key);
    let stored: JsonObject | null = null;
    if (storedJson !== undefined) {
      try {
        const parsed: unknown = JSON.parse(storedJson);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed as JsonObject;
      } catch {
        stored = null;
      }
    }
    if (record === undefined) return stored;
    if (storedJson === undefined)
      this.breach(
        'reconcile-by-key',
        `request #${record.requestId} committed under key "${key}", yet reading ledger.idempotency_keys by that key found no row: the client cannot learn that its call ran`,
      );
    else if (stored === null || canonicalJson(stored) !== record.resultJson)
      this.breach(
        'reconcile-by-key',
        `reading key "${key}" found result_json ${JSON.stringify(storedJson.slice(0, 120))}, not the committed result ${record.resultJson}: the record must hold the result as JSON`,
      );
    return stored;
  }
}

type TransactionState = 'none' | 'open';
type EffectState = 'none' | 'pending' | 'committed' | 'discarded';

const BEGIN = /^\s*BEGIN\b/i;
const COMMIT = /^\s*(COMMIT|END)\b/i;
const ROLLBACK = /^\s*ROLLBACK\b(?!\s+(TRANSACTION\s+)?TO\b)/i;

/** Statements the contract leaves out: each would let a program escape what the adapter follows. */
function refused(sql: string): string | null {
  if (/^\s*(SAVEPOINT|RELEASE)\b/i.test(sql) || /^\s*ROLLBACK\s+(TRANSACTION\s+)?TO\b/i.test(sql))
    return 'savepoints are outside the contract: use BEGIN IMMEDIATE … COMMIT or ROLLBACK';
  if (/\b(ATTACH|DETACH|PRAGMA|VACUUM)\b/i.test(sql))
    return "ATTACH, DETACH, PRAGMA and VACUUM are the lab's: the connection is set up for you";
  if (/\b(CREATE|DROP|ALTER)\b[\s\S]*\bledger\s*\./i.test(sql))
    return "the ledger file's schema is fixed (a reopen checks it): use its tables as they are";
  if (/\b(INSERT|UPDATE|DELETE|REPLACE)\b[\s\S]*\b(effects|executions)\b/i.test(sql))
    return 'only the effect you were given writes ledger.effects and ledger.executions: yield `effect` to run it';
  return null;
}

function rowsOf(result: Extract<StatementResult, { ok: true }>): Record<string, LedgerValue>[] {
  return result.rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([column, value]) => [
        column,
        value instanceof Uint8Array
          ? `x'${[...value].map((byte) => byte.toString(16).padStart(2, '0')).join('')}'`
          : value,
      ]),
    ),
  );
}

function answerOf(result: StatementResult): LedgerStepAnswer {
  return result.ok
    ? { ok: true, rows: rowsOf(result), changes: result.changes }
    : { ok: false, code: result.code, message: result.message };
}

function mustAnswer(result: StatementResult | undefined): StatementResult {
  if (result === undefined) throw new LabError('LAB050', 'a statement step was answered with nothing');
  return result;
}

/** The arguments as the client sent them: a retry (any request but the first) serialises its members in the other order. */
function argumentsAsSent(intent: Intent): Record<string, LedgerValue> {
  const entries = Object.entries(intent.args).map(([name, value]): [string, LedgerValue] => [
    name,
    typeof value === 'string' || typeof value === 'number' || value === null ? value : JSON.stringify(value),
  ]);
  return Object.fromEntries(intent.requestId === '41' ? entries : entries.reverse());
}

const describeEnd = (end: LedgerProgramEnd): string =>
  end.status === 'rejected' || end.status === 'failed' ? `${end.status} (${end.code})` : end.status;

/** The effect's parameters, as `execute` must yield them back. */
function effectParamsOf(intent: Intent, atMs: number) {
  const row = effectRow(intent);
  return [intent.operation, row.subject, row.amount, row.tenant, intent.requestId, intent.connection, atMs] as const;
}

/** What one request's mutation follows as its statements run: the transaction, the effect and its result. */
interface Track {
  transaction: TransactionState;
  effect: EffectState;
  resultJson: string | null;
}

/** One request's mutation, as its steps and its end check it. */
interface Mutation {
  readonly intent: Intent;
  readonly run: ComponentLedgerRun;
  /** `request #41 (A)`: how every message names the request. */
  readonly who: string;
  /** The lab's fingerprint of the request's intent. */
  readonly fp: string;
  /** What the key recorded when the request started (undefined: nothing, or no key). */
  readonly atStart: KeyRecord | undefined;
  readonly effectParams: ReturnType<typeof effectParamsOf>;
  readonly track: Track;
}

/** The effect committed: the key records the intent and its result, unless an earlier call's already does. */
function commitEffect({ intent, run, fp, track }: Mutation): void {
  track.effect = 'committed';
  if (intent.key !== null && track.resultJson !== null && !run.records.has(intent.key))
    run.records.set(intent.key, {
      fingerprint: fp,
      resultJson: track.resultJson,
      requestId: intent.requestId,
      reopens: run.reopens,
    });
}

/** Runs one request's `execute` as a Program of the ledger model. */
export function* componentMutation(intent: Intent, run: ComponentLedgerRun, nowMs: () => number): Program {
  const effectParams = effectParamsOf(intent, nowMs());
  const call: LedgerCall = {
    key: intent.key,
    args: argumentsAsSent(intent),
    effect: { sql: INSERT_EFFECT, params: effectParams },
    operation: intent.operation,
    requestId: intent.requestId,
    connection: intent.connection,
    atMs: effectParams[6],
  };
  const secret = intent.args[SECRET_ARGUMENT];
  const fp = fingerprint(intent.operation, intent.args);
  const atStart = intent.key === null ? undefined : run.records.get(intent.key);
  const program = run.make(call, run.clock);
  // In one object: the steps change them, and the checks read what they changed.
  const track: Track = {
    transaction: 'none',
    effect: 'none',
    resultJson: null,
  };
  const who = `request #${intent.requestId} (${intent.connection})`;
  const m: Mutation = { intent, run, who, fp, atStart, effectParams, track };
  try {
    let answer: LedgerStepAnswer | undefined;
    for (;;) {
      const next = program.next(answer);
      if (next.done) {
        if (track.transaction === 'open')
          throw new LabError(
            'LAB050',
            `${who}: execute() returned ${describeEnd(next.end)} with its transaction still open: it would hold the ledger's write lock for ever. End every transaction (COMMIT or ROLLBACK) before returning`,
          );
        return settle(m, next.end);
      }
      const step = next.step;
      if ('waitMs' in step) {
        yield { waitMs: step.waitMs, reason: step.reason ?? `execute() waits ${step.waitMs} ms of virtual time` };
        answer = undefined;
        continue;
      }
      if (step.sql === INSERT_EFFECT) {
        answer = yield* runEffect(m, step.params);
        continue;
      }
      const refusal = refused(step.sql);
      if (refusal !== null)
        throw new LabError('LAB050', `${who}: execute() yielded ${JSON.stringify(step.sql.slice(0, 120))}: ${refusal}`);
      if (
        secret !== undefined &&
        /^\s*(INSERT|UPDATE|REPLACE)\b/i.test(step.sql) &&
        [step.sql, ...step.params.map((param) => String(param))].some((text) => text.includes(String(secret)))
      ) {
        run.breach(
          'no-secret-stored',
          `${who} wrote the call's ${SECRET_ARGUMENT} into the ledger (${JSON.stringify(step.sql.slice(0, 80))}): a key binds what the intent is, never a secret that travels with it (LG-P5)`,
        );
      }
      const result = mustAnswer(
        yield { sql: step.sql, params: step.params, purpose: step.purpose ?? 'a statement of execute()' },
      );
      if (result.ok) {
        if (BEGIN.test(step.sql)) track.transaction = 'open';
        else if (COMMIT.test(step.sql)) {
          track.transaction = 'none';
          if (track.effect === 'pending') commitEffect(m);
        } else if (ROLLBACK.test(step.sql)) {
          track.transaction = 'none';
          if (track.effect === 'pending') track.effect = 'discarded';
        }
      }
      answer = answerOf(result);
    }
  } finally {
    program.close();
  }
}

/** The business effect, yielded by `execute`: run once, counted with it, committed with its transaction. */
function* runEffect(
  m: Mutation,
  params: readonly unknown[],
): Generator<Step, LedgerStepAnswer, StatementResult | undefined> {
  const { intent, track, who, effectParams } = m;
  if (JSON.stringify(params) !== JSON.stringify(effectParams))
    throw new LabError(
      'LAB050',
      `${who}: execute() yielded the effect's statement with other parameters (${JSON.stringify(params)}); yield \`effect\` exactly as it was given`,
    );
  if (track.effect === 'pending' || track.effect === 'committed')
    throw new LabError(
      'LAB050',
      `${who}: execute() yielded the effect a second time after it had already run: one call runs its effect at most once`,
    );
  const inserted = mustAnswer(yield { sql: INSERT_EFFECT, params: effectParams, purpose: 'the business effect' });
  if (!inserted.ok) return answerOf(inserted);
  const counted = mustAnswer(
    yield { sql: COUNT_EXECUTION, params: [intent.operation], purpose: 'count the execution (with the effect)' },
  );
  if (!counted.ok)
    throw new LabError('LAB050', `${who}: counting the execution failed (${counted.code}) after the effect ran`);
  track.resultJson = resultJsonFor(intent, Number(inserted.rows[0]?.effect_id));
  if (track.transaction === 'open') track.effect = 'pending';
  else commitEffect(m);
  return {
    ok: true,
    rows: rowsOf(inserted),
    changes: inserted.changes,
    result: JSON.parse(track.resultJson) as Record<string, LedgerValue>,
  };
}

/** The program's end, held against what its statements did: the lab's result, or LAB050 where they contradict it. */
function settle(m: Mutation, end: LedgerProgramEnd): ProgramResult {
  const { track, who } = m;
  const executed = track.effect === 'committed';
  const claimed = describeEnd(end);
  if (end.status === 'executed' && !executed)
    throw new LabError(
      'LAB050',
      `${who}: execute() returned 'executed', but its effect ${track.effect === 'none' ? 'never ran' : 'was rolled back'}: 'executed' means the effect committed in this call`,
    );
  if ((end.status === 'replayed' || end.status === 'rejected') && executed)
    throw new LabError(
      'LAB050',
      `${who}: execute() returned '${end.status}', but its effect committed in this call: return 'executed' with the effect's result`,
    );
  let outcome: ProgramResult;
  if (end.status === 'executed') {
    if (canonicalJson(end.result as JsonValue) !== track.resultJson)
      throw new LabError(
        'LAB050',
        `${who}: execute() returned 'executed' with ${JSON.stringify(end.result)}, not the effect's result ${String(track.resultJson)}: return what the effect answered`,
      );
    outcome = { status: 'executed', resultJson: track.resultJson as string };
  } else if (end.status === 'replayed') {
    outcome = { status: 'replayed', resultJson: canonicalJson(end.result as JsonValue) };
  } else if (end.status === 'rejected') {
    if (end.code === 'IDEMPOTENCY_KEY_REUSED')
      outcome = { status: 'rejected', httpAnalogue: 422, code: end.code, reason: end.reason };
    else if (end.code === 'IDEMPOTENCY_KEY_IN_FLIGHT')
      outcome = { status: 'rejected', httpAnalogue: 409, code: end.code, reason: end.reason };
    else
      throw new LabError(
        'LAB050',
        `${who}: execute() rejected with code ${JSON.stringify(end.code)}; a rejection is IDEMPOTENCY_KEY_REUSED (other arguments) or IDEMPOTENCY_KEY_IN_FLIGHT (the key is held)`,
      );
  } else if ('code' in end) {
    outcome = { status: 'failed', executed, code: end.code, reason: end.reason };
  } else {
    throw new LabError('LAB050', `${who}: execute() ended with status ${JSON.stringify(end.status)}`);
  }
  checkEnd(m, outcome, claimed, executed);
  return outcome;
}

/** Reports the ledger statements the call broke, from what its key recorded at its start and at its end. */
function checkEnd(m: Mutation, outcome: ProgramResult, claimed: string, executed: boolean): void {
  const { intent, run, who, fp, atStart } = m;
  if (intent.key === null) return;
  const atEnd = run.records.get(intent.key);
  if (executed) {
    if (atStart === undefined) return;
    if (atStart.fingerprint !== fp)
      run.breach(
        'changed-arguments-refused',
        `${who} reused key "${intent.key}" with other arguments than request #${atStart.requestId}, which had committed under it, and ran the effect again: one key must never stand for two intents`,
      );
    if (atStart.reopens < run.reopens)
      run.breach(
        'survives-reopen',
        `request #${atStart.requestId} committed under key "${intent.key}" before the ledger was closed and reopened; after the reopen ${who} did not find it and ran the effect again`,
      );
    return;
  }
  if (atEnd === undefined) return;
  if (atEnd.fingerprint !== fp) {
    if (atStart === undefined) return;
    if (!(outcome.status === 'rejected' && outcome.code === 'IDEMPOTENCY_KEY_REUSED')) {
      const got =
        outcome.status === 'replayed'
          ? `replayed ${outcome.resultJson}, the result of request #${atEnd.requestId}'s other intent`
          : `ended ${claimed}`;
      run.breach(
        'changed-arguments-refused',
        `${who} reused key "${intent.key}" with other arguments than request #${atEnd.requestId} committed under it, and ${got}: it must be refused with IDEMPOTENCY_KEY_REUSED (422-like)`,
      );
    }
    return;
  }
  if (outcome.status === 'replayed' && outcome.resultJson === atEnd.resultJson) return;
  if (outcome.status === 'rejected' && outcome.code === 'IDEMPOTENCY_KEY_IN_FLIGHT' && atStart === undefined) return;
  const got =
    outcome.status === 'replayed'
      ? `replayed ${outcome.resultJson}, not the committed ${atEnd.resultJson}`
      : `ended ${claimed}${outcome.status === 'rejected' || outcome.status === 'failed' ? `: ${outcome.reason.slice(0, 160)}` : ''}`;
  run.breach(
    'same-arguments-replayed',
    `${who} carried key "${intent.key}" with the same arguments as request #${atEnd.requestId}, which committed under it (this call's members arrived in ${intent.requestId === '41' ? 'their first' : 'another'} order), and ${got}: the same intent gets the stored result back`,
  );
}
