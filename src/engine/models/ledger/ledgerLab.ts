import { assert } from '../../core/assert';
import { LabError } from '../../core/errors';
import {
  callToolErrorResponse,
  callToolRequest,
  callToolResultResponse,
  type JsonObject,
  type JsonRpcMessage,
  type RequestId,
} from '../../mcp/protocol';
import type { Scheduler } from '../../core/scheduler';
import type { EventBase, Unstamped, MessageEvent, Side } from '../../core/transcript';
import type { Sim } from '../../core/sim';
import { mcpSim } from '../../mcp/mcpSim';
import { sqlEvent } from '../../core/sqlite';
import { runAndClose, type Model, type ResolvedRun } from '../../core/model';
import type {
  LedgerClientOperation,
  LedgerDuplicateEffect,
  LedgerModelEvent,
  LedgerOutcome,
  LedgerResponseRecord,
  LedgerScenario,
} from './events';
import {
  KEY_PROFILES,
  atomicMutation,
  canonicalJson,
  unsafeMutation,
  type Intent,
  type Operation,
  type Program,
  type ProgramResult,
} from './ledger';
import { LedgerFile, type LedgerConnection, type SqliteHost } from '../../core/sqlite';
import { ledgerSettingsSpec, type LedgerSettings } from './settings';
import { ComponentLedgerRun, componentMutation } from './componentLedger';
export { ledgerSettingsSpec, ledgerDefaults, type LedgerSettings } from './settings';

/**
 * The ledger model (docs/requirements.md#idempotency-ledger-lg): a client calls a mutating tool; replicas of the server handle the
 * calls on independent sql.js connections to one ledger file. Responses get lost, clients retry
 * with a new JSON-RPC id, two requests race at a barrier, the ledger is closed and reopened, and a
 * caller mutates a returned result — each scenario turns one of these on.
 */

/** What the host gives a ledger run: the SQLite host of the kit. */
export type LedgerHost = SqliteHost;

const KEYS: Record<Operation, string> = { charge_account: 'checkout-7', reserve_inventory: 'cart-9-reserve' };

/**
 * A run with faults: how many lost calls the client sends again in one run before it gives up and leaves
 * their outcome unknown (a stdio pipe that dropped loses every later message: retrying forever would never end).
 */
const LOST_CALL_RETRIES_MAX = 3;

/** The client's own record of one call while the run goes (see LedgerClientOperation). */
interface ClientCall {
  readonly requestId: number;
  readonly tool: string;
  readonly variant: ArgumentVariant | null;
  /** The first call of the intent this one repeats (itself for a first call; null for a read). */
  readonly intentOf: number | null;
  state: 'pending' | 'answered' | 'unknown' | 'reconciled';
  reconciledBy?: number;
}

type ArgumentVariant = LedgerSettings['retryArguments'];

/** The call's arguments. reserve_inventory also carries a payment token the ledger must never keep (LG-P5). */
export function argumentsFor(operation: Operation, variant: ArgumentVariant): JsonObject {
  if (operation === 'charge_account') return { account: 'acct-7', cents: variant === 'changed' ? 1500 : 1200 };
  return {
    sku: 'sku-42',
    quantity: variant === 'changed' ? 3 : 2,
    tenant: variant === 'other-tenant' ? 'tenant-b' : 'tenant-a',
    paymentToken: PAYMENT_TOKEN,
  };
}

/** A stand-in secret: tests scan every stored row and every result to prove it never lands there. */
export const PAYMENT_TOKEN = 'tok_live_4242424242424242';

/** What an execution means, worded for whether a key records it (so it is true of the run). */
function executedDetail(key: string | null, resultJson: string): string {
  if (key === null)
    return `the effect committed; no key records the intent, so nothing stops it from running again; result ${resultJson}`;
  return `the effect committed, and key "${key}" now records it with its result ${resultJson}`;
}

export class LedgerLab {
  readonly sim: Sim<LedgerModelEvent>;
  private readonly settings: LedgerSettings;
  private readonly options: ResolvedRun<LedgerSettings>;
  private readonly host: LedgerHost;
  private file: LedgerFile;
  /** ledgerStore=per-replica-memory (a catalogued failure mode): the other replicas' own in-memory ledgers. */
  private readonly replicaFiles = new Map<string, LedgerFile>();
  private readonly connections = new Map<string, LedgerConnection>();
  /** Connections inside a request's program: SQLite runs one transaction per connection at a time. */
  private readonly busy = new Set<string>();
  /** resultCopies=shared: the failure mode, a cache that hands out the same object every time. */
  private readonly sharedResults = new Map<string, JsonObject>();
  private readonly responses: LedgerResponseRecord[] = [];
  private readonly arrivedAtBarrier: Array<() => void> = [];
  private firstResultJson: string | null = null;
  private aliasIntact: boolean | null = null;
  private executions = 0;
  private busyRetries = 0;
  private requests = 0;
  private firstResponseSettled = false;
  private barrierPassed = false;
  private replayId: number | null = null;
  private readonly idsUsed = new Set<number>();
  /** Which server process is running: a restart starts the next one, and work of an earlier one ends where it was. */
  private generation = 0;
  /** How the client sends each of its requests again if a server restart loses it on the way: by id. */
  private readonly resend = new Map<number, () => void>();
  /** A student's `execute` in the place of the lab's programs, with what it committed (null: the lab's own). */
  private readonly componentRun: ComponentLedgerRun | null;
  /**
   * Whether the run injects faults. Then any message may be lost, so the client keeps a deadline
   * (retryAfterMs) on every call, not only the first; a call whose deadline passes is unknown to it. Without
   * faults only the first response is ever lost (loseFirstResponse) and the run is as it always was.
   */
  private readonly faulted: boolean;
  /** A run with faults: every call of the client, in order, as the client knows it. */
  private readonly clientCalls = new Map<number, ClientCall>();
  /** Requests whose effect committed, in order (the duplicated effect's history). */
  private readonly executedBy: number[] = [];
  /** The reads (reconcile) the server answered. */
  private readonly readsServed = new Set<number>();
  /** A run with faults: the lost calls sent again so far. */
  private lostRetries = 0;

  /** `options.ledger`: the SQLite host, required; `options.components`: a student's mutation in the place of the lab's (the ledger exercises). */
  constructor(options: ResolvedRun<LedgerSettings>) {
    if (options.ledger === undefined)
      throw new LabError(
        'LAB011',
        'ledger scenarios need sql.js; the host (command line, test or worker) must load it and pass it in',
      );
    this.options = options;
    this.settings = options.settings;
    this.host = options.ledger;
    this.sim = mcpSim(options, { eventsMax: options.settings.eventsMax, latency: options.settings });
    this.sim.wire.crashRestart = (seq) => this.restartAfterCrash(seq);
    this.faulted = (options.faults?.length ?? 0) > 0;
    const execute = options.components?.ledgerExecute;
    this.componentRun =
      execute === undefined || options.components === undefined
        ? null
        : new ComponentLedgerRun(execute, options.components.probe, this.sim.componentClock());
    this.file = LedgerFile.open(this.host.sql, this.host.bytes ?? null, this.host.recycle);
    this.record({
      kind: 'ledger',
      action: 'opened',
      detail: this.host.bytes
        ? `ledger file opened from ${this.host.bytes.length} saved bytes`
        : 'new empty ledger file (SQLite, journal_mode=MEMORY)',
    });
  }

  get scheduler(): Scheduler {
    return this.sim.scheduler;
  }

  get events(): LedgerModelEvent[] {
    return this.sim.events;
  }

  private record<N extends Unstamped<LedgerModelEvent>>(event: N): N & EventBase {
    return this.sim.record(event);
  }

  private connection(name: string): LedgerConnection {
    let connection = this.connections.get(name);
    if (connection === undefined) {
      connection = this.fileFor(name).connect(name);
      this.connections.set(name, connection);
    }
    return connection;
  }

  private get perReplica(): boolean {
    return this.settings.ledgerStore === 'per-replica-memory';
  }

  /** The ledger a connection's replica uses: the one shared file, or (the failure mode) its own memory. */
  private fileFor(name: string): LedgerFile {
    if (!this.perReplica || name === 'conn-1') return this.file;
    let file = this.replicaFiles.get(name);
    if (file === undefined) {
      file = LedgerFile.open(this.host.sql, null, this.host.recycle);
      this.replicaFiles.set(name, file);
      this.record({
        kind: 'ledger',
        action: 'opened',
        detail: `the replica serving ${name} keeps its own in-memory ledger: it has never seen what the other replica committed (a catalogued failure mode)`,
      });
    }
    return file;
  }

  private allFiles(): LedgerFile[] {
    return [this.file, ...this.replicaFiles.values()];
  }

  private channel(from: Side, id: RequestId): string {
    if (this.options.transport === 'stdio') return 'stdio';
    return from === 'client' ? `POST #${String(id)}` : `response #${String(id)}`;
  }

  // ── client ───────────────────────────────────────────────────────────────────────────────────

  private key(): string | null {
    return this.settings.sendKey ? KEYS[this.settings.operation] : null;
  }

  /**
   * A JSON-RPC id the client has not used yet: `preferred` when free, else the next free one above
   * every id used (ids are unique per sender, so a replay during a race never reuses one).
   */
  private newId(preferred: number): number {
    const id = this.idsUsed.has(preferred) ? Math.max(...this.idsUsed) + 1 : preferred;
    assert(!this.idsUsed.has(id), () => `request id ${id} is already used`);
    return id;
  }

  private call(id: number, connectionName: string, variant: ArgumentVariant, intentOf: number = id): void {
    this.idsUsed.add(id);
    if (this.faulted) {
      this.clientCalls.set(id, { requestId: id, tool: this.settings.operation, variant, intentOf, state: 'pending' });
      // The first call's deadline is the retry timer (armRetry); every other call gets its own.
      if (id !== 41) this.armDeadline(id);
    }
    const s = this.settings;
    const args = argumentsFor(s.operation, variant);
    const key = this.key();
    const wireArgs: JsonObject = key === null ? { ...args } : { ...args, idempotencyKey: key };
    this.requests += 1;
    this.resend.set(id, () =>
      this.call(this.newId(id), connectionName === 'conn-1' ? 'conn-2' : connectionName, variant, intentOf),
    );
    this.sim.wire.send('client', this.channel('client', id), callToolRequest(id, s.operation, wireArgs, null), () => {
      this.serverReceives({ operation: s.operation, args, key, requestId: String(id), connection: connectionName }, id);
      return null;
    });
  }

  private clientReceives(id: number, event: MessageEvent): string | null {
    const late = this.lateAnswer(id);
    if (late !== null) return late;
    if (this.faulted) this.answeredCall(id);
    if (id === 41) this.firstResponseSettled = true;
    if (id === 41 && this.settings.replayAfterResponse) {
      const replayId = this.newId(42);
      this.replayId = replayId;
      const how =
        this.key() === null
          ? 'without a key: to the server it is a new intent'
          : 'with the same key (a replay or reconcile)';
      this.record({
        kind: 'ledger',
        action: 'retry',
        requestId: replayId,
        detail: `the client calls again ${how}: new JSON-RPC id, same business intent`,
      });
      this.call(replayId, 'conn-2', 'same');
    }
    return event.ignoredBy ?? null;
  }

  /**
   * The client's retry timer for request 41: a lost response leaves it not knowing the outcome. In a race
   * it is armed too; it only acts when a fault lost #41 or its response (without one, #41 is answered first).
   */
  private armRetry(): void {
    const s = this.settings;
    this.scheduler.after(s.retryAfterMs, 'client', 'client retry timer', () => {
      if (this.firstResponseSettled) return;
      // The client stops waiting for #41: its answer never came (it was lost), and it will not come now.
      this.sim.wire.settle('client', 41);
      // Unknown to the client. No event of its own: what follows (retry, no retry, reconcile) says it, as in a
      // run without faults, so a fault named on a later message names the same one.
      if (this.faulted) this.markUnknown(41, false);
      if (s.reopenBeforeRetry) this.reopen();
      // Reading the authoritative state is always safe; it is what decides whether to retry.
      if (s.onLostResponse === 'reconcile') {
        this.reconcile();
        return;
      }
      if (this.key() === null && !s.retryWithoutKey) {
        this.record({
          kind: 'ledger',
          action: 'no-retry',
          requestId: 41,
          detail:
            'no idempotency key: automatic retry is disabled; the outcome is unknown, so reconcile first (RT: unsafe)',
        });
        return;
      }
      this.retry();
    });
  }

  private retry(intentOf = 41, variant: ArgumentVariant = this.settings.retryArguments): void {
    const s = this.settings;
    const how =
      this.key() === null
        ? 'without a key: nothing lets the server recognise the same intent'
        : `with the same key${variant === 'same' ? ' and identical arguments' : ' but changed arguments'}`;
    const id = this.newId(42);
    this.record({
      kind: 'ledger',
      action: 'retry',
      requestId: id,
      detail: `no response after ${s.retryAfterMs} ms: the client retries as a NEW JSON-RPC id ${id}, ${how}`,
    });
    // In a race conn-2 carries #42 (it may still be inside its transaction): the retry opens its own connection.
    this.call(id, s.race ? 'conn-3' : 'conn-2', variant, intentOf);
  }

  // ── the client's record in a run with faults: deadlines and unknown outcomes ──────────────────

  /** A call other than the first: the client waits retryAfterMs for its answer, as it does for the first. */
  private armDeadline(id: number): void {
    this.scheduler.after(this.settings.retryAfterMs, 'client', `client deadline of #${id}`, () =>
      this.deadlinePassed(id),
    );
  }

  private isOpen(id: number): boolean {
    return this.sim.wire
      .unanswered()
      .some((event) => event.from === 'client' && 'id' in event.message && event.message.id === id);
  }

  /**
   * A call's deadline passed. If its answer came (or a restart already made the client send it again), nothing
   * happens. Otherwise the client stops waiting: a read is sent again (reading is safe); a mutating call is
   * unknown, and the client does what it does about a lost first call: reconcile, retry, or not retry.
   */
  private deadlinePassed(id: number): void {
    const call = this.clientCalls.get(id);
    assert(call !== undefined, () => `the client made call #${id}`);
    if (call.state !== 'pending' || !this.isOpen(id)) return;
    this.sim.wire.settle('client', id);
    const s = this.settings;
    if (call.intentOf === null) {
      call.state = 'unknown';
      if (!this.mayRetryLost(id)) return;
      this.record({
        kind: 'ledger',
        action: 'retry',
        requestId: id,
        detail: `no answer to the read #${id} after ${s.retryAfterMs} ms: a read is safe to repeat, so the client reads again under a new id`,
      });
      this.reconcile();
      return;
    }
    this.markUnknown(id);
    if (!this.mayRetryLost(id)) return;
    if (s.onLostResponse === 'reconcile') {
      this.reconcile();
      return;
    }
    if (this.key() === null && !s.retryWithoutKey) {
      this.record({
        kind: 'ledger',
        action: 'no-retry',
        requestId: id,
        detail:
          'no idempotency key: automatic retry is disabled; the outcome is unknown, so reconcile first (RT: unsafe)',
      });
      return;
    }
    this.retry(call.intentOf, call.variant ?? s.retryArguments);
  }

  /** Whether the client sends a lost call again: at most LOST_CALL_RETRIES_MAX times in a run, then it gives up. */
  private mayRetryLost(id: number): boolean {
    if (this.lostRetries < LOST_CALL_RETRIES_MAX) {
      this.lostRetries += 1;
      return true;
    }
    this.record({
      kind: 'ledger',
      action: 'no-retry',
      requestId: id,
      detail: `the client has sent lost calls again ${LOST_CALL_RETRIES_MAX} times with no answer: it gives up, and what its calls did stays unknown to it`,
    });
    return false;
  }

  /** The client stops waiting for call `id`: it cannot tell whether it ran. Unknown, not failed. */
  private markUnknown(id: number, record = true): void {
    const call = this.clientCalls.get(id);
    assert(call !== undefined, () => `the client made call #${id}`);
    call.state = 'unknown';
    if (!record) return;
    const what = this.settings.operation === 'charge_account' ? 'the charge' : 'the reservation';
    this.record({
      kind: 'ledger',
      action: 'unknown',
      requestId: id,
      detail: `no response to #${id} after ${this.settings.retryAfterMs} ms: the client cannot tell whether ${what} ran, so its outcome is unknown (not failed); it may have committed or not, and what the client does next must be right either way`,
    });
  }

  /**
   * An answer to a call the client already stopped waiting for (a delay fault made it late): the client
   * settled that request and acted without it, so it ignores the answer. Null: the client takes it.
   */
  private lateAnswer(id: number): string | null {
    const call = this.faulted ? this.clientCalls.get(id) : undefined;
    if (call === undefined || call.state === 'pending') return null;
    return `the client stopped waiting for #${id} at its deadline (${this.settings.retryAfterMs} ms) and already acted on an unknown outcome: this late answer is ignored`;
  }

  /** The client got call `id`'s answer; an answer about a keyed intent tells it what every unknown call of that intent did. */
  private answeredCall(id: number): void {
    const call = this.clientCalls.get(id);
    if (call === undefined) return;
    call.state = 'answered';
    const status = this.responses.find((response) => response.requestId === id)?.status;
    if (this.key() !== null && (status === 'executed' || status === 'replayed')) this.reconcileUnknown(id);
  }

  /** Every call still unknown is reconciled by the answer to `by` (the intent's one stored outcome). */
  private reconcileUnknown(by: number): void {
    for (const call of this.clientCalls.values()) {
      if (call.state !== 'unknown' || call.intentOf === null) continue;
      call.state = 'reconciled';
      call.reconciledBy = by;
    }
  }

  /**
   * LG-P4 / LG-P7 / LG-P10: before deciding, the client reads the authoritative ledger — by key when it
   * has one, else the inventory it was changing — and retries only if the first call did not commit.
   */
  private reconcile(): void {
    const s = this.settings;
    const key = this.key();
    const id = this.newId(43);
    const args: JsonObject = key === null ? { sku: 'sku-42', tenant: 'tenant-a' } : { idempotencyKey: key };
    const tool = key === null ? 'get_inventory' : 'get_mutation_by_key';
    this.record({
      kind: 'ledger',
      action: 'reconcile',
      requestId: id,
      detail: `no response after ${s.retryAfterMs} ms: before anything else the client reads the ledger with ${tool} (a safe read)`,
    });
    this.requests += 1;
    this.idsUsed.add(id);
    this.resend.set(id, () => this.reconcile());
    if (this.faulted) {
      this.clientCalls.set(id, { requestId: id, tool, variant: null, intentOf: null, state: 'pending' });
      this.armDeadline(id);
    }
    this.sim.wire.send('client', this.channel('client', id), callToolRequest(id, tool, args, null), () => {
      const connection = this.connection('conn-2');
      const found =
        key === null
          ? this.readSql(
              connection,
              id,
              'SELECT COALESCE(SUM(amount), 0) AS reserved FROM ledger.effects WHERE operation = ? AND subject = ? AND tenant = ?',
              [s.operation, 'sku-42', 'tenant-a'],
              're-read the inventory before deciding',
            )
          : this.readSql(
              connection,
              id,
              'SELECT result_json FROM ledger.idempotency_keys WHERE key = ?',
              [key],
              'look the intent up by its key',
            );
      const body: JsonObject =
        key === null ? { reserved: Number(found[0]?.reserved ?? 0) } : this.foundByKey(key, found[0]);
      this.readsServed.add(id);
      this.sim.wire.send(
        'server',
        this.channel('server', id),
        callToolResultResponse(id, canonicalJson(body), body),
        () => {
          const late = this.lateAnswer(id);
          if (late !== null) return late;
          if (this.faulted) {
            this.answeredCall(id);
            // The read says what the intent did: every call of it the client did not know about is known now.
            this.reconcileUnknown(id);
          }
          const committed = key === null ? Number(body.reserved) > 0 : body.found === true;
          if (committed) {
            this.record({
              kind: 'ledger',
              action: 'reconciled',
              requestId: id,
              detail: `the first call did commit (${canonicalJson(body)}): no retry, nothing runs twice`,
            });
          } else {
            this.record({
              kind: 'ledger',
              action: 'reconciled',
              requestId: id,
              detail: 'the first call did not commit: retrying is safe',
            });
            this.retry();
          }
          return null;
        },
      );
      return null;
    });
  }

  /** What get_mutation_by_key answers: the stored result, read back from its JSON. */
  private foundByKey(key: string, row: Record<string, string | number | null> | undefined): JsonObject {
    if (this.componentRun !== null) {
      const result = this.componentRun.reconciled(key, row === undefined ? undefined : String(row.result_json));
      return result === null ? { found: false } : { found: true, result };
    }
    return row === undefined
      ? { found: false }
      : { found: true, result: JSON.parse(String(row.result_json)) as JsonObject };
  }

  private readSql(
    connection: LedgerConnection,
    id: number,
    sql: string,
    params: (string | number)[],
    purpose: string,
  ): Record<string, string | number | null>[] {
    const result = connection.run(sql, params);
    this.record(sqlEvent(connection.name, id, sql, params, purpose, result));
    assert(result.ok, () => `reconcile read failed: ${sql}`);
    return result.rows as Record<string, string | number | null>[];
  }

  // ── server ───────────────────────────────────────────────────────────────────────────────────

  private serverReceives(intent: Intent, id: number): void {
    if (!this.settings.race || this.barrierPassed) {
      this.runProgram(intent, id);
      return;
    }
    // LG-5: both requests wait at a barrier and start at the same instant on their own connections.
    this.arrivedAtBarrier.push(() => this.runProgram(intent, id));
    if (this.arrivedAtBarrier.length < 2) return;
    this.barrierPassed = true;
    this.record({
      kind: 'ledger',
      action: 'barrier',
      detail: 'both requests reached the barrier: conn-1 and conn-2 start together',
    });
    for (const start of this.arrivedAtBarrier.splice(0)) start();
  }

  private runProgram(requested: Intent, id: number): void {
    const s = this.settings;
    // A request that arrives while its connection is inside another request's transaction takes a free
    // one from the server's pool: one connection cannot open a second transaction (SQLite would answer
    // "cannot start a transaction within a transaction"). Only overlapping requests meet this.
    let name = requested.connection;
    for (let n = 3; this.busy.has(name); n += 1) name = `conn-${n}`;
    const intent: Intent = name === requested.connection ? requested : { ...requested, connection: name };
    this.busy.add(name);
    const connection = this.connection(intent.connection);
    const limits = {
      busyRetryMs: s.busyRetryMs,
      busyAttemptsMax: s.busyAttemptsMax,
      nowMs: () => this.scheduler.nowMs,
      compareFingerprint: s.compareFingerprint,
      keyProfile: s.keyProfile,
    };
    const program: Program =
      this.componentRun !== null
        ? componentMutation(intent, this.componentRun, limits.nowMs)
        : s.mode === 'atomic' || intent.key === null
          ? atomicMutation(intent, limits)
          : unsafeMutation(intent, limits);
    const generation = this.generation;
    // The process that took the request died (a restart): its open transaction went with it, uncommitted.
    const ended = (): boolean => {
      if (generation === this.generation) return false;
      this.record({
        kind: 'ledger',
        action: 'aborted',
        requestId: id,
        connection: intent.connection,
        detail: `the server process that took request ${id} restarted before it finished: its open transaction is rolled back and no response is sent`,
      });
      return true;
    };
    const advance = (input: Parameters<Program['next']>[0]): void => {
      const next = program.next(input);
      if (next.done === true) {
        this.busy.delete(intent.connection);
        this.finish(intent, id, next.value);
        return;
      }
      const step = next.value;
      if ('waitMs' in step) {
        this.busyRetries += 1;
        this.record({
          kind: 'ledger',
          action: 'busy-wait',
          requestId: id,
          connection: intent.connection,
          detail: step.reason,
        });
        this.scheduler.after(step.waitMs, 'server', `${intent.connection} retry`, () => {
          if (!ended()) advance(undefined);
        });
        return;
      }
      this.scheduler.after(s.statementMs, 'server', `${intent.connection} ${firstWord(step.sql)}`, () => {
        if (ended()) return;
        const result = connection.run(step.sql, step.params);
        this.record(sqlEvent(intent.connection, id, step.sql, step.params, step.purpose, result));
        advance(result);
      });
    };
    advance(undefined);
  }

  /** LG-6: every value handed out is rebuilt from the stored JSON (or, in the failure mode, shared). */
  private handOut(key: string | null, resultJson: string): JsonObject {
    if (this.settings.resultCopies === 'defensive' || key === null) return JSON.parse(resultJson) as JsonObject;
    let shared = this.sharedResults.get(key);
    if (shared === undefined) {
      shared = JSON.parse(resultJson) as JsonObject;
      this.sharedResults.set(key, shared);
    }
    return shared;
  }

  private finish(intent: Intent, id: number, outcome: ProgramResult): void {
    const s = this.settings;
    if (outcome.status === 'executed' || (outcome.status === 'failed' && outcome.executed)) {
      this.executions += 1;
      this.executedBy.push(id);
    }
    let message: JsonRpcMessage;
    let body: JsonObject;
    if (outcome.status === 'executed' || outcome.status === 'replayed') {
      const result = this.handOut(intent.key, outcome.resultJson);
      this.firstResultJson ??= outcome.resultJson;
      this.record({
        kind: 'ledger',
        action: outcome.status,
        requestId: id,
        connection: intent.connection,
        detail:
          outcome.status === 'executed'
            ? executedDetail(intent.key, outcome.resultJson)
            : `key found with the same fingerprint: the stored result is returned and nothing runs again`,
      });
      // The response carries a snapshot of the result as it is now (JSON on the wire).
      message = callToolResultResponse(id, canonicalJson(result), result);
      body = JSON.parse(JSON.stringify(result)) as JsonObject;
      if (s.callerMutatesResult && id === 41) {
        // The server's own code changes the object the ledger handed it (e.g. redacting before logging).
        const amountField = intent.operation === 'charge_account' ? 'cents' : 'quantity';
        result[amountField] = 0;
        result.status = 'redacted-for-log';
        this.record({
          kind: 'ledger',
          action: 'caller-mutated',
          requestId: id,
          connection: intent.connection,
          detail: `the caller set ${amountField}=0 and status="redacted-for-log" on the object the ledger returned (${s.resultCopies} copies)`,
        });
      }
    } else {
      const httpAnalogue = outcome.status === 'rejected' ? outcome.httpAnalogue : 500;
      const code = outcome.code;
      body = {
        error: {
          code,
          httpAnalogue,
          message: outcome.reason,
          executed: outcome.status === 'failed' && outcome.executed,
        },
      };
      this.record({
        kind: 'ledger',
        action: outcome.status,
        requestId: id,
        connection: intent.connection,
        detail: `${code} (${httpAnalogue}-like): ${outcome.reason}`,
      });
      message = callToolErrorResponse(id, `${code}: ${outcome.reason}`, body);
    }
    this.responses.push({ requestId: id, connection: intent.connection, status: outcome.status, body });
    const loses = id === 41 && s.loseFirstResponse;
    // On stdio the pipe belongs to the server process: nothing but the process dying loses a response on it.
    const processDied = loses && this.options.transport === 'stdio';
    const why = processDied
      ? "the server process died after COMMIT, before the response left (on stdio only that loses a response: the pipe is the process's)"
      : s.lostBecause === 'subscription-dropped'
        ? 'the stream carrying the result dropped'
        : 'the connection broke';
    const lost = loses
      ? `${why}: the response never reaches the client, which cannot tell whether the ${intent.operation === 'charge_account' ? 'charge' : 'reservation'} ran`
      : undefined;
    const sent = this.sim.wire.send(
      'server',
      this.channel('server', id),
      message,
      (event) => this.clientReceives(id, event),
      lost === undefined ? {} : { lost },
    );
    if (processDied)
      this.scheduler.after(0, 'server', 'client launches the server again', () => this.restart(sent.seq, 'died'));
  }

  /**
   * A crash fault, or (stdio) the process death that lost a response: the server died after COMMIT and
   * before response `seq` left. The process is gone with its connections, caches and the work it had
   * in progress; what COMMIT wrote is in its SQLite file, which the restarted server opens
   * (per-replica memory: nothing survives).
   */
  private restartAfterCrash(seq: number): void {
    this.restart(seq, 'crashed');
  }

  private restart(seq: number, how: 'crashed' | 'died'): void {
    const bytes = this.perReplica ? null : this.file.export();
    for (const file of this.allFiles()) file.close();
    this.replicaFiles.clear();
    this.connections.clear();
    this.busy.clear();
    this.endProcess();
    this.componentRun?.reopened();
    this.record({
      kind: 'ledger',
      action: 'closed',
      detail: `the server ${how} after COMMIT, before message ${seq} (its response) left: the process is gone with its connections and caches`,
    });
    this.file = LedgerFile.open(this.host.sql, bytes);
    const by = how === 'died' ? 'the client launches the server process again; it' : 'the restarted server';
    this.record({
      kind: 'ledger',
      action: 'reopened',
      detail:
        bytes === null
          ? `${by} starts from an empty in-memory ledger: the committed key and result did not survive (a catalogued failure mode)`
          : `${by} opens its SQLite file: the committed key, effect and result survived the ${how === 'died' ? 'process death' : 'crash'}`,
    });
  }

  /**
   * The running server process ends: work it had in progress stops where it was (its transaction
   * uncommitted), requests waiting at its barrier go with it, and a request still on its way to it
   * is lost with the connection it travelled on.
   */
  private endProcess(): void {
    this.generation += 1;
    this.arrivedAtBarrier.length = 0;
    const inFlight = this.sim.wire.inFlightAll();
    const answering = new Set(
      inFlight
        .filter((event) => event.from === 'server' && 'id' in event.message)
        .map((event) => ('id' in event.message ? event.message.id : null)),
    );
    for (const event of inFlight) {
      if (event.from === 'client')
        this.sim.wire.lose(
          event,
          'the server process this request was travelling to restarted: the connection it was on is gone, and the request with it',
        );
    }
    // Every request of the client the dead process had not answered (on its way to it, or in its work) gets no answer now.
    for (const event of this.sim.wire.unanswered()) {
      const id = 'id' in event.message ? event.message.id : null;
      // The first call is the lesson: what the client does about it (retry, reconcile, or not) is its retry timer's decision.
      if (event.from !== 'client' || typeof id !== 'number' || id === 41 || answering.has(id)) continue;
      // The client learns it at once on stdio (its pipe closed), a latency later on HTTP (the connection reset).
      this.scheduler.after(
        this.options.transport === 'stdio' ? 0 : this.settings.latencyMs,
        'client',
        `client sees request ${id} lost`,
        () => this.resendLost(id),
      );
    }
  }

  /** A request of the client a restart lost: it knows no answer will come, and sends it again under a new id. */
  private resendLost(id: number): void {
    this.sim.wire.settle('client', id);
    // The client knows no answer will come, not whether the server ran it before the restart: unknown.
    const call = this.clientCalls.get(id);
    if (call !== undefined) call.state = 'unknown';
    const resend = this.resend.get(id);
    assert(resend !== undefined, () => `request ${id} was sent by the client`);
    this.record({
      kind: 'ledger',
      action: 'retry',
      requestId: id,
      detail: `the connection carrying request ${id} went with the server's restart before it was answered: no answer will come, so the client sends it again under a new id`,
    });
    resend();
  }

  private reopen(): void {
    if (this.perReplica) {
      // a catalogued failure mode: an in-memory ledger has nothing to save; the restart forgets every commit.
      for (const file of this.allFiles()) file.close();
      this.replicaFiles.clear();
      this.connections.clear();
      this.busy.clear();
      this.endProcess();
      this.record({
        kind: 'ledger',
        action: 'closed',
        detail: 'the server restarts: its in-memory ledger is gone with every key it recorded',
      });
      this.file = LedgerFile.open(this.host.sql, null, this.host.recycle);
      this.record({
        kind: 'ledger',
        action: 'reopened',
        detail:
          'the restarted server starts from an empty in-memory ledger: no key survives (a catalogued failure mode)',
      });
      return;
    }
    const bytes = this.file.export();
    this.record({
      kind: 'ledger',
      action: 'saved',
      detail: `the server saves the ledger file (${bytes.length} bytes) and restarts`,
    });
    this.file.close();
    this.connections.clear();
    this.busy.clear();
    this.endProcess();
    this.componentRun?.reopened();
    this.record({
      kind: 'ledger',
      action: 'closed',
      detail: 'every connection closed; in-memory state (caches, statements) is gone',
    });
    this.file = LedgerFile.open(this.host.sql, bytes);
    this.record({
      kind: 'ledger',
      action: 'reopened',
      detail: 'the ledger file is reopened from its saved bytes; new connections attach to it',
    });
  }

  // ── run ──────────────────────────────────────────────────────────────────────────────────────

  run(): this {
    this.scheduler.at(0, 'client', 'first call', () => {
      this.call(41, 'conn-1', 'same');
      if (this.settings.race) this.call(42, 'conn-2', 'same');
      this.armRetry();
    });
    this.sim.run();
    this.sim.wire.assertAllAnswered();
    return this;
  }

  outcome(): LedgerOutcome {
    const key = this.key();
    const rows =
      key === null
        ? []
        : this.allFiles().flatMap((file) =>
            file.query(`SELECT result_json FROM idempotency_keys WHERE key = '${key}'`),
          );
    assert(this.perReplica || rows.length <= 1, 'a key has at most one stored record (it is the primary key)');
    const storedJson = rows[0] === undefined ? null : String(rows[0].result_json);
    // A student's program may store text that is not JSON: the stored result is then none the lab can read.
    const storedResult =
      storedJson === null
        ? null
        : this.componentRun === null
          ? (JSON.parse(storedJson) as JsonObject)
          : parseOrNull(storedJson);
    if (this.settings.callerMutatesResult && this.firstResultJson !== null) {
      const replayId = this.replayId ?? 42;
      const replay = this.responses.find((r) => r.requestId === replayId);
      // Intact when the replay equals the committed result, whatever the caller did to its copy.
      this.aliasIntact = replay !== undefined && canonicalJson(replay.body) === this.firstResultJson;
    }
    return {
      executions: this.executions,
      rejected: this.responses.filter((r) => r.status === 'rejected').length,
      replayed: this.responses.filter((r) => r.status === 'replayed').length,
      failed: this.responses.filter((r) => r.status === 'failed').length,
      requests: this.requests,
      busyRetries: this.busyRetries,
      keyRecords: rows.length,
      storedResult,
      aliasIntact: this.aliasIntact,
      responses: this.responses,
      paymentTokenInLedger: this.paymentTokenFound(),
      keyProfile: { ...KEY_PROFILES[this.settings.keyProfile] },
      ...(this.faulted ? { clientRecord: this.clientRecordOut(), duplicateEffect: this.duplicateEffect() } : {}),
    };
  }

  private clientRecordOut(): LedgerClientOperation[] {
    return [...this.clientCalls.values()].map((call) => {
      assert(call.state !== 'pending', () => `call #${call.requestId} ends answered or unknown (its deadline)`);
      const server =
        this.responses.find((r) => r.requestId === call.requestId)?.status ??
        (this.readsServed.has(call.requestId) ? 'read' : 'not-received');
      return {
        requestId: call.requestId,
        tool: call.tool,
        state: call.state,
        ...(call.reconciledBy === undefined ? {} : { reconciledBy: call.reconciledBy }),
        server,
      };
    });
  }

  /** The first two calls that committed the effect, and what the client knew of each: the whole proof of a duplicate. */
  private duplicateEffect(): LedgerDuplicateEffect | null {
    const [first, second] = this.executedBy;
    if (first === undefined || second === undefined) return null;
    const known = (id: number): string => {
      const state = this.clientCalls.get(id)?.state ?? 'unknown';
      return state === 'answered' ? 'answered' : state === 'reconciled' ? 'reconciled' : 'unknown to the client';
    };
    const guard =
      this.key() === null
        ? 'no idempotency key recorded the intent, so nothing told the server the second was the same one'
        : 'both ran before either stored the key';
    return {
      requestIds: [first, second],
      detail: `#${first} (${known(first)}) and #${second} (${known(second)}) both committed the effect of one intent: ${guard}`,
    };
  }

  /** LG-P5: scans every row of every ledger table and every response for the call's payment token. */
  private paymentTokenFound(): boolean | null {
    if (!JSON.stringify(argumentsFor(this.settings.operation, 'same')).includes(PAYMENT_TOKEN)) return null;
    const tables = ['idempotency_keys', 'effects', 'executions'];
    const stored = this.allFiles().some((file) =>
      tables.some((table) => JSON.stringify(file.query(`SELECT * FROM ${table}`)).includes(PAYMENT_TOKEN)),
    );
    return stored || JSON.stringify(this.responses).includes(PAYMENT_TOKEN);
  }

  /** Closes every connection; after a completed run, first hands the file's bytes to the host if it asked. */
  close(completed: boolean): void {
    if (completed && !this.perReplica) this.host.save?.(this.file.export());
    for (const file of this.allFiles()) file.close();
  }
}

/** A statement's first word, as `sql.split(' ')[0]` gives it, without making an array of every word. */
function firstWord(sql: string): string {
  const space = sql.indexOf(' ');
  return space < 0 ? sql : sql.slice(0, space);
}

function parseOrNull(text: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

export const ledgerModel: Model<LedgerScenario, LedgerOutcome, LedgerModelEvent> = {
  settingsSpec: ledgerSettingsSpec,
  execute(_scenario, run) {
    const lab = new LedgerLab(run as ResolvedRun<LedgerSettings>);
    return runAndClose(lab);
  },
};
