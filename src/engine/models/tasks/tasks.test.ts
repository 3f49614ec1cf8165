// Proves durable tasks (docs/requirements.md#durable-tasks-tk, TK-1 … TK-3, VF-12): the task is committed before it is returned, tasks/cancel is an empty acknowledgement that leaves the task working until a checkpoint observes it, the work may finish first, and a task outlives the connection that created it.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../../cli/sqlite';
import { findScenario, scenarios } from '../../../scenarios/index';
import { CORE_REQUEST_META_OVERRIDE, validateMessage, validateTranscriptMessages } from '../../../testing/mcpSchema';
import { tasksDraft, tasksDraftSource } from '../../../testing/tasksDraft';
import { runScenario, type TaskScenario } from '../../scenario';
import { LedgerFile, type SqlModule } from '../../core/sqlite';
import { parseFaults } from '../../core/faults';
import type { LabEvent, MessageEvent, Transcript } from '../../transcript';
import { eventLanes } from '../../lanes';

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

function run(id: string, settings: Record<string, unknown> = {}): Transcript<'task'> {
  const scenario = findScenario(id);
  if (scenario.kind !== 'task') throw new Error(`${id} is not a task scenario`);
  return runScenario(scenario, { settings, ledger: { sql } });
}

const messages = (t: Transcript) => t.events.filter((e): e is MessageEvent => e.kind === 'message');
const taskEvents = (t: Transcript) =>
  t.events.filter((e): e is Extract<LabEvent, { kind: 'task' }> => e.kind === 'task');

describe('every task scenario ends as declared, with schema-valid messages', () => {
  for (const scenario of scenarios.filter((s): s is TaskScenario => s.kind === 'task')) {
    it(scenario.id, () => {
      const t = run(scenario.id);
      expect({
        taskStatus: t.outcome.taskStatus,
        statusAfterAck: t.outcome.statusAfterAck,
        resultRetrieved: t.outcome.resultRetrieved,
      }).toEqual(scenario.expected);
      expect(validateTranscriptMessages(t).problems).toEqual([]);
      expect(JSON.stringify(run(scenario.id))).toBe(JSON.stringify(t));
    });
  }
});

describe('the task is durably created before the CreateTaskResult is sent', () => {
  it('COMMIT precedes the response that carries the task', () => {
    const t = run('task-cancel-ack');
    const commit = t.events.find((e) => e.kind === 'sql' && e.sql === 'COMMIT');
    const created = messages(t).find((m) => 'result' in m.message && m.message.result.resultType === 'task');
    expect(commit && created && commit.seq < created.seq).toBe(true);
    // The tasks extension's CreateTaskResult is Result & Task, flat: no nested `task` object.
    expect(created?.message).toMatchObject({
      result: { resultType: 'task', taskId: 'task-7f3a', status: 'working', ttlMs: 60_000, pollIntervalMs: 100 },
    });
    expect('task' in ((created?.message as { result: object } | undefined)?.result ?? {})).toBe(false);
  });

  it('the task-extension validator rejects a malformed task (so passing means something)', () => {
    expect(
      validateMessage('tasks#/$defs/CreateTaskResultResponse', {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'task', task: { taskId: 't', status: 'sleeping' } },
      }),
    ).not.toBeNull();
    const task = {
      taskId: 't',
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUpdatedAt: '2026-01-01T00:00:00.000Z',
      ttlMs: null,
    };
    expect(
      validateMessage('tasks#/$defs/CreateTaskResultResponse', {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'task', status: 'working', ...task },
      }),
    ).toBeNull();
    // The older nested shape is refused: the draft wants the task's fields beside resultType.
    expect(
      validateMessage('tasks#/$defs/CreateTaskResultResponse', {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'task', task: { ...task, status: 'working' } },
      }),
    ).toMatch(/taskId/);
    expect(
      validateMessage('tasks#/$defs/CreateTaskResultResponse', {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'complete', status: 'working', ...task },
      }),
    ).not.toBeNull();
    expect(
      validateMessage('tasks#/$defs/CreateTaskResultResponse', {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'task', status: 'working', ...task, ttlMs: 1.5 },
      }),
    ).not.toBeNull();
    // DetailedTask per status: completed needs result, failed needs error, input_required needs inputRequests.
    const get = (result: object) =>
      validateMessage('tasks#/$defs/GetTaskResultResponse', {
        jsonrpc: '2.0',
        id: 2,
        result: { resultType: 'complete', ...task, ...result },
      });
    expect(get({ status: 'completed' })).not.toBeNull();
    expect(get({ status: 'completed', result: { content: [] } })).toBeNull();
    expect(get({ status: 'failed' })).not.toBeNull();
    expect(get({ status: 'failed', error: { code: -32603, message: 'boom' } })).toBeNull();
    expect(get({ status: 'input_required' })).not.toBeNull();
    expect(get({ status: 'working' })).toBeNull();
    expect(
      validateMessage('tasks#/$defs/CancelTaskResultResponse', {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'complete' },
      }),
    ).toBeNull();
    expect(
      validateMessage('tasks#/$defs/CancelTaskResultResponse', {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'task' },
      }),
    ).not.toBeNull();
  });

  it('task requests follow the core where the draft differs: params._meta with the protocol version is required', () => {
    // The engine's own tasks/get, and the same request without its _meta.
    const withMeta = messages(run('task-cancel-ack')).find(
      (m) => 'method' in m.message && m.message.method === 'tasks/get',
    )?.message;
    expect(withMeta).toBeDefined();
    const bare = { jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { taskId: 't' } };
    // The draft alone accepts a request without _meta; the lab's definition adds the core's requirement.
    expect(validateMessage('tasks-draft#/$defs/GetTaskRequest', bare)).toBeNull();
    expect(validateMessage('tasks#/$defs/GetTaskRequest', bare)).toMatch(/_meta/);
    expect(validateMessage('tasks#/$defs/GetTaskRequest', withMeta)).toBeNull();
    expect(validateMessage('tasks#/$defs/CancelTaskRequest', { ...bare, method: 'tasks/cancel' })).toMatch(/_meta/);
    expect(validateMessage('tasks#/$defs/CancelTaskRequest', { ...withMeta, method: 'tasks/cancel' })).toBeNull();
    expect(CORE_REQUEST_META_OVERRIDE.properties.params.required).toEqual(['_meta']);
  });

  it('the draft the validator uses has the published definitions, and DetailedTask requires what each status carries', () => {
    // The published file when the shared folder holds it, else the restatement (tasksDraft.ts).
    console.info(`tasks draft: ${tasksDraftSource}`);
    if (tasksDraftSource === 'published')
      expect(tasksDraft.$id).toBe('https://modelcontextprotocol.io/ext-tasks/schema.json');
    expect(Object.keys(tasksDraft.$defs)).toEqual(
      expect.arrayContaining([
        'CreateTaskResult',
        'DetailedTask',
        'GetTaskResult',
        'CancelTaskResult',
        'GetTaskRequest',
        'CancelTaskRequest',
      ]),
    );
    const detailedTask = tasksDraft.$defs.DetailedTask as {
      anyOf: { properties: { status: { const: string } }; required: string[] }[];
    };
    const required = detailedTask.anyOf.map((v) => [v.properties.status.const, v.required.slice(5)]);
    expect(required).toEqual([
      ['working', []],
      ['input_required', ['inputRequests']],
      ['completed', ['result']],
      ['failed', ['error']],
      ['cancelled', []],
    ]);
  });
});

describe('TK-1 / VF-12 a tasks/cancel acknowledgement leaves the task non-terminal until the worker observes it', () => {
  it('the acknowledgement is empty and the next poll still says working', () => {
    const t = run('task-cancel-ack');
    const ack = messages(t).find(
      (m) =>
        m.from === 'server' &&
        'result' in m.message &&
        Object.keys(m.message.result).every((k) => k === 'resultType' || k === '_meta'),
    );
    expect(ack).toBeDefined();
    expect(t.outcome.cancelAcknowledged).toBe(true);
    expect(t.outcome.statusAfterAck).toBe('working');
    const acked = taskEvents(t).find((e) => e.action === 'cancel-acknowledged');
    const cancelled = taskEvents(t).find((e) => e.action === 'cancelled');
    expect(acked && cancelled && acked.atMs < cancelled.atMs).toBe(true);
    expect(acked?.status).toBe('working');
  });

  it('the work may finish before a checkpoint sees the flag: completed despite the acknowledgement', () => {
    const t = run('task-cancel-too-late');
    expect(t.outcome).toMatchObject({ cancelAcknowledged: true, taskStatus: 'completed', resultRetrieved: true });
  });
});

describe('TK-2 the client polls until a terminal status', () => {
  it('polls at pollIntervalMs and stops at the first terminal status', () => {
    const t = run('task-cancel-ack');
    const statuses = t.outcome.statusesSeen;
    expect(statuses.at(-1)).toBe('cancelled');
    expect(statuses.slice(0, -1).every((s) => s === 'working')).toBe(true);
    const polls = messages(t).filter((m) => 'method' in m.message && m.message.method === 'tasks/get');
    expect(polls).toHaveLength(t.outcome.polls);
    for (let i = 1; i < polls.length; i += 1)
      expect((polls[i]?.atMs ?? 0) - (polls[i - 1]?.atMs ?? 0)).toBe(100 + 2 * 5);
  });

  it('a task that never ends hits pollsMax with a clear error instead of polling forever', () => {
    expect(() => run('task-http-close', { workMs: 3_600_000, checkpointEveryMs: 3_600_000, pollsMax: 5 })).toThrow(
      /LAB006.*pollsMax=5/,
    );
  });
});

describe('TK-3 a task outlives the connection that created it', () => {
  it('after the creating stream closes, new requests find the task and its result', () => {
    const t = run('task-http-close');
    const closed = t.events.find((e) => e.kind === 'stream-closed');
    expect(closed).toMatchObject({ by: 'client', requestId: 1 });
    const later = messages(t)
      .filter((m) => m.from === 'client' && m.seq > (closed?.seq ?? 0))
      .map((m) => ('method' in m.message ? m.message.method : ''));
    expect(later).toContain('tasks/get');
    // The extension replaces tasks/result with polling: the completed tasks/get carries the result.
    expect(later).not.toContain('tasks/result');
    const completed = messages(t).filter(
      (m) =>
        m.from === 'server' &&
        'result' in m.message &&
        (m.message.result as { status?: string }).status === 'completed',
    );
    expect(completed.length).toBeGreaterThan(0);
    for (const m of completed)
      expect(
        ((m.message as { result: object }).result as { result?: { content?: unknown } }).result?.content,
      ).toBeDefined();
    expect(t.outcome).toMatchObject({ streamClosed: true, taskStatus: 'completed', resultRetrieved: true });
  });
});

// A crash fault: the server dies after COMMIT, before one response leaves, and restarts from its SQLite file.
describe('a crash after COMMIT: the task row survives, the worker resumes, the client retries what is safe', () => {
  function crashed(
    id: string,
    fault: (t: Transcript<'task'>) => MessageEvent,
  ): { plain: Transcript<'task'>; t: Transcript<'task'> } {
    const scenario = findScenario(id);
    const plain = run(id);
    const target = fault(plain);
    const t = runScenario(scenario, {
      ledger: { sql },
      faults: parseFaults(`crash:${target.seq}`),
    }) as Transcript<'task'>;
    expect(validateTranscriptMessages(t).problems).toEqual([]);
    expect(JSON.stringify(runScenario(scenario, { ledger: { sql }, faults: parseFaults(`crash:${target.seq}`) }))).toBe(
      JSON.stringify(t),
    );
    // Everything before the crashed response is the run without the fault.
    expect(JSON.stringify(t.events.filter((e) => e.seq < target.seq))).toBe(
      JSON.stringify(plain.events.filter((e) => e.seq < target.seq)),
    );
    return { plain, t };
  }
  const responseTo =
    (method: string, nth = 0) =>
    (t: Transcript<'task'>) => {
      const ids = messages(t)
        .filter((m) => m.from === 'client' && 'method' in m.message && m.message.method === method)
        .map((m) => ('id' in m.message ? m.message.id : null));
      const response = messages(t).find(
        (m) => m.from === 'server' && 'id' in m.message && m.message.id === ids[nth] && !('method' in m.message),
      );
      if (response === undefined) throw new Error(`no response to ${method} #${nth}`);
      return response;
    };
  const actions = (t: Transcript<'task'>) => taskEvents(t).map((e) => e.action);

  it('the CreateTaskResult lost: the task row was committed, survives the restart and a new worker completes it; the client, without a key or a taskId, does not retry', () => {
    const { t } = crashed('task-http-close', responseTo('tools/call'));
    expect(actions(t).slice(0, 4)).toEqual(['created', 'crashed', 'restarted', 'retry-skipped']);
    const restarted = taskEvents(t).find((e) => e.action === 'restarted');
    expect(restarted?.status).toBe('working');
    expect(restarted?.detail).toMatch(/survived, working; a new worker resumes it/);
    expect(taskEvents(t).find((e) => e.action === 'retry-skipped')?.detail).toMatch(/not retried \(RT-1\)/);
    expect(actions(t)).not.toContain('retried');
    // The crash and the restart are the server's; noticing the broken connection is the client's.
    const lanes = eventLanes(t.events);
    expect(
      taskEvents(t)
        .filter((e) => ['crashed', 'restarted', 'retry-skipped'].includes(e.action))
        .map((e) => lanes[e.seq]),
    ).toEqual(['server', 'server', 'client']);
    expect(t.outcome).toMatchObject({
      taskStatus: 'completed',
      polls: 0,
      statusesSeen: [],
      resultRetrieved: false,
      clientReported: null,
    });
    // No second tools/call: the unkeyed call is not repeated.
    expect(messages(t).filter((m) => 'method' in m.message && m.message.method === 'tools/call')).toHaveLength(1);
  });

  it('a tasks/get response lost: the client polls again with a new id; the work done before the crash is kept (last checkpoint)', () => {
    const { plain, t } = crashed('task-http-close', responseTo('tasks/get', 1));
    const crash = taskEvents(t).find((e) => e.action === 'crashed')!;
    const restarted = taskEvents(t).find((e) => e.action === 'restarted')!;
    // Checkpoints every 250 ms from 5 ms: by the crash at 425 ms, 250 ms of work were committed.
    expect(crash.atMs).toBe(425);
    expect(restarted.detail).toMatch(/resumes it from its last checkpoint \(250 ms of 1000 ms done\)/);
    const completed = taskEvents(t).find((e) => e.action === 'completed')!;
    expect(completed.atMs).toBe(425 + 750);
    expect(completed.atMs).toBeGreaterThan(taskEvents(plain).find((e) => e.action === 'completed')!.atMs);
    const retried = taskEvents(t).find((e) => e.action === 'retried')!;
    expect(retried.atMs).toBe(430);
    expect(retried.detail).toMatch(/tasks\/get is safe to repeat/);
    const gets = messages(t).filter(
      (m) => m.from === 'client' && 'method' in m.message && m.message.method === 'tasks/get',
    );
    expect(gets.some((m) => m.atMs === 430)).toBe(true);
    expect(t.outcome).toMatchObject({ taskStatus: 'completed', resultRetrieved: true, clientReported: 'completed' });
  });

  it('the tasks/cancel acknowledgement lost: the flag was committed and survives; the client sends tasks/cancel again and the task ends cancelled', () => {
    const { t } = crashed('task-cancel-ack', responseTo('tasks/cancel'));
    expect(taskEvents(t).find((e) => e.action === 'restarted')?.detail).toMatch(/its cancel flag set/);
    expect(
      messages(t).filter((m) => m.from === 'client' && 'method' in m.message && m.message.method === 'tasks/cancel'),
    ).toHaveLength(2);
    expect(t.outcome).toMatchObject({ taskStatus: 'cancelled', cancelAcknowledged: true, clientReported: 'cancelled' });
  });

  it('the completed tasks/get response lost: the stored result survives and the client polls again and gets it', () => {
    const completedGet = (of: Transcript<'task'>) =>
      messages(of).filter(
        (m) =>
          m.from === 'server' &&
          'result' in m.message &&
          (m.message.result as { status?: string }).status === 'completed',
      );
    const plain = run('task-cancel-too-late');
    const first = completedGet(plain)[0]!;
    const { t } = crashed('task-cancel-too-late', () => first);
    const results = completedGet(t);
    expect(results).toHaveLength(2);
    expect(results[0]!.lost).toBe(true);
    expect(results[1]!.lost).toBeUndefined();
    const body = (m: MessageEvent) =>
      JSON.stringify(((m.message as { result: object }).result as { result: object }).result);
    expect(body(results[1]!)).toBe(body(first));
    expect(taskEvents(t).find((e) => e.action === 'restarted')?.status).toBe('completed');
    expect(t.outcome).toMatchObject({ taskStatus: 'completed', resultRetrieved: true });
  });

  it('a crash on a client request is refused (LAB023): only a response is one the server crashes before sending', () => {
    const plain = run('task-http-close');
    const call = messages(plain).find((m) => m.from === 'client')!;
    expect(() =>
      runScenario(findScenario('task-http-close'), { ledger: { sql }, faults: parseFaults(`crash:${call.seq}`) }),
    ).toThrow(/LAB023/);
  });
});

describe('the tasks extension on a task-augmented request (every scenario, both transports, seeds 1-5)', () => {
  it('no notifications/progress or notifications/message for it, no notifications/cancelled for it, and its CreateTaskResult only after the task is committed', () => {
    let tasksSeen = 0;
    for (const scenario of scenarios) {
      for (const transport of ['stdio', 'http'] as const) {
        for (let seed = 1; seed <= 5; seed += 1) {
          const t = runScenario(scenario, { transport, seed, ledger: { sql } });
          const wire = messages(t);
          const created = wire.filter((m) => 'result' in m.message && m.message.result.resultType === 'task');
          if (created.length === 0) continue;
          tasksSeen += 1;
          const callIds = new Set<unknown>(created.map((m) => ('id' in m.message ? m.message.id : null)));
          const calls = wire.filter(
            (m) =>
              'method' in m.message &&
              m.message.method === 'tools/call' &&
              'id' in m.message &&
              callIds.has(m.message.id),
          );
          const tokens = new Set<unknown>(
            calls
              .map((m) =>
                'params' in m.message
                  ? (m.message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken
                  : undefined,
              )
              .filter((token) => token !== undefined),
          );
          const where = `${scenario.id} ${transport} seed ${seed}`;
          // Progress and log notifications are not supported on tasks; notifications/cancelled MUST NOT be used for a task.
          for (const m of wire.filter((e) => 'method' in e.message)) {
            const method = 'method' in m.message ? m.message.method : '';
            const params = ('params' in m.message ? m.message.params : undefined) as
              { progressToken?: unknown; requestId?: unknown } | undefined;
            expect(
              method === 'notifications/progress' && (tokens.has(params?.progressToken) || tokens.size === 0),
              `${where}: progress for the task-augmented call`,
            ).toBe(false);
            expect(method, where).not.toBe('notifications/message');
            expect(
              method === 'notifications/cancelled' && callIds.has(params?.requestId),
              `${where}: notifications/cancelled for the task`,
            ).toBe(false);
          }
          // Durable first: the task's row is committed before the CreateTaskResult is sent.
          const commit = t.events.find((e) => e.kind === 'sql' && e.sql === 'COMMIT');
          expect(commit !== undefined && commit.seq < (created[0]?.seq ?? -1), where).toBe(true);
        }
      }
    }
    expect(tasksSeen).toBeGreaterThanOrEqual(3 * 2 * 5);
  }, 120_000);
});

describe("a run's task id on a ledger that already holds tasks", () => {
  it('is the first free task-7f3a-N of exactly that spelling: other spellings and ids past a gap do not count', () => {
    const file = LedgerFile.open(sql, null);
    const connection = file.connect('setup');
    for (const id of ['task-7f3a', 'task-7f3a-2', 'TASK-7F3A-3', 'task-7f3a-4x', 'task-7f3a.3', 'task-7f3a-5']) {
      const inserted = connection.run(
        'INSERT INTO ledger.tasks (task_id, status, created_at_ms, last_updated_at_ms, ttl_ms, poll_interval_ms) VALUES (?, ?, 0, 0, 1, 1)',
        [id, 'completed'],
      );
      expect(inserted.ok).toBe(true);
    }
    const bytes = file.export();
    file.close();
    const transcript = runScenario(findScenario('task-cancel-ack'), { ledger: { sql, bytes } });
    expect(transcript.kind === 'task' && transcript.outcome.taskId).toBe('task-7f3a-3');
  });
});

describe("the explorer's description of a task run's state (Sim.exploreState)", () => {
  it("carries the task store's rows, which live in SQLite where the fields' walk cannot see them, and the worker's start its checkpoints count from", () => {
    const descriptions: string[] = [];
    let describe: (() => string) | null = null;
    const chooser = Object.assign(() => 0, {
      explorer: {
        arrival: (window: { earliestMs: number }) => window.earliestMs,
        observe: () => {},
        attach: () => {},
        state: (given: () => string) => {
          describe = given;
        },
        // Between two events: where the explorer reads a description.
        step: () => {
          if (describe !== null) descriptions.push(describe());
        },
      },
    });
    const scenario = findScenario('task-cancel-ack');
    runScenario(scenario, { settings: { latencyJitterMs: 20 }, ledger: { sql }, chooser, record: false });
    expect(descriptions.length).toBeGreaterThan(10);
    // Only the row knows the cancel flag: the fields never hold it.
    const flagged = descriptions.filter((text) => text.includes('"cancel_requested":1'));
    expect(flagged.length).toBeGreaterThan(0);
    expect(descriptions.some((text) => text.includes('"status":"cancelled"'))).toBe(true);
    expect(descriptions[0]).not.toContain('"cancel_requested":1');
    expect(descriptions.at(-1)).toContain('workerStartedAtMs:');
    // The end state is read after the run, its file closed (or recycled, emptied): the rows it closed with.
    expect((describe as unknown as () => string)()).toContain('"status":"cancelled"');
  });
});
