import { assert } from '../../core/assert';
import { LabError } from '../../core/errors';
import {
  SERVER_INFO,
  TASKS_EXTENSION,
  callToolResultResponse,
  requestMeta,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcResultResponse,
  type RequestId,
} from '../../mcp/protocol';
import type { EventHandle, Scheduler } from '../../core/scheduler';
import type { EventBase, Unstamped, Side, Transport } from '../../core/transcript';
import type { Sim } from '../../core/sim';
import { mcpSim } from '../../mcp/mcpSim';
import { LedgerFile, type LedgerConnection, type SqliteHost, type StatementParams } from '../../core/sqlite';
import type { TaskLostRequest, TaskModelEvent, TaskOutcome, TaskScenario, TaskStatus } from './events';
import { sqlEvent } from '../../core/sqlite';
import { runAndClose, type Model, type ResolvedRun } from '../../core/model';
import { taskSettingsSpec, type TaskSettings } from './settings';
import { ComponentTaskStore } from './componentTaskStore';
export { taskSettingsSpec, taskDefaults, type TaskSettings } from './settings';

/**
 * Durable tasks (docs/requirements.md#durable-tasks-tk, TK-1 … TK-3, VF-12) with the io.modelcontextprotocol/tasks extension: a
 * tools/call is answered with a CreateTaskResult only after the task row is committed to SQLite; the
 * client polls tasks/get; tasks/cancel is acknowledged at once with an empty result, but the task
 * stays `working` until a worker checkpoint reads the cancel flag — and may complete first.
 *
 * A crash fault (`crash:SEQ` on one of the server's responses) kills the server after its
 * COMMIT and before that response leaves. The restarted server opens its SQLite file: the task row
 * survives with its status, cancel flag and result, and a task still `working` is resumed by a new
 * worker from its last checkpoint (the row's last update: in-memory progress died with the process).
 * The client learns of the broken connection one latency later and retries what is safe to retry:
 * a lost tasks/get is polled again, a lost tasks/cancel sent
 * again (setting the flag twice is harmless). A lost CreateTaskResult leaves the client without the
 * taskId and the outcome unknown: the tools/call carries no idempotency key, so it is not retried
 * (RT-1) and the task it did create runs on, durable and unseen.
 */

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
/** The first task's id in a new file; a file that already holds it gets the next free `task-7f3a-N`. */
const TASK_ID = 'task-7f3a';
/** How many ids are tried before a file full of them is refused: every scenario run adds one task. */
const TASK_IDS_MAX = 1_000_000;
const CALL_ID = 1;
/**
 * A run with faults: how many lost requests the client re-issues in one run before it gives up and the task's
 * outcome stays unknown to it (a stdio pipe that dropped loses every later message: re-issuing forever would never end).
 */
const LOST_REISSUES_MAX = 3;

function request(id: RequestId, method: string, params: JsonObject): JsonRpcMessage {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: requestMeta(null, [TASKS_EXTENSION]) } };
}

function result(id: RequestId, body: JsonObject): JsonRpcResultResponse {
  return {
    jsonrpc: '2.0',
    id,
    result: { resultType: 'complete', ...body, _meta: { 'io.modelcontextprotocol/serverInfo': { ...SERVER_INFO } } },
  };
}

export class TaskLab {
  readonly sim: Sim<TaskModelEvent>;
  private readonly s: TaskSettings;
  private readonly transport: Transport;
  private file: LedgerFile;
  private readonly host: SqliteHost;
  private readonly save: ((bytes: Uint8Array) => void) | undefined;
  private db: LedgerConnection;
  /** This run's task: unique in the file, so a file kept across runs holds every run's task. */
  private readonly taskId: string;
  /** The worker's next checkpoint, which a crash cancels (the worker dies with the server). */
  private checkpointHandle: EventHandle | null = null;
  /** When the worker's work counts from (its start, or after a restart where its last checkpoint leaves it): its checkpoints' schedule. */
  private workerStartedAtMs = 0;
  /** The task store's rows as the run closed its file (`storeRows`); null while it is open. */
  private rowsAtClose: string | null = null;
  /** The response a crash fault lost, until the client notices. */
  private crashedResponse: { id: RequestId; method: string } | null = null;
  private readonly methods = new Map<RequestId, string>();
  private nextId = CALL_ID + 1;
  private polls = 0;
  private taskKnownToClient = false;
  private clientDone = false;
  private cancelAckAtMs: number | null = null;
  private statusAfterAck: TaskStatus | null = null;
  private readonly statusesSeen: TaskStatus[] = [];
  private resultRetrieved = false;
  private streamClosedAtMs: number | null = null;
  private workerCheckpoints = 0;
  private clientReported: TaskStatus | null = null;
  /** The tasks exercise: a student's store decides the status where the lab's own logic does; null: the lab's. */
  private readonly store: ComponentTaskStore | null = null;
  /**
   * Whether the run injects faults. Then any message may be lost, so the client keeps a deadline on each
   * request (a round trip at the largest latency, plus a poll interval): one whose deadline passes is lost
   * to it. Without faults every answer comes within a round trip, and the run is as it always was.
   */
  private readonly faulted: boolean;
  /** A run with faults: the requests the client stopped waiting for; an answer that still comes is ignored. */
  private readonly gaveUp = new Set<RequestId>();
  private readonly lostRequests: TaskLostRequest[] = [];
  private reissued = 0;

  /** `options.ledger`: the SQLite host, required; `options.components`: a student's task store in the place of the lab's status logic (the `tasks` exercise). */
  constructor(options: ResolvedRun<TaskSettings>) {
    if (options.ledger === undefined)
      throw new LabError(
        'LAB011',
        'task scenarios store tasks in SQLite (sql.js); the host must load it and pass it in',
      );
    this.s = options.settings;
    this.transport = options.transport;
    this.sim = mcpSim(options, { eventsMax: options.settings.eventsMax, latency: options.settings });
    this.host = options.ledger;
    this.file = LedgerFile.open(options.ledger.sql, options.ledger.bytes ?? null, options.ledger.recycle);
    this.save = options.ledger.save;
    this.db = this.file.connect('tasks');
    this.taskId = this.freeTaskId();
    this.sim.wire.crashRestart = (seq) => this.restartAfterCrash(seq);
    this.faulted = (options.faults?.length ?? 0) > 0;
    const factory = options.components?.taskStore;
    if (factory !== undefined && options.components !== undefined) {
      const clock = this.sim.componentClock();
      this.store = new ComponentTaskStore(factory(clock), options.components.probe, clock);
    }
    // For the race explorer: the fields, and the task store's rows, which live in SQLite (WebAssembly
    // memory, which the fields' walk cannot see). Every closure it queues reads only fields, or captures
    // what its label or the message it delivers shows (a crash's restart captures the lost message's seq,
    // which only the wording of its events names: no outcome or invariant reads it).
    this.sim.exploreState(
      this,
      () => this.storeRows(),
      (value) => value === this.file || value === this.db || value === this.host,
    );
  }

  /**
   * Every row of the task store, read without recording anything: the durable part of the state. Once the
   * file is closed (the run is over, and the explorer reads its end state after), the rows it was closed with.
   */
  private storeRows(): string {
    if (this.rowsAtClose !== null) return this.rowsAtClose;
    const rows = this.db.run('SELECT * FROM tasks ORDER BY task_id');
    // A run that failed may leave the store unreadable: that is its state then (never a second error).
    return rows.ok ? JSON.stringify(rows.rows) : `unreadable: ${rows.code}`;
  }

  /**
   * Read before the run and not recorded, like the outcome: a new file gives every transcript the same
   * id, and a file kept from earlier runs (`--ledger`, Keep ledger between runs) the next unused one.
   */
  private freeTaskId(): string {
    // The ids `task-7f3a-…` as a range of the key ('.' follows '-'), not a LIKE: a LIKE on a bound
    // pattern has SQLite prepare the statement again at every run (the pattern may change its plan),
    // and this one statement cost a task run as much as five others. Only the ids of exactly this
    // spelling are looked for below, and the range holds every one of them.
    const taken = this.db.run('SELECT task_id FROM tasks WHERE task_id = ? OR (task_id >= ? AND task_id < ?)', [
      TASK_ID,
      `${TASK_ID}-`,
      `${TASK_ID}.`,
    ]);
    assert(taken.ok, 'the task store can be read before the run');
    const ids = new Set(taken.rows.map((row) => String(row.task_id)));
    if (!ids.has(TASK_ID)) return TASK_ID;
    for (let n = 2; n <= TASK_IDS_MAX; n++) if (!ids.has(`${TASK_ID}-${n}`)) return `${TASK_ID}-${n}`;
    throw new LabError(
      'LAB012',
      `the ledger already holds ${TASK_IDS_MAX} tasks of this lab; start a new ledger file. The file was not changed`,
    );
  }

  get scheduler(): Scheduler {
    return this.sim.scheduler;
  }

  get events(): TaskModelEvent[] {
    return this.sim.events;
  }

  private record<N extends Unstamped<TaskModelEvent>>(event: N): N & EventBase {
    return this.sim.record(event);
  }

  private sql(
    sql: string,
    params: StatementParams,
    purpose: string,
    requestId: RequestId,
  ): Record<string, string | number | null>[] {
    const r = this.db.run(sql, params);
    this.record(sqlEvent('tasks', requestId, sql, params, purpose, r));
    assert(r.ok, () => `task store statement failed: ${sql}`);
    return r.rows as Record<string, string | number | null>[];
  }

  private channel(from: Side, id: RequestId): string {
    if (this.transport === 'stdio') return 'stdio';
    return from === 'client' ? `POST #${String(id)}` : `SSE #${String(id)}`;
  }

  private taskRow(requestId: RequestId): JsonObject {
    const row = this.sql(
      'SELECT task_id, status, created_at_ms, last_updated_at_ms, ttl_ms, poll_interval_ms FROM tasks WHERE task_id = ?',
      [this.taskId],
      'read the durable task',
      requestId,
    )[0];
    assert(row !== undefined, 'the task row exists while its ttl lasts');
    return {
      taskId: String(row.task_id),
      status: String(row.status),
      createdAt: new Date(Number(row.created_at_ms)).toISOString(),
      lastUpdatedAt: new Date(Number(row.last_updated_at_ms)).toISOString(),
      ttlMs: Number(row.ttl_ms),
      pollIntervalMs: Number(row.poll_interval_ms),
    };
  }

  /**
   * The tasks extension's DetailedTask: a completed task carries its `result` (the stored CallToolResult),
   * which is how the client gets it: the extension replaces tasks/result with polling tasks/get.
   */
  private detailedTask(requestId: RequestId): JsonObject {
    const row = this.taskRow(requestId);
    // With a student's store, tasks/get reports what its status() answers.
    const task = this.store === null ? row : { ...row, status: this.store.status(this.taskId) };
    if (task.status !== 'completed') return task;
    const stored = this.sql(
      'SELECT result_json FROM tasks WHERE task_id = ?',
      [this.taskId],
      'the stored result, carried by the completed task',
      requestId,
    )[0]?.result_json;
    // A store that says completed before the work finished: there is no result to carry.
    if (this.store !== null && typeof stored !== 'string') return task;
    assert(typeof stored === 'string', 'a completed task has its result stored');
    // The tools/call's own result, as a CallToolResult: what tasks/result used to return.
    return { ...task, result: callToolResultResponse(CALL_ID, stored, JSON.parse(stored) as JsonObject).result };
  }

  private status(requestId: RequestId): TaskStatus {
    return String(
      this.sql('SELECT status FROM tasks WHERE task_id = ?', [this.taskId], 'current status', requestId)[0]?.status,
    ) as TaskStatus;
  }

  // ── client ───────────────────────────────────────────────────────────────────────────────────

  private send(from: Side, id: RequestId, message: JsonRpcMessage, deliver: () => void): void {
    if (from === 'client' && 'method' in message) this.methods.set(id, message.method);
    const event = this.sim.wire.send(from, this.channel(from, id), message, () => {
      if (from === 'server' && id === CALL_ID && this.streamClosedAtMs !== null)
        return `the client closed the connection of request #${CALL_ID} at ${this.streamClosedAtMs} ms`;
      if (from === 'server' && this.gaveUp.has(id))
        return `the client stopped waiting for #${String(id)} at its deadline (${this.deadlineMs()} ms) and already acted on it being lost: this late answer is ignored`;
      deliver();
      return null;
    });
    if (event.lost === true && event.fault?.startsWith('crash:') === true)
      this.crashedResponse = { id, method: this.methods.get(id) ?? 'tools/call' };
    if (this.faulted && from === 'client' && 'method' in message && 'id' in message)
      this.scheduler.after(this.deadlineMs(), 'client', `deadline of #${String(id)}`, () => this.deadlinePassed(id));
  }

  // ── a run with faults: the client's deadline on each request, and what it does about a lost one ──

  /** How long the client waits for an answer: a round trip at the largest latency, plus a poll interval. */
  private deadlineMs(): number {
    return 2 * (this.s.latencyMs + this.s.latencyJitterMs) + this.s.pollIntervalMs;
  }

  private isOpen(id: RequestId): boolean {
    return this.sim.wire
      .unanswered()
      .some((event) => event.from === 'client' && 'id' in event.message && event.message.id === id);
  }

  /**
   * A request's deadline passed with no answer: it is lost to the client (the request, its response, or the
   * stream carrying it). The client stops waiting for it and re-issues what is safe to repeat under a new id.
   */
  private deadlinePassed(id: RequestId): void {
    if (!this.isOpen(id)) return;
    this.sim.wire.settle('client', id);
    this.gaveUp.add(id);
    const method = this.methods.get(id) ?? 'tools/call';
    const what = `no answer to ${method} #${String(id)} within ${this.deadlineMs()} ms`;
    this.record({
      kind: 'task',
      action: 'request-lost',
      taskId: this.taskId,
      status: null,
      detail: `${what}: the request, its response or the stream carrying it was lost, so the client stops waiting for it`,
    });
    if (method === 'tools/call') {
      this.lostRequests.push({ requestId: id, method, reissuedAs: null });
      this.record({
        kind: 'task',
        action: 'retry-skipped',
        taskId: this.taskId,
        status: null,
        detail: `${what}: the client cannot tell whether a task was created and has no taskId to poll: the outcome is unknown to it, not failed; the call carries no idempotency key, so it is not re-issued (RT-1)`,
      });
      return;
    }
    if (this.clientDone) {
      this.lostRequests.push({ requestId: id, method, reissuedAs: null });
      this.record({
        kind: 'task',
        action: 'retry-skipped',
        taskId: this.taskId,
        status: null,
        detail: `${what}: the client is done with the task, nothing to re-issue`,
      });
      return;
    }
    if (this.reissued >= LOST_REISSUES_MAX) {
      this.lostRequests.push({ requestId: id, method, reissuedAs: null });
      this.record({
        kind: 'task',
        action: 'retry-skipped',
        taskId: this.taskId,
        status: null,
        detail: `${what}: the client has re-issued lost requests ${LOST_REISSUES_MAX} times with no answer; it gives up, and the task's outcome stays unknown to it`,
      });
      return;
    }
    this.reissued += 1;
    const reissuedAs = this.nextId;
    this.lostRequests.push({ requestId: id, method, reissuedAs });
    this.record({
      kind: 'task',
      action: 'retried',
      taskId: this.taskId,
      status: null,
      detail: `${what}: a request whose answer is lost is over; ${method} is safe to repeat, so the client re-issues it with a new request id, #${reissuedAs}`,
    });
    if (method === 'tasks/get') this.poll();
    else this.sendCancel();
  }

  private call(): void {
    const message = request(CALL_ID, 'tools/call', { name: 'export_report', arguments: { quarter: '2026-Q3' } });
    this.send('client', CALL_ID, message, () => this.serverCreatesTask());
  }

  private poll(): void {
    if (this.clientDone) return;
    if (this.polls >= this.s.pollsMax)
      throw new LabError(
        'LAB006',
        `the client polled tasks/get ${this.polls} times without a terminal status (pollsMax=${this.s.pollsMax})`,
      );
    this.polls += 1;
    const id = this.nextId++;
    this.send('client', id, request(id, 'tasks/get', { taskId: this.taskId }), () => {
      const task = this.detailedTask(id);
      this.send('server', id, result(id, task), () => this.clientSeesStatus(task.status as TaskStatus));
    });
  }

  private clientSeesStatus(status: TaskStatus): void {
    this.statusesSeen.push(status);
    if (this.cancelAckAtMs !== null && this.statusAfterAck === null) this.statusAfterAck = status;
    this.record({
      kind: 'task',
      action: 'polled',
      taskId: this.taskId,
      status,
      detail: TERMINAL.has(status)
        ? `terminal status ${status}: the client stops polling (TK-2)`
        : `still ${status}: poll again in ${this.s.pollIntervalMs} ms`,
    });
    if (!TERMINAL.has(status)) {
      this.scheduler.after(this.s.pollIntervalMs, 'client', 'poll', () => this.poll());
      return;
    }
    this.clientDone = true;
    this.clientReported = status;
    // The completed task's tasks/get answer carries the result: nothing more to fetch.
    if (status === 'completed') this.resultRetrieved = true;
  }

  private cancel(): void {
    if (!this.taskKnownToClient || this.clientDone) {
      this.record({
        kind: 'task',
        action: 'cancel-skipped',
        taskId: this.taskId,
        status: null,
        detail: this.clientDone ? 'the task already reached a terminal status' : 'the client has no taskId yet',
      });
      return;
    }
    this.sendCancel();
  }

  private sendCancel(): void {
    const id = this.nextId++;
    this.send('client', id, request(id, 'tasks/cancel', { taskId: this.taskId }), () => {
      this.sql(
        'UPDATE tasks SET cancel_requested = 1 WHERE task_id = ?',
        [this.taskId],
        'record the intent to cancel; the status does not change here',
        id,
      );
      const stored = this.status(id);
      const status = this.store === null ? stored : this.store.onCancelRequest(this.taskId);
      if (status !== stored)
        this.sql(
          'UPDATE tasks SET status = ?, last_updated_at_ms = ? WHERE task_id = ?',
          [status, this.scheduler.nowMs, this.taskId],
          `the task store answered tasks/cancel with ${status}`,
          id,
        );
      const detail =
        status === stored
          ? `the task is still ${status} until a worker checkpoint observes the flag (TK-1)`
          : `the task store made the task ${status} (it was ${stored}), though no worker checkpoint has observed the flag`;
      this.record({
        kind: 'task',
        action: 'cancel-acknowledged',
        taskId: this.taskId,
        status,
        detail: `the server acknowledges tasks/cancel with an empty result; ${detail}`,
      });
      this.send('server', id, result(id, {}), () => {
        this.cancelAckAtMs = this.scheduler.nowMs;
        if (!this.s.ackIsFinal) return;
        // a catalogued failure mode: the acknowledgement is taken for the end; polling stops, the UI says stopped.
        this.clientDone = true;
        this.clientReported = 'cancelled';
        this.record({
          kind: 'task',
          action: 'reported',
          taskId: this.taskId,
          status: 'cancelled',
          detail:
            'the client takes the acknowledgement as final: it stops polling, which the tasks extension allows after tasks/cancel, and tells its user the task was cancelled, which the acknowledgement does not say: the worker may run on and the task may still complete (a catalogued failure mode; TK-1)',
        });
      });
    });
  }

  private closeStream(): void {
    this.streamClosedAtMs = this.scheduler.nowMs;
    this.record({
      kind: 'stream-closed',
      by: 'client',
      requestId: CALL_ID,
      reason: 'the connection that created the task closes; the durable task is not tied to it (TK-3)',
    });
  }

  // ── server ───────────────────────────────────────────────────────────────────────────────────

  private serverCreatesTask(): void {
    const now = this.scheduler.nowMs;
    const initial = this.store === null ? 'working' : this.store.create(this.taskId);
    this.sql('BEGIN IMMEDIATE', [], 'create the task durably before answering', CALL_ID);
    this.sql(
      'INSERT INTO tasks (task_id, status, created_at_ms, last_updated_at_ms, ttl_ms, poll_interval_ms) VALUES (?, ?, ?, ?, ?, ?)',
      [this.taskId, initial, now, now, this.s.ttlMs, this.s.pollIntervalMs],
      'the task row',
      CALL_ID,
    );
    this.sql('COMMIT', [], 'the task is durable: only now may the server answer with it', CALL_ID);
    this.record({
      kind: 'task',
      action: 'created',
      taskId: this.taskId,
      status: initial,
      detail:
        'committed to SQLite, then answered with CreateTaskResult (resultType "task", the task\'s fields flat beside it)',
    });
    const task = this.taskRow(CALL_ID);
    this.send(
      'server',
      CALL_ID,
      {
        jsonrpc: '2.0',
        id: CALL_ID,
        result: { resultType: 'task', ...task, _meta: { 'io.modelcontextprotocol/serverInfo': { ...SERVER_INFO } } },
      },
      () => {
        this.taskKnownToClient = true;
        this.scheduler.after(this.s.pollIntervalMs, 'client', 'poll', () => this.poll());
      },
    );
    this.scheduleCheckpoint(now);
  }

  private scheduleCheckpoint(startedAtMs: number): void {
    this.workerStartedAtMs = startedAtMs;
    const nextAtMs = Math.min(
      startedAtMs + (this.workerCheckpoints + 1) * this.s.checkpointEveryMs,
      startedAtMs + this.s.workMs,
    );
    this.checkpointHandle = this.scheduler.at(nextAtMs, 'worker', 'task checkpoint', () => {
      this.checkpointHandle = null;
      this.checkpoint(this.workerStartedAtMs);
    });
  }

  // ── a crash after COMMIT ─────────────────────────────────────────────────────────────────────

  /** The server died before response `seq` left; it restarts from its SQLite file, and the client will notice. */
  private restartAfterCrash(seq: number): void {
    const lost = this.crashedResponse;
    assert(lost !== null, 'a crash names a response the task server sent');
    this.crashedResponse = null;
    const bytes = this.file.export();
    this.file.close();
    if (this.checkpointHandle !== null) this.scheduler.cancel(this.checkpointHandle);
    this.checkpointHandle = null;
    this.record({
      kind: 'task',
      action: 'crashed',
      taskId: this.taskId,
      status: null,
      detail: `the server crashed after COMMIT, before message ${seq} (the response to ${lost.method} #${String(lost.id)}) left: the process is gone with its connections and its worker`,
    });
    this.file = LedgerFile.open(this.host.sql, bytes);
    this.db = this.file.connect('tasks');
    const row = this.sql(
      'SELECT status, created_at_ms, last_updated_at_ms, cancel_requested FROM tasks WHERE task_id = ?',
      [this.taskId],
      'after the restart: what survived in the file',
      CALL_ID,
    )[0];
    assert(row !== undefined, 'the task row was committed before any response about it');
    const status = String(row.status) as TaskStatus;
    const doneMs = Number(row.last_updated_at_ms) - Number(row.created_at_ms);
    const flag = Number(row.cancel_requested) === 1 ? ', its cancel flag set' : '';
    if (status === 'working') {
      // A new worker picks the task up from its last checkpoint: the work done before it is kept in the row.
      this.workerCheckpoints = Math.round(doneMs / this.s.checkpointEveryMs);
      this.scheduleCheckpoint(this.scheduler.nowMs - doneMs);
    }
    this.record({
      kind: 'task',
      action: 'restarted',
      taskId: this.taskId,
      status,
      detail: `the restarted server opens its SQLite file: task ${this.taskId} survived, ${status}${flag}${status === 'working' ? `; a new worker resumes it from its last checkpoint (${doneMs} ms of ${this.s.workMs} ms done)` : ''}`,
    });
    // The label names the request whose connection broke: the closure captures it (a state's description reads labels).
    this.scheduler.after(this.s.latencyMs, 'client', `connection broken #${String(lost.id)}`, () =>
      this.clientRetries(lost),
    );
  }

  /** The client sees the connection of `lost` break without its response, and retries what is safe to retry. */
  private clientRetries(lost: { id: RequestId; method: string }): void {
    const what = `the connection of ${lost.method} #${String(lost.id)} broke without its response`;
    // That request is over: its response died with the server (a retry is a new request with a new id).
    this.sim.wire.settle('client', lost.id);
    this.lostRequests.push({
      requestId: lost.id,
      method: lost.method,
      reissuedAs: lost.method === 'tools/call' || this.clientDone ? null : this.nextId,
    });
    if (lost.method === 'tools/call') {
      this.record({
        kind: 'task',
        action: 'retry-skipped',
        taskId: this.taskId,
        status: null,
        detail: `${what}: the client cannot tell whether a task was created and has no taskId to poll; the call carries no idempotency key, so it is not retried (RT-1)`,
      });
      return;
    }
    if (this.clientDone) {
      this.record({
        kind: 'task',
        action: 'retry-skipped',
        taskId: this.taskId,
        status: null,
        detail: `${what}: the client is done with the task, nothing to retry`,
      });
      return;
    }
    this.record({
      kind: 'task',
      action: 'retried',
      taskId: this.taskId,
      status: null,
      detail: `${what}: ${lost.method} is safe to repeat, so the client sends it again with a new request id`,
    });
    if (lost.method === 'tasks/get') this.poll();
    else this.sendCancel();
  }

  private checkpoint(startedAtMs: number): void {
    this.workerCheckpoints += 1;
    const now = this.scheduler.nowMs;
    const row = this.sql(
      'SELECT cancel_requested FROM tasks WHERE task_id = ?',
      [this.taskId],
      'checkpoint: was cancellation requested?',
      CALL_ID,
    )[0];
    const finished = now >= startedAtMs + this.s.workMs;
    if (finished) {
      // The last chunk completed before any checkpoint could stop it: the work's result stands.
      const resultJson = JSON.stringify({ rows: 42, quarter: '2026-Q3' });
      let status: TaskStatus = 'completed';
      if (this.store === null) {
        this.sql(
          "UPDATE tasks SET status = 'completed', result_json = ?, last_updated_at_ms = ? WHERE task_id = ?",
          [resultJson, now, this.taskId],
          'the work finished: store the result',
          CALL_ID,
        );
      } else {
        // The student's store says what the task ends as; the row and the event carry its answer.
        status = this.store.complete(this.taskId);
        this.sql(
          'UPDATE tasks SET status = ?, result_json = ?, last_updated_at_ms = ? WHERE task_id = ?',
          [status, resultJson, now, this.taskId],
          `the work finished: store the result; the task store answered ${status}`,
          CALL_ID,
        );
      }
      const ends = status === 'completed' ? 'the task ends completed' : `the task store made it ${status}`;
      const detail =
        Number(row?.cancel_requested) === 1
          ? `the work finished before a checkpoint observed the cancel flag: ${ends}${status === 'completed' ? ' despite the acknowledged tasks/cancel' : ''}`
          : status === 'completed'
            ? 'the work finished'
            : `the work finished; ${ends}`;
      this.record({ kind: 'task', action: 'completed', taskId: this.taskId, status, detail });
      return;
    }
    const stop =
      this.store === null ? Number(row?.cancel_requested) === 1 : this.store.checkpoint(this.taskId) === 'stop';
    if (stop) {
      this.sql(
        "UPDATE tasks SET status = 'cancelled', last_updated_at_ms = ? WHERE task_id = ?",
        [now, this.taskId],
        'the checkpoint observed the flag: stop',
        CALL_ID,
      );
      const observed =
        Number(row?.cancel_requested) === 1
          ? 'observed the cancel flag'
          : 'found no cancel flag, yet the task store answered stop';
      this.record({
        kind: 'task',
        action: 'cancelled',
        taskId: this.taskId,
        status: 'cancelled',
        detail: `checkpoint ${this.workerCheckpoints} ${observed}: the worker stops, the task is cancelled`,
      });
      return;
    }
    this.sql(
      'UPDATE tasks SET last_updated_at_ms = ? WHERE task_id = ?',
      [now, this.taskId],
      `checkpoint ${this.workerCheckpoints}: still working`,
      CALL_ID,
    );
    this.scheduleCheckpoint(startedAtMs);
  }

  // ── run ──────────────────────────────────────────────────────────────────────────────────────

  run(): this {
    this.scheduler.at(0, 'client', 'call', () => this.call());
    if (this.s.cancelAtMs !== null) this.scheduler.at(this.s.cancelAtMs, 'client', 'tasks/cancel', () => this.cancel());
    if (this.s.closeStreamAtMs !== null)
      this.scheduler.at(this.s.closeStreamAtMs, 'client', 'close', () => this.closeStream());
    this.sim.run();
    this.sim.wire.assertAllAnswered();
    return this;
  }

  outcome(): TaskOutcome {
    // Read after the run, not part of it: nothing is recorded (a recorded read would leave a stray
    // "sql current status req=0" line at the end of every task transcript).
    const row = this.db.run('SELECT status FROM tasks WHERE task_id = ?', [this.taskId]);
    // Only a fault that lost the tools/call on its way leaves no task at all.
    assert(
      row.ok && (row.rows.length === 1 || (this.faulted && row.rows.length === 0)),
      'the task row exists at the end of the run',
    );
    const eventsBefore = this.sim.events.length;
    const outcome: TaskOutcome = {
      taskId: this.taskId,
      taskStatus: row.rows[0] === undefined ? null : (String(row.rows[0].status) as TaskStatus),
      cancelAcknowledged: this.cancelAckAtMs !== null,
      statusAfterAck: this.statusAfterAck,
      statusesSeen: [...this.statusesSeen],
      polls: this.polls,
      resultRetrieved: this.resultRetrieved,
      streamClosed: this.streamClosedAtMs !== null,
      clientReported: this.clientReported,
      ...(this.faulted
        ? {
            lostRequests: [...this.lostRequests],
            outcomeUnknown: !this.taskKnownToClient || this.clientReported === null,
          }
        : {}),
    };
    assert(this.sim.events.length === eventsBefore, 'reading the outcome records nothing');
    return outcome;
  }

  /** Closes the file; after a completed run, first hands its bytes to the host if it asked (`--ledger`). */
  close(completed = false): void {
    // The explorer describes the run's end state after the run, when a file closed is gone (or recycled, emptied).
    if (this.sim.scheduler.explorer?.state !== undefined) this.rowsAtClose = this.storeRows();
    if (completed) this.save?.(this.file.export());
    this.file.close();
  }
}

export const taskModel: Model<TaskScenario, TaskOutcome, TaskModelEvent> = {
  settingsSpec: taskSettingsSpec,
  execute(_scenario, run) {
    const lab = new TaskLab(run as ResolvedRun<TaskSettings>);
    return runAndClose(lab);
  },
};
