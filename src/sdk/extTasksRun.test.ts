// Proves the ext-tasks implementation is the tasks extension's own package, pinned and installed, running
// the lab's task scenarios on the virtual clock: every message validates against the 2026-07-28 schema and
// the extension's definitions, runs replay byte for byte, the Mcp-Name routing header on tasks/* is the
// package's own, no notifications/cancelled or progress is used for the task, and docs/ext-tasks.md lists
// exactly the outcome differences from the model that the runs show.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { runScenario, type MessageEvent, type SqlModule, type TaskScenario, type Transcript } from '../engine';
import { resolveRunParams } from '../runs/runSpec';
import { findScenario, scenarios } from '../scenarios/index';
import { validateTranscriptMessages } from '../testing/mcpSchema';
import { runExtTasksScenario } from './extTasksRun';
import { runResolved } from '../runs/runs';
import { EXT_TASKS_PACKAGE, EXT_TASKS_VERSION } from './version';

const TASK_SCENARIOS = scenarios.filter((s): s is TaskScenario => s.kind === 'task');
const messages = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.kind === 'message');
const method = (m: MessageEvent): string => ('method' in m.message ? m.message.method : 'response');

let sql: SqlModule;
beforeAll(async () => {
  sql = await loadSqlJs();
});

describe('the ext-tasks package that runs is the one pinned', () => {
  it('package.json pins it exactly and that version is installed', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies[EXT_TASKS_PACKAGE]).toBe(EXT_TASKS_VERSION);
    const installed = JSON.parse(readFileSync(`node_modules/${EXT_TASKS_PACKAGE}/package.json`, 'utf8')) as {
      version: string;
    };
    expect(installed.version).toBe(EXT_TASKS_VERSION);
  });
});

describe('an ext-tasks run of each task scenario, on both transports', () => {
  for (const scenario of TASK_SCENARIOS) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`${scenario.id} over ${transport}: valid messages, a task polled with tasks/get, no notifications/cancelled or progress, replayable`, async () => {
        const t = await runExtTasksScenario(scenario, { transport });
        expect(t.implementation).toBe('ext-tasks');
        expect(t.sdk).toMatchObject({
          package: EXT_TASKS_PACKAGE,
          version: EXT_TASKS_VERSION,
          negotiatedProtocolVersion: '2026-07-28',
        });
        const { checked, problems } = validateTranscriptMessages(t);
        expect(problems).toEqual([]);
        expect(checked).toBeGreaterThan(4);
        const wire = messages(t);
        expect(wire[0] && method(wire[0])).toBe('tools/call');
        expect(wire.filter((m) => m.from === 'client').map(method)).toContain('tasks/get');
        // The extension: notifications/cancelled MUST NOT be used for a task; progress and log notifications are not supported on tasks.
        expect(
          wire
            .map(method)
            .filter(
              (m) => m === 'notifications/cancelled' || m === 'notifications/progress' || m === 'notifications/message',
            ),
        ).toEqual([]);
        expect(JSON.stringify(await runExtTasksScenario(scenario, { transport }))).toBe(JSON.stringify(t));
      });
    }
  }
});

describe('what the package puts on the wire', () => {
  it('over Streamable HTTP every tasks/get and tasks/cancel carries Mcp-Name: <taskId>, asked for by the package (the lane adds none to tasks/*)', async () => {
    const t = await runExtTasksScenario(findTask('task-cancel-ack'), { transport: 'http' });
    const byTask = messages(t).filter((m) => m.from === 'client' && method(m).startsWith('tasks/'));
    expect(byTask.map(method)).toContain('tasks/cancel');
    for (const m of byTask) expect(m.headers?.['Mcp-Name'], method(m)).toBe(t.outcome.taskId);
    expect(t.sdk?.postHeaders?.length).toBe(messages(t).filter((m) => m.from === 'client').length);
  });

  it('frames every request with the protocol version, the client info and the extension in the client capabilities', async () => {
    const t = await runExtTasksScenario(findTask('task-http-close'), { transport: 'stdio' });
    for (const m of messages(t).filter((e) => e.from === 'client')) {
      expect('params' in m.message && m.message.params?._meta, method(m)).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      });
    }
  });

  it('ends the execution as cancelled at the tasks/cancel acknowledgement: no poll after it, while the task goes on to complete', async () => {
    const t = await runExtTasksScenario(findTask('task-cancel-too-late'), { transport: 'http' });
    const wire = messages(t);
    const ack = wire.find(
      (m) =>
        m.from === 'server' &&
        wire.some(
          (c) =>
            c.from === 'client' &&
            method(c) === 'tasks/cancel' &&
            'id' in c.message &&
            'id' in m.message &&
            c.message.id === m.message.id,
        ),
    );
    expect(ack).toBeDefined();
    expect(wire.filter((m) => m.from === 'client' && m.seq > (ack?.seq ?? 0))).toEqual([]);
    expect(t.outcome).toMatchObject({
      taskStatus: 'completed',
      clientReported: 'cancelled',
      resultRetrieved: false,
      statusAfterAck: null,
    });
    const report = t.events.find((e) => e.kind === 'task' && e.action === 'reported');
    expect(report?.kind === 'task' && report.atMs).toBe(ack?.arrivesAtMs);
  });

  it('is the model with ackIsFinal=true, on every task scenario and transport: the same outcome', async () => {
    for (const scenario of TASK_SCENARIOS) {
      for (const transport of ['stdio', 'http'] as const) {
        const model = runScenario(scenario, { transport, settings: { ackIsFinal: true }, ledger: { sql } });
        const lane = await runExtTasksScenario(scenario, { transport });
        expect(lane.outcome, `${scenario.id} over ${transport}`).toEqual(model.outcome);
      }
    }
  });
});

describe('docs/ext-tasks.md: every difference from the model', () => {
  it('its table lists exactly the outcome fields that differ, with both values, on both transports', async () => {
    const found = new Set<string>();
    for (const scenario of TASK_SCENARIOS) {
      for (const transport of ['stdio', 'http'] as const) {
        const model = runScenario(scenario, { transport, ledger: { sql } });
        const lane = await runExtTasksScenario(scenario, { transport });
        for (const [field, value] of Object.entries(model.outcome)) {
          const other: unknown = (lane.outcome as unknown as Record<string, unknown>)[field];
          if (JSON.stringify(value) !== JSON.stringify(other))
            found.add(`${scenario.id} | ${field} | \`${JSON.stringify(value)}\` | \`${JSON.stringify(other)}\``);
        }
      }
    }
    const doc = readFileSync('docs/ext-tasks.md', 'utf8');
    const listed = new Set(
      [...doc.matchAll(/^\| (task-[\w-]+ \| \w+ \| `[^`]*` \| `[^`]*`) \| [^|]+ \|$/gm)].map((m) => m[1] as string),
    );
    expect([...listed].sort()).toEqual([...found].sort());
    expect(found.size).toBeGreaterThan(0);
  });
});

describe('the run description', () => {
  it('runs ext-tasks on a task scenario, and refuses it on a request race and with ackIsFinal (LAB025)', async () => {
    const t = await runResolved(
      resolveRunParams({ scenario: 'task-http-close', impl: 'ext-tasks', transport: 'stdio' }, findScenario),
    );
    expect(t.implementation).toBe('ext-tasks');
    expect(() => resolveRunParams({ scenario: 'A', impl: 'ext-tasks' }, findScenario)).toThrow(
      /LAB025|ext-tasks runs the durable-task scenarios/,
    );
    expect(() => resolveRunParams({ scenario: 'task-cancel-ack', impl: 'ts-sdk-v2' }, findScenario)).toThrow(
      /request races/,
    );
    expect(() =>
      resolveRunParams({ scenario: 'task-cancel-ack', impl: 'ext-tasks', ackIsFinal: 'true' }, findScenario),
    ).toThrow(/ackIsFinal cannot be set with ext-tasks/);
  });
});

function findTask(id: string): TaskScenario {
  const scenario = findScenario(id);
  if (scenario.kind !== 'task') throw new Error(`${id} is not a task scenario`);
  return scenario;
}
