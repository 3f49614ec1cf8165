import './zodJitless';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  createTaskSessionFromClient,
  toolDeclarationFromMcpTool,
  type RawClientDispatch,
  type TaskEnabledSession,
  type ToolExecution,
} from '@modelcontextprotocol/ext-tasks/client';
import { toJsonValue } from '@modelcontextprotocol/ext-tasks/core';
import {
  CancelTaskResultV2Schema,
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  hasTaskClientCapabilityV2,
  isCancelTaskRequestV2,
  isGetTaskRequestV2,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import { sdkRefusal } from './refusal';
import { isJsonRpcMessage, jsonRpcProblem } from '../engine';
import {
  LabError,
  assert,
  checkSeed,
  checkTransport,
  resolveSettings,
  taskSettingsSpec,
  DEFAULT_SEED,
  CLIENT_INFO,
  SERVER_INFO,
  postHeadersOf,
  type JsonRpcMessage,
  type MessageEvent,
  type Side,
  type TaskOutcome,
  type TaskScenario,
  type TaskSettings,
  type TaskStatus,
  type Transcript,
  type Transport,
} from '../engine';
import { FLUSH_TURNS, clockDriver, onSharedClock, realTurn, type InstalledClock } from './sdkClock';
import type { TsSdkRunOptions } from './sdkHarness';
import { WireRecorder } from './sdkRecorder';
import {
  EXT_TASKS_PACKAGE,
  EXT_TASKS_PROTOCOL_VERSION,
  EXT_TASKS_VERSION,
  SETTINGS_NOT_APPLIED_EXT_TASKS,
} from './version';

/**
 * The `ext-tasks` lane: a durable-task scenario (task-…) with the tasks extension's own TypeScript
 * package, `@modelcontextprotocol/ext-tasks` 0.2.2, as the client, on the virtual clock.
 *
 * What runs is the package's requester, as its README sets it up for a 2026-07-28 server: a v2 `Client`
 * (2.4.0) connected to a v2 `Server` that advertises the extension (`server/discover`, on the host's
 * own timers before the scenario's clock starts, and not drawn), and `createTaskSessionFromClient`
 * with `rawDispatch` and `v2RequestFraming`. The package frames every `tools/call` and `tasks/*`
 * request itself and hands it to `rawDispatch`, which is where the lab's wire is: the lab numbers the
 * request (the package leaves ids to the host), records it with the headers a Streamable HTTP host
 * sends plus the ones the package asks for, and delivers it after the scenario's latency.
 *
 * The package ships no 2026-07-28 task server (its receiver is 2025-11-25's, for sampling and
 * elicitation), so the server side is the lab's reference task server written here on the package's
 * own V2 schemas: it checks each request with the package's guards and parses each answer with the
 * package's result schemas before sending it. It does what the model's server does: the task exists
 * before CreateTaskResult is sent, a worker checks the cancel flag every `checkpointEveryMs`, and
 * tasks/cancel only records the intent. Differences from the model are therefore the package's.
 */

const TOOL_NAME = 'export_report';
const CALL_ID = 1;
const TASK_ID = 'task-7f3a';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
/** Where the package does what the lane words (files under node_modules/@modelcontextprotocol/ext-tasks/dist/). */
export const EXT_TASKS_SOURCE = {
  cancelEndsExecution:
    'client/execution.js: TaskExecution.cancel() aborts the execution with TaskCancelledError once the tasks/cancel ack arrives',
  mcpName:
    'client/port.js: v2TaskDispatchContext sets the Mcp-Name header to the taskId on tasks/get, tasks/update and tasks/cancel',
  framing:
    'client/sdk-client-adapter.js: frameV2TaskRequest puts protocolVersion, clientInfo and clientCapabilities (with the tasks extension) in every tools/call and tasks/* _meta',
  pollInterval:
    "client/execution.js: taskPollInterval honours the task's pollIntervalMs (floor 10 ms, default 1000 ms)",
} as const;

type Json = Record<string, unknown>;
interface ServerTask {
  taskId: string;
  status: TaskStatus;
  createdAtMs: number;
  lastUpdatedAtMs: number;
  cancelRequested: boolean;
  result: Json | null;
  checkpoints: number;
}

/** The wire, the lane's task server, and what the package's client was seen to do, on one virtual clock. */
class ExtTasksRun extends WireRecorder {
  private nextId = CALL_ID;
  private task: ServerTask | null = null;
  private readonly pending = new Map<number, { reject: (error: Error) => void }>();
  readonly postHeaders: Array<{ channel: string; headers: Record<string, string> }> = [];
  polls = 0;
  readonly statusesSeen: TaskStatus[] = [];
  cancelAckAtMs: number | null = null;
  statusAfterAck: TaskStatus | null = null;
  clientReported: TaskStatus | null = null;
  resultRetrieved = false;
  streamClosedAtMs: number | null = null;
  /** Set once the package's execution settled: the server's worker may still run. */
  clientDone = false;

  constructor(
    clock: InstalledClock,
    readonly transport: Transport,
    readonly seed: number,
    readonly s: TaskSettings,
  ) {
    super(clock, seed, s);
  }

  /** The task's status on the lane's server, or null before it exists. */
  serverStatus(): TaskStatus | null {
    return this.task?.status ?? null;
  }

  private put(
    from: Side,
    id: number,
    message: Json | JsonRpcMessage,
    headers: Record<string, string> | null,
  ): MessageEvent {
    const copy = this.wireCopy(message, 'the ext-tasks lane');
    const channel = this.transport === 'stdio' ? 'stdio' : from === 'client' ? `POST #${id}` : `SSE #${id}`;
    return this.recordMessage(from, channel, copy, headers);
  }

  private deliver(message: MessageEvent, then: () => void): void {
    const arrive = (): void => {
      this.recordDelivery(message);
      then();
    };
    setTimeout(arrive, Math.max(0, message.arrivesAtMs - this.nowMs));
  }

  /**
   * The package's `rawDispatch`: the host's transport. The request gets the next id, the headers a
   * Streamable HTTP host sends for it (with the package's own `Mcp-Name` where it asks for one: the
   * lab adds none for tasks/*, so a missing one would show), and the answer comes back one latency
   * after the server sent it.
   */
  readonly dispatch: RawClientDispatch = (request, options) => {
    const id = this.nextId++;
    const candidate: unknown =
      typeof request === 'object' && request !== null && !Array.isArray(request)
        ? { jsonrpc: '2.0', id, ...request }
        : request;
    if (!isJsonRpcMessage(candidate) || !('method' in candidate))
      throw new LabError(
        'LAB026',
        `the ext-tasks package dispatched something that is not a JSON-RPC request: ${String(jsonRpcProblem(candidate))}`,
      );
    const message = candidate;
    let headers: Record<string, string> | null = null;
    if (this.transport === 'http') {
      const standard = message.method.startsWith('tasks/')
        ? standardHeadersWithoutName(message)
        : postHeadersOf(message);
      const asked = Object.fromEntries(
        Object.entries(options?.context?.headers ?? {}).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
      headers = { ...(standard ?? {}), ...asked };
      this.postHeaders.push({ channel: `POST #${id}`, headers });
    }
    const event = this.put('client', id, message, headers);
    if (message.method === 'tasks/get') this.polls += 1;
    if (this.polls > this.s.pollsMax)
      throw new LabError(
        'LAB006',
        `the package polled tasks/get ${this.polls} times without a terminal status (pollsMax=${this.s.pollsMax})`,
      );
    return new Promise((resolve, reject) => {
      this.pending.set(id, { reject });
      this.deliver(event, () => {
        const answer = this.serve(id, message);
        const sent = this.put('server', id, answer, null);
        if (id === CALL_ID && this.streamClosedAtMs !== null) {
          sent.lost = true;
          sent.reason = `the client closed the connection of request #${CALL_ID} at ${this.streamClosedAtMs} ms`;
          return;
        }
        this.deliver(sent, () => {
          this.pending.delete(id);
          this.clientReceives(message.method, answer);
          const error = answer.error as { code: number; message: string } | undefined;
          resolve(
            error !== undefined
              ? { kind: 'error', error: { code: error.code, message: error.message } }
              : { kind: 'result', result: toJsonValue(answer.result) },
          );
        });
      });
    });
  };

  private clientReceives(method: string, answer: Json): void {
    const result = answer.result as Json | undefined;
    if (method === 'tasks/get' && result !== undefined) {
      const status = result.status as TaskStatus;
      this.statusesSeen.push(status);
      if (this.cancelAckAtMs !== null && this.statusAfterAck === null) this.statusAfterAck = status;
      if (status === 'completed') this.resultRetrieved = true;
      this.record({
        kind: 'task',
        action: 'polled',
        taskId: String(result.taskId),
        status,
        detail: `the package received status ${status}${TERMINAL.has(status) ? '' : `; it polls again after the pollIntervalMs the task carries (${String(result.pollIntervalMs)} ms)`}`,
      });
    }
    if (method === 'tasks/cancel' && result !== undefined) this.cancelAckAtMs = this.nowMs;
  }

  // ── the lane's task server, on the package's V2 schemas ─────────────────────────────────────

  private taskFields(task: ServerTask): Json {
    return {
      taskId: task.taskId,
      status: task.status,
      createdAt: new Date(task.createdAtMs).toISOString(),
      lastUpdatedAt: new Date(task.lastUpdatedAtMs).toISOString(),
      ttlMs: this.s.ttlMs,
      pollIntervalMs: this.s.pollIntervalMs,
    };
  }

  private serve(id: number, message: JsonRpcMessage & { method: string }): Json {
    const meta = { 'io.modelcontextprotocol/serverInfo': { ...SERVER_INFO } };
    const ok = (result: Json): Json => ({ jsonrpc: '2.0', id, result });
    const error = (code: number, text: string): Json => ({ jsonrpc: '2.0', id, error: { code, message: text } });
    if (message.method === 'tools/call') {
      if (!hasTaskClientCapabilityV2('params' in message ? message.params : undefined))
        return error(-32021, 'Missing required client capability');
      const now = this.nowMs;
      const task: ServerTask = {
        taskId: TASK_ID,
        status: 'working',
        createdAtMs: now,
        lastUpdatedAtMs: now,
        cancelRequested: false,
        result: null,
        checkpoints: 0,
      };
      // Durable before the answer: from here on a tasks/get for it resolves.
      this.task = task;
      this.record({
        kind: 'task',
        action: 'created',
        taskId: task.taskId,
        status: 'working',
        detail:
          'the task exists before the server answers with CreateTaskResult (resultType "task"), which the package\'s CreateTaskResultV2Schema accepts',
      });
      this.scheduleCheckpoint(task);
      return ok(CreateTaskResultV2Schema.parse({ resultType: 'task', ...this.taskFields(task), _meta: meta }));
    }
    const task = this.task;
    const asked =
      'params' in message && typeof message.params === 'object' && message.params !== null
        ? (message.params as { taskId?: unknown }).taskId
        : undefined;
    if (isGetTaskRequestV2(message)) {
      if (task === null || task.taskId !== asked) return error(-32602, 'Failed to retrieve task: Task not found');
      const detailed = {
        resultType: 'complete',
        ...this.taskFields(task),
        ...(task.status === 'completed' && task.result !== null ? { result: task.result } : {}),
        _meta: meta,
      };
      GetTaskResultV2Schema.parse(detailed);
      return ok(detailed);
    }
    if (isCancelTaskRequestV2(message)) {
      if (task === null || task.taskId !== asked) return error(-32602, 'Failed to cancel task: Task not found');
      task.cancelRequested = true;
      this.record({
        kind: 'task',
        action: 'cancel-acknowledged',
        taskId: task.taskId,
        status: task.status,
        detail: `the server acknowledges tasks/cancel with an empty result; the task is still ${task.status} until a worker checkpoint observes the flag (TK-1)`,
      });
      return ok(CancelTaskResultV2Schema.parse({ resultType: 'complete', _meta: meta }));
    }
    return error(-32601, `Method not found: ${String(message.method)}`);
  }

  private scheduleCheckpoint(task: ServerTask): void {
    const atMs = Math.min(
      task.createdAtMs + (task.checkpoints + 1) * this.s.checkpointEveryMs,
      task.createdAtMs + this.s.workMs,
    );
    setTimeout(() => this.checkpoint(task), atMs - this.nowMs);
  }

  private checkpoint(task: ServerTask): void {
    task.checkpoints += 1;
    const now = this.nowMs;
    if (now >= task.createdAtMs + this.s.workMs) {
      task.status = 'completed';
      task.lastUpdatedAtMs = now;
      task.result = {
        resultType: 'complete',
        content: [{ type: 'text', text: JSON.stringify({ rows: 42, quarter: '2026-Q3' }) }],
        structuredContent: { rows: 42, quarter: '2026-Q3' },
      };
      this.record({
        kind: 'task',
        action: 'completed',
        taskId: task.taskId,
        status: 'completed',
        detail: task.cancelRequested
          ? 'the work finished before a checkpoint observed the cancel flag: the task ends completed despite the acknowledged tasks/cancel'
          : 'the work finished',
      });
      return;
    }
    if (task.cancelRequested) {
      task.status = 'cancelled';
      task.lastUpdatedAtMs = now;
      this.record({
        kind: 'task',
        action: 'cancelled',
        taskId: task.taskId,
        status: 'cancelled',
        detail: `checkpoint ${task.checkpoints} observed the cancel flag: the worker stops, the task is cancelled`,
      });
      return;
    }
    task.lastUpdatedAtMs = now;
    this.scheduleCheckpoint(task);
  }

  closeStream(): void {
    this.streamClosedAtMs = this.nowMs;
    this.record({
      kind: 'stream-closed',
      by: 'client',
      requestId: CALL_ID,
      reason: 'the connection that created the task closes; the durable task is not tied to it (TK-3)',
    });
    const pending = this.pending.get(CALL_ID);
    if (pending !== undefined) {
      this.pending.delete(CALL_ID);
      pending.reject(new Error(`the connection of request #${CALL_ID} closed before its answer`));
    }
  }

  outcome(): TaskOutcome {
    assert(this.task !== null, 'the lane created the task');
    return {
      taskId: this.task.taskId,
      taskStatus: this.task.status,
      cancelAcknowledged: this.cancelAckAtMs !== null,
      statusAfterAck: this.statusAfterAck,
      statusesSeen: [...this.statusesSeen],
      polls: this.polls,
      resultRetrieved: this.resultRetrieved,
      streamClosed: this.streamClosedAtMs !== null,
      clientReported: this.clientReported,
    };
  }
}

/** The headers a Streamable HTTP host sends for a tasks/* request, without Mcp-Name: that one is the package's to ask for. */
function standardHeadersWithoutName(message: JsonRpcMessage): Record<string, string> | null {
  const headers = postHeadersOf(message);
  if (headers === null) return null;
  const { 'Mcp-Name': _name, ...rest } = headers;
  return rest;
}

/** What the package's execution ended with, as the lab words the client's report. */
function reportedStatus(outcome: { status: 'completed' | 'failed' | 'cancelled' }): TaskStatus {
  return outcome.status;
}

/**
 * Runs a durable-task scenario with `@modelcontextprotocol/ext-tasks` as the client and returns its
 * transcript, in the lab's format, with `implementation: 'ext-tasks'`. Same seed and settings →
 * byte-identical transcript.
 */
export function runExtTasksScenario(
  scenario: TaskScenario,
  options: TsSdkRunOptions = {},
): Promise<Transcript<'task'>> {
  const refusal = sdkRefusal(scenario, options.settings ?? {}, false, false, 'ext-tasks');
  if (refusal !== null) throw refusal;
  const transport = checkTransport(options.transport ?? scenario.defaultTransport);
  const seed = checkSeed(options.seed ?? DEFAULT_SEED);
  const settings = resolveSettings(taskSettingsSpec, { ...scenario.settings }, options.settings ?? {}) as TaskSettings;
  return onSharedClock(connect, (clock, joined) =>
    runOnClock(clock, joined, scenario, transport, seed, settings, options.onStep),
  );
}

interface Joined {
  readonly client: Client;
  readonly tools: Map<string, ReturnType<typeof toolDeclarationFromMcpTool>>;
  readonly negotiated: string;
  readonly close: () => Promise<void>;
}

/** The v2 Client and a v2 Server that advertises the extension, joined in memory: discovery and the tool list, before the scenario's clock. */
async function connect(): Promise<Joined> {
  const client = new Client({ ...CLIENT_INFO }, { versionNegotiation: { mode: 'auto' } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const makeServer = (): Server => {
    const server = new Server(
      { ...SERVER_INFO },
      { capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } } },
    );
    server.setRequestHandler('tools/list', () => ({
      tools: [
        {
          name: TOOL_NAME,
          description: 'Exports a quarterly report; may run as a task.',
          inputSchema: { type: 'object' as const, properties: { quarter: { type: 'string' } } },
        },
      ],
    }));
    return server;
  };
  const served = serveStdio(makeServer, { transport: serverSide });
  await client.connect(clientSide);
  const listed = await client.listTools();
  const tools = new Map(listed.tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
  return {
    client,
    tools,
    negotiated: client.getNegotiatedProtocolVersion() ?? 'unknown',
    close: async () => {
      await client.close();
      await served.close();
    },
  };
}

async function runOnClock(
  clock: InstalledClock,
  joined: Joined,
  scenario: TaskScenario,
  transport: Transport,
  seed: number,
  settings: TaskSettings,
  onStep: TsSdkRunOptions['onStep'],
): Promise<Transcript<'task'>> {
  const run = new ExtTasksRun(clock, transport, seed, settings);
  const errors: string[] = [];
  const session = createTaskSessionFromClient(joined.client, {
    endpointId: 'mcp-reliability-lab',
    rawDispatch: run.dispatch,
    v2RequestFraming: {
      protocolVersion: EXT_TASKS_PROTOCOL_VERSION,
      clientInfo: { ...CLIENT_INFO },
      clientCapabilities: {},
    },
    tools: { currentTool: (name: string) => joined.tools.get(name) },
    onError: (error: Error) => errors.push(error.message),
  });
  const checkPackage = scheduleScript(run, session, settings);
  const drive = clockDriver(clock, run, {
    eventsMax: settings.eventsMax,
    horizonMs: settings.workMs + settings.ttlMs + 100 * (settings.latencyMs + settings.latencyJitterMs) + 60_000,
    onStep,
    runName: 'the ext-tasks run',
    timersOf: 'the ext-tasks run',
    afterTurns: checkPackage,
  });
  await drive();
  if (errors.length > 0) throw new LabError('LAB026', `the ext-tasks package reported: ${errors.join('; ')}`);
  if (!run.clientDone) throw new LabError('LAB026', 'the ext-tasks execution never settled');

  const outcome = run.outcome();
  await session.close();
  await joined.close();
  for (let turn = 0; turn < FLUSH_TURNS; turn += 1) await realTurn();
  return extTasksTranscript(run, scenario, joined.negotiated, outcome);
}

/**
 * Sets the scenario's script on the clock: the package's `callTool` at 0 ms, its execution's
 * `cancel()` at cancelAtMs and the connection's close at closeStreamAtMs. Returns the check the
 * driver runs between steps: it throws once the package failed in a way the lab does not expect.
 */
function scheduleScript(run: ExtTasksRun, session: TaskEnabledSession, settings: TaskSettings): () => void {
  let execution: ToolExecution<unknown> | null = null;
  let failure: unknown = null;
  const call = (): void => {
    session.callTool(TOOL_NAME, { quarter: '2026-Q3' }).then(
      (started) => {
        execution = started;
        if (started.kind !== 'task')
          failure = new Error(`callTool resolved with a ${started.kind} execution, not a task`);
        started.result().then(
          (outcome) => reportSettled(run, outcome),
          (error: unknown) => (failure = error),
        );
      },
      (error: unknown) => (failure = error),
    );
  };
  const cancel = (): void => {
    const started = execution;
    if (started === null || run.clientDone) {
      run.record({
        kind: 'task',
        action: 'cancel-skipped',
        taskId: TASK_ID,
        status: null,
        detail: run.clientDone ? 'the execution already settled' : 'the package has no task yet',
      });
      return;
    }
    started.cancel().catch((error: unknown) => (failure = error));
  };
  setTimeout(call, 0);
  if (settings.cancelAtMs !== null) setTimeout(cancel, settings.cancelAtMs);
  if (settings.closeStreamAtMs !== null) setTimeout(() => run.closeStream(), settings.closeStreamAtMs);
  return () => {
    if (failure !== null)
      throw new LabError(
        'LAB026',
        `the ext-tasks package failed in a way the lab does not expect: ${failure instanceof Error ? failure.message : String(failure)}`,
      );
  };
}

/** The package's execution settled: what it reported, beside what the server's task is. */
function reportSettled(run: ExtTasksRun, outcome: { status: 'completed' | 'failed' | 'cancelled' }): void {
  run.clientDone = true;
  run.clientReported = reportedStatus(outcome);
  const onServer = run.serverStatus();
  const said =
    outcome.status === 'cancelled' && onServer !== 'cancelled'
      ? `, though the task is ${String(onServer)} on the server (${EXT_TASKS_SOURCE.cancelEndsExecution})`
      : '';
  run.record({
    kind: 'task',
    action: 'reported',
    taskId: TASK_ID,
    status: outcome.status,
    detail: `the package's execution settled ${outcome.status}${outcome.status === 'completed' ? ' with the result the completed task carried' : ''}${said}`,
  });
}

/** The run's transcript in the lab's format, with what the package is and did in `sdk`. */
function extTasksTranscript(
  run: ExtTasksRun,
  scenario: TaskScenario,
  negotiated: string,
  outcome: TaskOutcome,
): Transcript<'task'> {
  const { transport } = run;
  const transcript: Transcript<'task'> = {
    scenario: scenario.id,
    transport,
    seed: run.seed,
    settings: run.s,
    kind: 'task',
    title: scenario.title,
    requirements: [...scenario.requirements],
    protocolVersion: negotiated,
    implementation: 'ext-tasks',
    events: run.log.events,
    outcome,
  };
  transcript.sdk = {
    package: EXT_TASKS_PACKAGE,
    version: EXT_TASKS_VERSION,
    negotiatedProtocolVersion: negotiated,
    settingsNotApplied: { ...SETTINGS_NOT_APPLIED_EXT_TASKS },
    invariants: [],
    ...(transport === 'http' ? { postHeaders: run.postHeaders } : {}),
  };
  return transcript;
}
