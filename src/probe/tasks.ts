import { REVISION_2026, type JsonObject, type SentRequest } from './client';
import { makeVerdict, type ProbeRun, type ToolCall, type Verdict } from './probes';
import { SENTENCES, type Sentence } from './sentences';
import { describeValue, numberOf } from './text';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** Polling interval bounds: a server's pollInterval(Ms) is honoured inside them, so a probe stays short and never floods. */
const POLL_MS_MIN = 100;
const POLL_MS_MAX = 1_000;
/** The progress token the probe's task-augmented tools/call carries (extension only): a server that sends progress for the task uses it. */
export const TASK_PROGRESS_TOKEN = 'probe-task';
/** Polls after the first terminal status: enough to see whether it stays. */
const POLLS_AFTER_TERMINAL = 2;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Which tasks the server offers: the 2026-07-28 extension, the 2025-11-25 core tasks on tools/call, or none. */
export type TaskFlavour = 'extension' | '2025-11-25';

export function taskFlavour(revision: string, capabilities: JsonObject): TaskFlavour | null {
  if (revision === REVISION_2026)
    return isObject(capabilities.extensions) && TASKS_EXTENSION in capabilities.extensions ? 'extension' : null;
  const tasks = capabilities.tasks;
  return isObject(tasks) && isObject(tasks.requests) && isObject(tasks.requests.tools) && 'call' in tasks.requests.tools
    ? '2025-11-25'
    : null;
}

/** The tools a server lists as able to run as tasks (2025-11-25 `execution.taskSupport`); the extension lets the server decide per call. */
export function taskCapableTools(tools: JsonObject[]): string[] {
  return tools
    .filter(
      (t) =>
        isObject(t.execution) && (t.execution.taskSupport === 'required' || t.execution.taskSupport === 'optional'),
    )
    .map((t) => describeValue(t.name));
}

export interface TaskPoll {
  requestId: number;
  atMs: number;
  /** The status the answer carried, or null for an error answer. */
  status: string | null;
  /** After the tasks/cancel acknowledgement arrived. */
  afterAck: boolean;
  error: JsonObject | null;
}

/** The durable task-cancellation trace: what the probe did and what each answer said, in order. */
export interface TaskTrace {
  flavour: TaskFlavour;
  tool: string;
  callRequestId: number;
  taskId: string | null;
  createdStatus: string | null;
  cancelRequestId: number | null;
  cancelSentAtMs: number | null;
  /** The tasks/cancel answer as received: the acknowledgement (or an error). */
  acknowledgement: JsonObject | null;
  acknowledgedAtMs: number | null;
  polls: TaskPoll[];
  /** The first terminal status seen by a poll, and when. */
  terminal: { status: string; atMs: number } | null;
  /** Why polling ended: a terminal status (then a few confirming polls), the probe's maximum deadline, or no task to poll. */
  endedBy: 'terminal' | 'max-deadline' | 'no task';
}

const statusOf = (result: unknown): string | null =>
  isObject(result) && typeof result.status === 'string' ? result.status : null;

/** One run of the tasks probe: what every phase reads and writes. */
interface TaskProbe {
  run: ProbeRun;
  /** The 2026-07-28 tasks extension (else 2025-11-25 core tasks). */
  ext: boolean;
  trace: TaskTrace;
  push: (check: string, sentence: Sentence, result: Verdict['result'], detail: string) => void;
  /** The wait between polls: the server's last suggestion, kept within POLL_MS_MIN–POLL_MS_MAX. */
  intervalMs: number;
}

const PROBE = 'tasks';
const S25 = SENTENCES.tasks2025;
const SX = SENTENCES.tasksExt;

/**
 * The tasks probe: create a task with the tool the user names, cancel it with `tasks/cancel`, record the
 * acknowledgement, then poll `tasks/get` until a terminal status — the acknowledgement is never taken
 * as the end — and a couple of times more, to see that status stay.
 */
export async function tasksProbe(run: ProbeRun, flavour: TaskFlavour, tool: ToolCall): Promise<TaskTrace> {
  run.recorder.probe = PROBE;
  const ext = flavour === 'extension';
  const callStartMs = run.recorder.nowMs();
  const call = callAsTask(run, ext, tool);
  const t: TaskProbe = {
    run,
    ext,
    trace: {
      flavour,
      tool: tool.name,
      callRequestId: call.id,
      taskId: null,
      createdStatus: null,
      cancelRequestId: null,
      cancelSentAtMs: null,
      acknowledgement: null,
      acknowledgedAtMs: null,
      polls: [],
      terminal: null,
      endedBy: 'no task',
    },
    push: (check, sentence, result, detail) =>
      void run.verdicts.push(makeVerdict(PROBE, check, sentence, result, detail)),
    intervalMs: 0,
  };
  const answer = await run.client.response(call, 'tools/call');
  const task = createdTask(t, answer);
  if (task === null) return t.trace;
  const taskId = task.taskId as string;
  t.trace.taskId = taskId;
  /** Where the task's life begins on the recording: notifications from here on are about the task. */
  const createdSeq = run.recorder.events.length;
  t.trace.createdStatus = statusOf(task);
  if (!ext)
    t.push(
      'a task begins working',
      S25.beginWorking,
      t.trace.createdStatus === 'working' ? 'holds' : 'broken',
      `the CreateTaskResult said ${describeValue(t.trace.createdStatus)} for task ${taskId}`,
    );
  t.intervalMs = pollIntervalMs(ext, task);

  // Durably created: a tasks/get right after CreateTaskResult must resolve.
  const first = await poll(t, taskId);
  if (ext)
    t.push(
      'the task exists when CreateTaskResult arrives',
      SX.durable,
      first.error === null ? 'holds' : 'broken',
      first.error === null
        ? `tasks/get #${first.requestId}, sent right after the CreateTaskResult, resolved: ${describeValue(first.status)}`
        : `tasks/get #${first.requestId}, sent right after the CreateTaskResult, failed: ${JSON.stringify(first.error).slice(0, 160)}`,
    );
  const cancelDueMs = callStartMs + run.times.cancelAfterMs;
  if (run.recorder.nowMs() < cancelDueMs) await run.recorder.pause(cancelDueMs - run.recorder.nowMs());

  const terminalBeforeCancel = t.trace.terminal;
  const ackResult = await cancelTask(t, taskId, terminalBeforeCancel);
  await pollToTerminal(t, taskId);
  judgeAfterAcknowledgement(t, terminalBeforeCancel, ackResult);
  judgeTerminalStays(t);
  if (ext) judgeNoNotificationsOnTask(t, taskId, createdSeq);
  t.push(
    'the work stops after tasks/cancel',
    ext ? SX.stopWork : S25.stopWork,
    'not observable',
    `the probe sees only the status the server reports (${t.trace.terminal === null ? 'no terminal status' : t.trace.terminal.status}); whether the worker stopped needs the server's own log${ext ? ', and the extension does not oblige it to stop' : ''}`,
  );
  if (!ext && t.trace.terminal !== null) await cancelTerminalTask(t, taskId, t.trace.terminal.status);
  return t.trace;
}

/** Sends the task-augmented tools/call and says on the recording how it asked for a task. */
function callAsTask(run: ProbeRun, ext: boolean, tool: ToolCall): SentRequest {
  const call = ext
    ? run.client.request(
        'tools/call',
        { name: tool.name, arguments: tool.arguments },
        { capabilities: { extensions: { [TASKS_EXTENSION]: {} } }, progressToken: TASK_PROGRESS_TOKEN },
      )
    : run.client.request('tools/call', { name: tool.name, arguments: tool.arguments, task: { ttl: 60_000 } });
  run.recorder.record({
    kind: 'note',
    text: ext
      ? `tools/call #${call.id} declares the tasks extension in its per-request capabilities (and a progressToken, ${TASK_PROGRESS_TOKEN}): the server decides whether to answer with a task, and if it does, sends no progress or log notification for it`
      : `tools/call #${call.id} asks for a task (params.task, ttl 60000 ms)`,
  });
  return call;
}

/** The task the call's answer created, or null (with the note and verdicts saying why there is none). */
function createdTask(t: TaskProbe, answer: JsonObject | null): JsonObject | null {
  const result = answer?.result;
  const task = t.ext
    ? isObject(result) && result.resultType === 'task'
      ? result
      : null
    : isObject(result) && isObject(result.task)
      ? result.task
      : null;
  if (task !== null && typeof task.taskId === 'string') return task;
  const why =
    answer === null
      ? 'the call ended without an answer'
      : isObject(answer.error)
        ? `the server answered the call with error ${describeValue(answer.error.code)} ${describeValue(answer.error.message).slice(0, 120)}`
        : t.ext
          ? 'the server answered with a plain result: under the extension it decides per request whether to create a task'
          : 'the answer carried no task object';
  if (!t.ext && answer !== null && !isObject(answer.error))
    t.push(
      'a task-augmented call is answered with CreateTaskResult',
      S25.created,
      'broken',
      `${why}: ${JSON.stringify(result).slice(0, 200)}`,
    );
  t.run.recorder.record({ kind: 'note', text: `no task to cancel: ${why}` });
  t.push(
    'the tasks/cancel acknowledgement is not the end: polled to a terminal status',
    SENTENCES.lesson.taskAckNotEnd,
    'not observable',
    `no task was created: ${why}`,
  );
  return null;
}

/** The server's suggested poll interval (pollIntervalMs under the extension, pollInterval on 2025-11-25), bounded; 250 ms without one. */
function pollIntervalMs(ext: boolean, source: unknown): number {
  const suggested = isObject(source) ? numberOf(ext ? source.pollIntervalMs : source.pollInterval) : NaN;
  return Number.isFinite(suggested) ? Math.min(POLL_MS_MAX, Math.max(POLL_MS_MIN, suggested)) : 250;
}

/** One tasks/get: recorded on the trace, with the server's next interval and the first terminal status. */
async function poll(t: TaskProbe, taskId: string): Promise<TaskPoll> {
  const { run, trace } = t;
  const sent = run.client.request('tasks/get', { taskId });
  const got = await run.client.response(sent, 'tasks/get');
  const entry: TaskPoll = {
    requestId: sent.id,
    atMs: run.recorder.nowMs(),
    status: statusOf(got?.result),
    afterAck: trace.acknowledgedAtMs !== null,
    error: isObject(got?.error) ? got.error : null,
  };
  trace.polls.push(entry);
  if (isObject(got?.result)) t.intervalMs = pollIntervalMs(t.ext, got.result);
  if (
    t.ext &&
    isObject(got?.result) &&
    got.result.resultType !== 'complete' &&
    !run.verdicts.some((v) => v.probe === PROBE && v.check === 'tasks/get answers carry resultType "complete"')
  )
    t.push(
      'tasks/get answers carry resultType "complete"',
      SX.getComplete,
      'broken',
      `tasks/get #${sent.id} answered resultType ${JSON.stringify(got.result.resultType)}`,
    );
  if (entry.status !== null && TERMINAL.has(entry.status) && trace.terminal === null)
    trace.terminal = { status: entry.status, atMs: entry.atMs };
  return entry;
}

/** Sends tasks/cancel and judges its acknowledgement; returns the acknowledgement's result (null for an error). */
async function cancelTask(
  t: TaskProbe,
  taskId: string,
  terminalBeforeCancel: TaskTrace['terminal'],
): Promise<JsonObject | null> {
  const { run, trace } = t;
  const cancel = run.client.request('tasks/cancel', { taskId });
  trace.cancelRequestId = cancel.id;
  trace.cancelSentAtMs = run.recorder.nowMs();
  const ack = await run.client.response(cancel, 'tasks/cancel');
  trace.acknowledgement = ack;
  trace.acknowledgedAtMs = run.recorder.nowMs();
  const ackResult = isObject(ack?.result) ? ack.result : null;
  run.recorder.record({
    kind: 'note',
    text: `tasks/cancel #${cancel.id} answered at ${trace.acknowledgedAtMs} ms: ${JSON.stringify(ack?.result ?? ack?.error ?? null).slice(0, 200)} — an acknowledgement, not the end: polling tasks/get until a terminal status`,
  });
  if (terminalBeforeCancel !== null)
    run.recorder.record({
      kind: 'note',
      text: `the task was already ${terminalBeforeCancel.status} at ${terminalBeforeCancel.atMs} ms, before the cancel was due: give it longer work or cancel earlier with --cancel-after-ms`,
    });

  if (t.ext) {
    const extra = ackResult === null ? [] : Object.keys(ackResult).filter((k) => k !== 'resultType' && k !== '_meta');
    if (ackResult === null)
      t.push(
        'tasks/cancel is acknowledged with an empty result',
        SX.emptyAck,
        'not observable',
        `tasks/cancel #${cancel.id} answered with an error, not a success: ${JSON.stringify(ack?.error).slice(0, 160)} (the sentence covers a successful cancellation)`,
      );
    else
      t.push(
        'tasks/cancel is acknowledged with an empty result',
        SX.emptyAck,
        extra.length === 0 && ackResult.resultType === 'complete' ? 'holds' : 'broken',
        extra.length === 0 && ackResult.resultType === 'complete'
          ? `tasks/cancel #${cancel.id}: ${JSON.stringify(ackResult)}`
          : `tasks/cancel #${cancel.id} answered ${JSON.stringify(ackResult).slice(0, 200)}${extra.length > 0 ? `: not empty (${extra.join(', ')})` : ''}${ackResult.resultType !== 'complete' ? `; resultType ${JSON.stringify(ackResult.resultType)}` : ''}`,
      );
  } else if (terminalBeforeCancel === null) {
    const ackStatus = statusOf(ackResult);
    t.push(
      'tasks/cancel answers with the task already cancelled',
      S25.cancelTransitions,
      ackResult === null ? 'broken' : ackStatus === 'cancelled' ? 'holds' : 'broken',
      ackResult === null
        ? `tasks/cancel #${cancel.id} of a working task answered with an error: ${JSON.stringify(ack?.error).slice(0, 160)}`
        : `tasks/cancel #${cancel.id} answered status ${describeValue(ackStatus)}`,
    );
  }
  return ackResult;
}

/** Polls until a terminal status and POLLS_AFTER_TERMINAL more, within the probe's maximum deadline after the acknowledgement. */
async function pollToTerminal(t: TaskProbe, taskId: string): Promise<void> {
  const { run, trace } = t;
  const deadlineMs = (trace.acknowledgedAtMs ?? 0) + run.times.maxTimeoutMs;
  for (;;) {
    await poll(t, taskId);
    const firstTerminal = trace.polls.findIndex((p) => p.status !== null && TERMINAL.has(p.status));
    if (firstTerminal >= 0 && trace.polls.length - 1 - firstTerminal >= POLLS_AFTER_TERMINAL) break;
    if (run.recorder.nowMs() + t.intervalMs > deadlineMs) break;
    await run.recorder.pause(t.intervalMs);
  }
  trace.endedBy = trace.terminal !== null ? 'terminal' : 'max-deadline';
}

/** The verdicts on what followed the acknowledgement: polled to the end, and the status it left. */
function judgeAfterAcknowledgement(
  t: TaskProbe,
  terminalBeforeCancel: TaskTrace['terminal'],
  ackResult: JsonObject | null,
): void {
  const { run, trace } = t;
  const acknowledgedAtMs = trace.acknowledgedAtMs ?? 0;
  const afterAck = trace.polls.filter((p) => p.afterAck);
  const firstAfter = afterAck[0];
  const sequence = trace.polls.map((p) => `${p.status ?? 'error'} at ${p.atMs} ms`).join(', ');
  run.recorder.record({
    kind: 'note',
    text:
      trace.terminal === null
        ? `no terminal status within ${run.times.maxTimeoutMs} ms of the acknowledgement (--max-ms); the task was still ${describeValue(afterAck.at(-1)?.status)}`
        : `terminal status ${trace.terminal.status} at ${trace.terminal.atMs} ms, ${Math.round(trace.terminal.atMs - acknowledgedAtMs)} ms after the acknowledgement`,
  });

  t.push(
    'the tasks/cancel acknowledgement is not the end: polled to a terminal status',
    SENTENCES.lesson.taskAckNotEnd,
    trace.terminal === null ? 'not observable' : 'holds',
    trace.terminal === null
      ? `the probe polled ${afterAck.length} times after the acknowledgement at ${acknowledgedAtMs} ms and saw no terminal status within --max-ms ${run.times.maxTimeoutMs}: ${sequence}`
      : `a client obligation, carried out: after the acknowledgement at ${acknowledgedAtMs} ms the probe polled ${afterAck.length} times; the first poll said ${describeValue(firstAfter?.status)}, the task ended ${trace.terminal.status} at ${trace.terminal.atMs} ms (${sequence})`,
  );
  if (t.ext) {
    const stillWorking = firstAfter !== undefined && firstAfter.status !== null && !TERMINAL.has(firstAfter.status);
    t.push(
      'what the acknowledgement left: the status after it',
      SX.eventuallyConsistent,
      terminalBeforeCancel !== null ? 'not observable' : 'holds',
      terminalBeforeCancel !== null
        ? `the task was ${terminalBeforeCancel.status} before the cancel`
        : `a permission, reported: the first tasks/get after the acknowledgement said ${describeValue(firstAfter?.status)}${stillWorking ? ' — the acknowledgement recorded the intent only, as the extension allows' : ''}; ${trace.terminal === null ? 'no terminal status was seen' : `the task ended ${trace.terminal.status}${trace.terminal.status === 'cancelled' ? '' : ', not cancelled: the work finished before the cancellation took effect, which the extension allows'}`}`,
    );
  } else if (terminalBeforeCancel === null && statusOf(ackResult) === 'cancelled') {
    const leftCancelled = afterAck.filter((p) => p.status !== 'cancelled');
    t.push(
      'a cancelled task stays cancelled',
      S25.staysCancelled,
      leftCancelled.length > 0 ? 'broken' : afterAck.length === 0 ? 'not observable' : 'holds',
      leftCancelled.length > 0
        ? `after the acknowledgement said cancelled, tasks/get said ${leftCancelled.map((p) => `${p.status ?? `error ${JSON.stringify(p.error).slice(0, 80)}`} at ${p.atMs} ms`).join(', ')}`
        : `${afterAck.length} polls after the acknowledgement, all cancelled`,
    );
  }
}

/** A terminal status that changes, or a status that regresses to working after a terminal one, is broken. */
function judgeTerminalStays(t: TaskProbe): void {
  const { polls } = t.trace;
  const terminalIndex = polls.findIndex((p) => p.status !== null && TERMINAL.has(p.status));
  const laterPolls = terminalIndex < 0 ? [] : polls.slice(terminalIndex + 1);
  const terminalStatus = terminalIndex < 0 ? null : polls[terminalIndex]?.status;
  const changed = laterPolls.filter((p) => p.status !== null && p.status !== terminalStatus);
  t.push(
    'a terminal status never changes',
    t.ext ? SX.terminalStays : S25.terminalStays,
    terminalIndex < 0 || laterPolls.length === 0 ? 'not observable' : changed.length > 0 ? 'broken' : 'holds',
    terminalIndex < 0
      ? 'no terminal status was seen'
      : laterPolls.length === 0
        ? 'no poll followed the terminal status'
        : changed.length > 0
          ? `the task was ${describeValue(terminalStatus)} at ${polls[terminalIndex]?.atMs} ms, then ${changed.map((p) => `${describeValue(p.status)} at ${p.atMs} ms`).join(', ')}`
          : `${describeValue(terminalStatus)} at ${polls[terminalIndex]?.atMs} ms, and the same on ${laterPolls.length} later poll(s)`,
  );
}

/**
 * The extension: progress and log notifications are not supported on tasks. Any the server sent after it
 * answered with the task, for the call's token or as a log message, is a defect.
 */
function judgeNoNotificationsOnTask(t: TaskProbe, taskId: string, createdSeq: number): void {
  const onTask = t.run.recorder.events
    .slice(createdSeq)
    .filter(
      (e) =>
        e.kind === 'message' &&
        e.from === 'server' &&
        (e.message.method === 'notifications/message' ||
          (e.message.method === 'notifications/progress' &&
            isObject(e.message.params) &&
            e.message.params.progressToken === TASK_PROGRESS_TOKEN)),
    );
  const named = onTask
    .slice(0, 3)
    .map((e) => (e.kind === 'message' ? `${String(e.message.method)} at ${e.atMs} ms` : ''))
    .join(', ');
  t.push(
    'no progress or log notifications for a task',
    SX.noProgressOnTask,
    onTask.length > 0 ? 'broken' : 'holds',
    onTask.length > 0
      ? `after the CreateTaskResult for task ${taskId} the server sent ${onTask.length} notification(s) about it: ${named}${onTask.length > 3 ? ', …' : ''}`
      : `the call carried progressToken ${TASK_PROGRESS_TOKEN}; from the CreateTaskResult to the last poll the server sent no notifications/progress for it and no notifications/message`,
  );
}

/** 2025-11-25: a cancellation of a terminal task must be refused with -32602. */
async function cancelTerminalTask(t: TaskProbe, taskId: string, status: string): Promise<void> {
  const again = t.run.client.request('tasks/cancel', { taskId });
  const refused = await t.run.client.response(again, 'tasks/cancel');
  const code = isObject(refused?.error) ? refused.error.code : undefined;
  t.push(
    'a tasks/cancel of a terminal task is refused with -32602',
    S25.rejectTerminalCancel,
    code === -32602 ? 'holds' : 'broken',
    code === -32602
      ? `tasks/cancel #${again.id} of the ${status} task: error -32602`
      : `tasks/cancel #${again.id} of the ${status} task answered ${JSON.stringify(refused?.error ?? refused?.result ?? null).slice(0, 160)}`,
  );
}
