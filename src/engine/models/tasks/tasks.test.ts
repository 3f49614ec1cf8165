// Proves durable tasks (SPEC §4, TK-1 … TK-3, VF-12): the task is committed before it is returned, tasks/cancel is an empty acknowledgement that leaves the task working until a checkpoint observes it, the work may finish first, and a task outlives the connection that created it.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../../cli/sqlite';
import { findScenario, scenarios } from '../../../scenarios/index';
import { validateMessage, validateTranscriptMessages } from '../../../testing/mcpSchema';
import { runScenario, type TaskScenario } from '../../scenario';
import type { SqlModule } from '../../core/sqlite';
import type { LabEvent, MessageEvent, Transcript } from '../../transcript';

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
const taskEvents = (t: Transcript) => t.events.filter((e): e is Extract<LabEvent, { kind: 'task' }> => e.kind === 'task');

describe('every task scenario ends as declared, with schema-valid messages', () => {
  for (const scenario of scenarios.filter((s): s is TaskScenario => s.kind === 'task')) {
    it(scenario.id, () => {
      const t = run(scenario.id);
      expect({ taskStatus: t.outcome.taskStatus, statusAfterAck: t.outcome.statusAfterAck, resultRetrieved: t.outcome.resultRetrieved }).toEqual(scenario.expected);
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
    expect(created?.message).toMatchObject({ result: { resultType: 'task', task: { taskId: 'task-7f3a', status: 'working', ttlMs: 60_000, pollIntervalMs: 100 } } });
  });

  it('the task-extension validator rejects a malformed task (so passing means something)', () => {
    expect(validateMessage('tasks#/$defs/CreateTaskResultResponse', { jsonrpc: '2.0', id: 1, result: { resultType: 'task', task: { taskId: 't', status: 'sleeping' } } })).not.toBeNull();
    expect(validateMessage('tasks#/$defs/CancelTaskResultResponse', { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', status: 'cancelled' } })).not.toBeNull();
  });
});

describe('TK-1 / VF-12 a tasks/cancel acknowledgement leaves the task non-terminal until the worker observes it', () => {
  it('the acknowledgement is empty and the next poll still says working', () => {
    const t = run('task-cancel-ack');
    const ack = messages(t).find((m) => m.from === 'server' && 'result' in m.message && Object.keys(m.message.result).every((k) => k === 'resultType' || k === '_meta'));
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
    for (let i = 1; i < polls.length; i += 1) expect((polls[i]?.atMs ?? 0) - (polls[i - 1]?.atMs ?? 0)).toBe(100 + 2 * 5);
  });

  it('a task that never ends hits pollsMax with a clear error instead of polling forever', () => {
    expect(() => run('task-http-close', { workMs: 3_600_000, checkpointEveryMs: 3_600_000, pollsMax: 5 })).toThrow(/LAB006.*pollsMax=5/);
  });
});

describe('TK-3 a task outlives the connection that created it', () => {
  it('after the creating stream closes, new requests find the task and its result', () => {
    const t = run('task-http-close');
    const closed = t.events.find((e) => e.kind === 'stream-closed');
    expect(closed).toMatchObject({ by: 'client', requestId: 1 });
    const later = messages(t).filter((m) => m.from === 'client' && m.seq > (closed?.seq ?? 0)).map((m) => ('method' in m.message ? m.message.method : ''));
    expect(later).toContain('tasks/get');
    expect(later).toContain('tasks/result');
    expect(t.outcome).toMatchObject({ streamClosed: true, taskStatus: 'completed', resultRetrieved: true });
  });
});
