import { LabError } from '../engine';
import { ProbeClient, type JsonObject, type Negotiated } from './client';
import { HttpConnection, redactCommand, redactUrl, StdioConnection, type Connection } from './connection';
import { reconnectProbe, type ReconnectPlan } from './reconnect';
import { idempotencyProbe, type IdempotencyRecord, type Mutation } from './idempotency';
import {
  cancelByClose,
  cancelDuringWork,
  completeThenCancel,
  headersAndQuietStream,
  oneResponsePerRequest,
  progressAndDeadlines,
  PROBE_TIMES_DEFAULT,
  type ProbeRun,
  type ProbeTimes,
  type ToolCall,
  type Verdict,
} from './probes';
import { PROBE_BOUNDS_DEFAULT, Recorder, type ProbeBounds, type ProbeEvent } from './record';
import { taskCapableTools, taskFlavour, tasksProbe, type TaskFlavour, type TaskTrace } from './tasks';
import { describeValue } from './text';

export interface ProbeTarget {
  transport: 'stdio' | 'http';
  /** The command line (stdio) or the URL (HTTP). */
  target: string;
}

export interface ProbeOptions extends ProbeTarget {
  /** The tool the races run against; absent: only the idempotency probe runs. */
  tool?: string;
  arguments: JsonObject;
  /** The mutation the idempotency probe calls; absent: no idempotency probe. */
  mutation?: Mutation;
  /** The tool the tasks probe runs as a task and cancels; absent: no tasks probe. */
  taskTool?: ToolCall;
  times?: Partial<ProbeTimes>;
  bounds?: Partial<ProbeBounds>;
}

/**
 * A probe run as the lab records runs: who produced it (`implementation: "probe"`), the server it
 * talked to, the revision it negotiated, every event with real times in ms from the probe's start,
 * and the verdicts. Field names are a contract: extend, never rename.
 */
export interface ProbeTranscript {
  scenario: 'probe';
  implementation: 'probe';
  transport: 'stdio' | 'http';
  target: string;
  /** Wall-clock time the probe started (ISO 8601): a probe is a measurement, not a replayable run. */
  startedAt: string;
  server: { name: string; version: string };
  protocolVersion: string;
  negotiatedVia: Negotiated['via'];
  /** Why 2026-07-28 was not used, when it was not. */
  fallbackReason: string | null;
  /** The capabilities the server declared when negotiating. */
  capabilities: JsonObject;
  tool: { name: string; arguments: JsonObject; listed: JsonObject | null } | null;
  /** The idempotency probe's calls, when a mutation was named. */
  idempotency: IdempotencyRecord | null;
  /** The reconnect plan the probe carried out (2026-07-28 servers that accept subscriptions/listen). */
  reconnectPlan: ReconnectPlan | null;
  /** Which tasks the server offers: the 2026-07-28 extension, the 2025-11-25 core tasks, or none (null). */
  tasksOffered: TaskFlavour | null;
  /** The task-cancellation trace, when the tasks probe ran (`--task-tool`). */
  tasks: TaskTrace | null;
  times: ProbeTimes;
  bounds: ProbeBounds;
  probes: string[];
  events: ProbeEvent[];
  verdicts: Verdict[];
  /** The server's stderr (stdio), its last bytes; empty over HTTP. */
  stderr: string;
  received: { messages: number; bytes: number };
}

/** A failed probe still carries what it saw: the LAB error plus the events and stderr up to the failure. */
export class ProbeFailure extends Error {
  constructor(
    readonly error: LabError,
    readonly events: ProbeEvent[],
    readonly stderr: string,
  ) {
    super(error.message);
  }
}

/** Runs every probe that applies to the transport against one tool; the connection (and child) always ends. */
export async function runProbe(options: ProbeOptions): Promise<ProbeTranscript> {
  const times = { ...PROBE_TIMES_DEFAULT, ...options.times };
  const bounds = { ...PROBE_BOUNDS_DEFAULT, ...options.bounds };
  const recorder = new Recorder(bounds);
  const startedAt = new Date().toISOString();
  const connection: Connection =
    options.transport === 'stdio'
      ? new StdioConnection(recorder, options.target)
      : new HttpConnection(recorder, options.target);
  const probes: string[] = [];
  try {
    const client = new ProbeClient(connection, recorder);
    const negotiated = await client.negotiate();
    recorder.record({
      kind: 'note',
      text: `negotiated ${negotiated.revision} via ${negotiated.via} with ${negotiated.server.name} ${negotiated.server.version}`,
    });
    recorder.probe = 'tools';
    const tools = await client.listTools();
    const listed = options.tool === undefined ? null : findTool(tools, options.tool);
    if (options.mutation !== undefined) findTool(tools, options.mutation.name);
    if (options.taskTool !== undefined) findTool(tools, options.taskTool.name);
    const run: ProbeRun = {
      client,
      recorder,
      revision: negotiated.revision,
      transport: options.transport,
      tool: { name: options.tool ?? '', arguments: options.arguments },
      times,
      verdicts: [],
    };
    if (options.tool !== undefined) await runCallProbes(run, probes);
    const idempotency = options.mutation === undefined ? null : await idempotencyProbe(run, options.mutation);
    if (idempotency !== null) probes.push('idempotency');
    const tasksOffered = taskFlavour(negotiated.revision, negotiated.capabilities);
    const tasks = await runTasksProbe(run, options.taskTool, tasksOffered, tools);
    if (tasks !== null) probes.push('tasks');
    const reconnectPlan = negotiated.revision === '2026-07-28' ? await reconnectProbe(run) : null;
    if (negotiated.revision === '2026-07-28') probes.push('reconnect');
    recorder.probe = 'end';
    await connection.close();
    if (recorder.failed !== null) throw recorder.failed;
    oneResponsePerRequest(run);
    return {
      scenario: 'probe',
      implementation: 'probe',
      transport: options.transport,
      // Credentials in an --http URL or a --stdio command stay out of the transcript and the evidence.
      target: options.transport === 'http' ? redactUrl(options.target) : redactCommand(options.target),
      startedAt,
      server: negotiated.server,
      protocolVersion: negotiated.revision,
      negotiatedVia: negotiated.via,
      fallbackReason: negotiated.fallbackReason,
      capabilities: negotiated.capabilities,
      tool: options.tool === undefined ? null : { name: options.tool, arguments: options.arguments, listed },
      idempotency,
      reconnectPlan,
      tasksOffered,
      tasks,
      times,
      bounds,
      probes,
      events: recorder.events,
      verdicts: run.verdicts,
      stderr: connection.stderrText(),
      received: recorder.receivedTotals,
    };
  } catch (error) {
    const failure = recorder.failed ?? error;
    await connection.close();
    if (failure instanceof LabError) throw new ProbeFailure(failure, recorder.events, connection.stderrText());
    throw failure;
  } finally {
    // Ends the child and every open stream on every path, the failed ones included.
    await connection.close();
  }
}

/** The tool the server lists by that name; LAB046, naming the tools it does list, when there is none. */
function findTool(tools: JsonObject[], name: string): JsonObject {
  const listed = tools.find((t) => t.name === name);
  if (listed !== undefined) return listed;
  const names = tools.map((t) => describeValue(t.name));
  throw new LabError(
    'LAB046',
    `the server lists no tool named ${JSON.stringify(name)}; it lists ${names.length === 0 ? 'none' : names.slice(0, 25).join(', ') + (names.length > 25 ? ', …' : '')}. Nothing was called`,
  );
}

/** The probes of one tool call, in order: A, B and C on every transport, then the HTTP-only ones of the revision. */
async function runCallProbes(run: ProbeRun, probes: string[]): Promise<void> {
  const steps = [
    cancelDuringWork,
    completeThenCancel,
    progressAndDeadlines,
    ...(run.transport === 'http'
      ? [headersAndQuietStream, ...(run.revision === '2026-07-28' ? [] : [cancelByClose])]
      : []),
  ];
  for (const step of steps) {
    await step(run);
    probes.push(run.recorder.probe);
  }
}

/**
 * The tasks probe when the server offers tasks and --task-tool names one; otherwise null, with a note
 * saying which of the two is missing (when one of them is there).
 */
async function runTasksProbe(
  run: ProbeRun,
  taskTool: ToolCall | undefined,
  tasksOffered: TaskFlavour | null,
  tools: JsonObject[],
): Promise<TaskTrace | null> {
  if (tasksOffered !== null && taskTool !== undefined) return tasksProbe(run, tasksOffered, taskTool);
  if (tasksOffered === null && taskTool === undefined) return null;
  run.recorder.probe = 'tasks';
  const capable = taskCapableTools(tools);
  run.recorder.record({
    kind: 'note',
    text:
      tasksOffered === null
        ? `the server does not offer tasks (neither the ${run.revision === '2026-07-28' ? 'io.modelcontextprotocol/tasks extension' : 'tasks.requests.tools.call capability'}): --task-tool ${taskTool?.name ?? ''} was not called`
        : `the server offers tasks (${tasksOffered === 'extension' ? 'the io.modelcontextprotocol/tasks extension' : '2025-11-25 tasks on tools/call'}); name a tool with --task-tool to create, cancel and poll one${capable.length === 0 ? '' : ` (tools it lists as task-capable: ${capable.slice(0, 10).join(', ')})`}`,
  });
  return null;
}
