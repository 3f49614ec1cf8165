import type {
  ComponentClock,
  Components,
  LedgerCall,
  LedgerProgramComponent,
  LedgerProgramEnd,
  LedgerStepAnswer,
  LedgerStepRequest,
  LedgerValue,
} from '../../engine';
import type { Caller } from '../caller';
import type { Json } from '../types';

/**
 * The student's side of the ledger exercises: `execute(key, args, effect)` is a generator the lab
 * drives one step at a time (`make` calls it, each step is its `next`). Every call runs in a fresh
 * copy of the module (`Caller.replica`): each request may land on another server replica and a
 * restart forgets memory, so only what the program commits to SQLite lasts. This file checks the
 * shapes the generator yields and returns; what they mean is the engine adapter's
 * (models/ledger/componentLedger.ts).
 */
const STATUSES: readonly string[] = ['executed', 'replayed', 'rejected', 'failed'];
const MAX_WAIT_MS = 60_000;

const short = (value: Json): string => (JSON.stringify(value) ?? 'undefined').slice(0, 200);

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}

function step(value: Json | undefined, caller: Caller): LedgerStepRequest {
  if (!isObject(value))
    return caller.shape(
      `execute() yielded ${short(value ?? null)}; it yields a statement { sql, params }, the effect, or a wait { waitMs }`,
    );
  if ('waitMs' in value) {
    const waitMs = value.waitMs;
    if (typeof waitMs !== 'number' || !Number.isInteger(waitMs) || waitMs < 1 || waitMs > MAX_WAIT_MS)
      caller.shape(
        `execute() yielded a wait of ${short(waitMs)} ms; waitMs is a whole number of milliseconds from 1 to ${MAX_WAIT_MS}`,
      );
    return { waitMs: waitMs as number, ...(typeof value.reason === 'string' ? { reason: value.reason } : {}) };
  }
  if (typeof value.sql !== 'string' || value.sql.trim() === '')
    return caller.shape(`execute() yielded ${short(value)}: a statement step has its SQL text in sql (a string)`);
  const params = value.params ?? [];
  if (
    !Array.isArray(params) ||
    params.some(
      (param) => param !== null && typeof param !== 'string' && !(typeof param === 'number' && Number.isFinite(param)),
    )
  ) {
    return caller.shape(
      `execute() yielded the statement ${short(value.sql)} with params ${short(params)}; params is an array of strings, finite numbers and nulls`,
    );
  }
  return {
    sql: value.sql,
    params: params as LedgerValue[],
    ...(typeof value.purpose === 'string' ? { purpose: value.purpose } : {}),
  };
}

function end(value: Json | undefined, caller: Caller): LedgerProgramEnd {
  if (!isObject(value) || typeof value.status !== 'string' || !STATUSES.includes(value.status)) {
    return caller.shape(
      `execute() returned ${short(value ?? null)}; it returns { status: 'executed' | 'replayed', result } or { status: 'rejected' | 'failed', code, reason }`,
    );
  }
  const status = value.status;
  if (status === 'executed' || status === 'replayed') {
    if (!isObject(value.result))
      return caller.shape(
        `execute() returned '${status}' with result ${short(value.result ?? null)}; the result is an object (the effect's result)`,
      );
    return { status, result: value.result };
  }
  if (typeof value.code !== 'string') return caller.shape(`execute() returned '${status}' without a code (a string)`);
  const reason = typeof value.reason === 'string' ? value.reason : '';
  return status === 'rejected' ? { status, code: value.code, reason } : { status: 'failed', code: value.code, reason };
}

function toJson(answer: LedgerStepAnswer): Json {
  return JSON.parse(JSON.stringify(answer)) as Json;
}

/** The `ledgerExecute` component over a student's `execute`. */
export function ledgerComponents(caller: Caller): Omit<Components, 'probe'> {
  return {
    ledgerExecute: (call: LedgerCall, clock: ComponentClock): LedgerProgramComponent => {
      caller.clock = clock;
      const replica = caller.replica();
      const effect: Json = {
        sql: call.effect.sql,
        params: [...call.effect.params],
        operation: call.operation,
        requestId: call.requestId,
        connection: call.connection,
        atMs: call.atMs,
      };
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        replica.dispose();
      };
      try {
        const handle = replica.make('execute', [call.key, { ...call.args }, effect]);
        return {
          next(answer) {
            const raw = replica.method(handle, 'next', answer === undefined ? [] : [toJson(answer)]);
            if (!isObject(raw) || typeof raw.done !== 'boolean')
              return replica.shape(
                `execute() must be a generator (export function* execute): its next() answered ${short(raw)}`,
              );
            if (raw.done) return { done: true, end: end(raw.value, replica) };
            return { done: false, step: step(raw.value, replica) };
          },
          close,
        };
      } catch (error) {
        close();
        throw error;
      }
    },
  };
}
