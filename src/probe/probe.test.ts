import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { buildProbeEvidence } from '../cli/probeEvidence';
import type { Verdict } from './probes';
import { ProbeFailure, runProbe, type ProbeOptions, type ProbeTranscript } from './run';
import { validateMessage } from '../testing/mcpSchema';
import { formatProbe, mustBroken, PROBE_EXIT_MUST_BROKEN } from '../cli/probeCommand';
import {
  BROKEN_SERVER,
  EXT_TASK_SERVER,
  SDK_SERVER,
  SDK_V2_SERVER,
  SERVER_EVERYTHING,
  TASK_SERVER,
  freePort,
  listeningOn,
  startHttpServer,
  startServerEverythingHttp,
  type StartedServer,
} from './testing/servers';

/**
 * The probe against real servers the tests start themselves, on 127.0.0.1 only: server-everything
 * (pinned, nobody here wrote it), a server on the official SDK whose tool honours its abort signal,
 * and the project's deliberately broken server, whose every planted defect must be flagged.
 * Short tool work (2 s in 4 steps) keeps each probe to a few seconds of mostly waiting.
 */
const WORK = { duration: 2, steps: 4 };
const TIMES = { cancelAfterMs: 700, observeMs: 1_600, idleTimeoutMs: 1_500, maxTimeoutMs: 10_000 };
const BOUNDS = { budgetMs: 40_000 };

const node = (file: string, ...args: string[]): string =>
  [process.execPath, file, ...args].map((w) => JSON.stringify(w)).join(' ');
const verdictOf = (t: ProbeTranscript, probe: string, check: string): Verdict => {
  const found = t.verdicts.find((v) => v.probe === probe && v.check === check);
  if (found === undefined)
    throw new Error(
      `no verdict ${probe}: ${check} among ${t.verdicts.map((v) => `${v.probe}: ${v.check}`).join('; ')}`,
    );
  return found;
};
const broken = (t: ProbeTranscript): string[] =>
  t.verdicts.filter((v) => v.result === 'broken').map((v) => `${v.probe}: ${v.check}`);
const probe = (
  options: Omit<ProbeOptions, 'times' | 'bounds'> & Partial<Pick<ProbeOptions, 'times' | 'bounds'>>,
): Promise<ProbeTranscript> => runProbe({ times: TIMES, bounds: BOUNDS, ...options });

const started: StartedServer[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});
async function start(server: Promise<StartedServer>): Promise<StartedServer> {
  const s = await server;
  started.push(s);
  return s;
}

/** Whether a process with this id still runs (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
const childPid = (events: ProbeTranscript['events']): number => {
  const note = events.find((e) => e.kind === 'note' && e.text.startsWith('started the server'));
  const match = note?.kind === 'note' ? /\(pid (\d+)\)/.exec(note.text) : null;
  if (match === null) throw new Error('no pid recorded');
  return Number(match[1]);
};

describe.concurrent('lab probe against real servers', () => {
  it('server-everything over stdio: negotiates 2025-11-25, and its progress after notifications/cancelled is flagged', async () => {
    const t = await probe({
      transport: 'stdio',
      target: node(SERVER_EVERYTHING, 'stdio'),
      tool: 'trigger-long-running-operation',
      arguments: WORK,
    });
    expect(t.implementation).toBe('probe');
    expect(t.server.name).toBe('mcp-servers/everything');
    expect(t.protocolVersion).toBe('2025-11-25');
    expect(t.negotiatedVia).toBe('initialize');
    expect(t.fallbackReason).toContain('server/discover');
    const stop = verdictOf(t, 'cancel-during-work', 'work stops after the cancellation');
    expect(stop.result).toBe('broken');
    expect(stop.detail).toMatch(/progress notification\(s\) for the cancelled request/);
    expect(stop.sentence).toMatchObject({ revision: '2025-11-25', level: 'SHOULD' });
    expect(verdictOf(t, 'cancel-during-work', 'no response after an accepted cancellation').result).toBe('holds');
    expect(verdictOf(t, 'progress-and-deadlines', 'progress strictly increases').result).toBe('holds');
    expect(verdictOf(t, 'complete-then-cancel', 'a late cancellation is ignored, not answered').result).toBe('holds');
    expect(broken(t)).toEqual(['cancel-during-work: work stops after the cancellation']);
    // A SHOULD not followed, not a MUST broken: it reads so, and it does not fail the run.
    expect(stop.finding).toBe('not followed');
    expect(mustBroken(t)).toBe(0);
    const text = formatProbe(t);
    expect(text).toMatch(/not followed \(SHOULD\) +cancel-during-work: work stops after the cancellation/);
    expect(text).not.toContain('BROKEN');
    // What it sent after the cancellation is printed: each late progress with its time, in the verdict and the timeline.
    expect(text).toMatch(
      /progress notification\(s\) for the cancelled request arrived .*: progress \d+\/4 at [\d.]+ ms/,
    );
    const cancelAt =
      t.events.find(
        (e) =>
          e.kind === 'message' && e.message.method === 'notifications/cancelled' && e.probe === 'cancel-during-work',
      )?.seq ?? Infinity;
    expect(
      t.events.some(
        (e) =>
          e.seq > cancelAt &&
          e.probe === 'cancel-during-work' &&
          e.kind === 'message' &&
          e.message.method === 'notifications/progress',
      ),
    ).toBe(true);
    // It offers tasks, but no --task-tool was named: the probe says so, names the task-capable tool, and runs none.
    expect(t.tasksOffered).toBe('2025-11-25');
    expect(t.tasks).toBeNull();
    expect(
      t.events.some(
        (e) =>
          e.kind === 'note' &&
          e.text.includes('name a tool with --task-tool') &&
          e.text.includes('simulate-research-query'),
      ),
    ).toBe(true);
    const missing = JSON.parse(buildProbeEvidence(t).find((f) => f.path === 'not-produced.json')?.contents ?? '[]') as {
      path: string;
      why: string;
    }[];
    expect(missing.find((m) => m.path === 'task-cancellation-trace.json')?.why).toContain('no --task-tool was named');
    expect(alive(childPid(t.events))).toBe(false);
  });

  it('server-everything over Streamable HTTP: real SSE with its headers, the cancellation POST answered 202, progress after it flagged', async () => {
    const server = await start(startServerEverythingHttp());
    const t = await probe({
      transport: 'http',
      target: server.url,
      tool: 'trigger-long-running-operation',
      arguments: WORK,
    });
    expect(t.protocolVersion).toBe('2025-11-25');
    const sse = t.events.filter(
      (e) => e.kind === 'http-response' && e.headers['content-type']?.startsWith('text/event-stream'),
    );
    expect(sse.length).toBeGreaterThan(3);
    expect(verdictOf(t, 'headers-and-quiet-stream', 'X-Accel-Buffering: no on SSE responses').result).toBe('holds');
    expect(verdictOf(t, 'headers-and-quiet-stream', 'Cache-Control: no-cache on SSE responses').result).toBe('holds');
    expect(verdictOf(t, 'cancel-during-work', 'the cancellation POST is accepted with 202 and no body').result).toBe(
      'holds',
    );
    expect(verdictOf(t, 'cancel-during-work', 'work stops after the cancellation')).toMatchObject({
      result: 'broken',
      finding: 'not followed',
    });
    // What it sent after the cancellation is printed, on its own stream (POST #n) with its time.
    const text = formatProbe(t);
    expect(text).toMatch(
      /progress notification\(s\) for the cancelled request arrived .*: progress \d+\/4 at [\d.]+ ms/,
    );
    expect(text).toMatch(/server → probe +POST #\d+ +notifications\/progress \d\/4 \(lab-probe-cancel-during-work\)/);
    expect(mustBroken(t)).toBe(0);
    expect(verdictOf(t, 'cancel-by-stream-close', 'a closed stream is (not) a cancellation').result).toBe(
      'not observable',
    );
    // Every POST after initialize carried the session and the revision's header.
    const headerNotes = t.events.filter(
      (e) => e.kind === 'note' && e.text.includes('request headers') && e.probe !== 'negotiate',
    );
    expect(headerNotes.length).toBeGreaterThan(4);
    for (const note of headerNotes)
      expect(note.kind === 'note' && note.text).toMatch(/Mcp-Session-Id: .*MCP-Protocol-Version: 2025-11-25/);
  });

  it('an SDK server whose tool honours its abort signal: nothing broken over stdio, and a cancelled call goes silent', async () => {
    const t = await probe({
      transport: 'stdio',
      target: node(SDK_SERVER, 'stdio'),
      tool: 'count-slowly',
      arguments: WORK,
    });
    expect(t.server).toEqual({ name: 'lab-sdk-server', version: '1.0.0' });
    expect(broken(t)).toEqual([]);
    expect(verdictOf(t, 'cancel-during-work', 'no response after an accepted cancellation').result).toBe('holds');
    // Silence is all a probe sees: whether the work stopped needs the server's cooperation.
    expect(verdictOf(t, 'cancel-during-work', 'work stops after the cancellation').result).toBe('not observable');
    expect(verdictOf(t, 'progress-and-deadlines', 'no progress after the final response').result).toBe('holds');
  });

  it('an SDK server over Streamable HTTP with keep-alive comments: they are seen on the quiet stream', async () => {
    const server = await start(startHttpServer([SDK_SERVER, 'http', '0', '300'], {}, listeningOn, '/mcp'));
    const t = await probe({ transport: 'http', target: server.url, tool: 'count-slowly', arguments: WORK });
    expect(broken(t)).toEqual([]);
    const keepAlive = verdictOf(
      t,
      'headers-and-quiet-stream',
      'keep-alive comments on a quiet stream within the idle window',
    );
    expect(keepAlive.result).toBe('holds');
    expect(t.events.some((e) => e.kind === 'sse-comment' && e.probe === 'headers-and-quiet-stream')).toBe(true);
  });

  it('the broken server over stdio (2026-07-28): the answer after an accepted cancellation, decreasing progress and the answered notification are each flagged', async () => {
    const t = await probe({
      transport: 'stdio',
      target: node(BROKEN_SERVER, 'stdio'),
      tool: 'slow-work',
      arguments: WORK,
    });
    expect(t.protocolVersion).toBe('2026-07-28');
    expect(t.negotiatedVia).toBe('server/discover');
    expect(verdictOf(t, 'cancel-during-work', 'no response after an accepted cancellation')).toMatchObject({
      result: 'broken',
      sentence: { revision: '2026-07-28', level: 'SHOULD' },
    });
    expect(verdictOf(t, 'progress-and-deadlines', 'progress strictly increases')).toMatchObject({
      result: 'broken',
      sentence: { level: 'MUST' },
    });
    expect(verdictOf(t, 'progress-and-deadlines', 'progress strictly increases').detail).toContain('1.5');
    expect(verdictOf(t, 'complete-then-cancel', 'a late cancellation is ignored, not answered').result).toBe('broken');
    expect(verdictOf(t, 'complete-then-cancel', 'nobody answers a cancellation notification')).toMatchObject({
      result: 'broken',
      finding: 'broken',
      sentence: { level: 'MUST NOT', page: 'basic/index' },
    });
    // The answer after the cancellation breaks a SHOULD; the decreasing progress and the answered notification break a MUST.
    expect(verdictOf(t, 'cancel-during-work', 'no response after an accepted cancellation').finding).toBe(
      'not followed',
    );
    expect(verdictOf(t, 'progress-and-deadlines', 'progress strictly increases').finding).toBe('broken');
    expect(t.stderr).toContain('accepted cancellation of');
    // Every message the probe sent on 2026-07-28 is a valid message of that revision's schema.
    const definitions: Record<string, string> = {
      'server/discover': 'DiscoverRequest',
      'tools/list': 'ListToolsRequest',
      'tools/call': 'CallToolRequest',
      'notifications/cancelled': 'CancelledNotification',
      'subscriptions/listen': 'SubscriptionsListenRequest',
    };
    const sent = t.events.flatMap((e) => (e.kind === 'message' && e.from === 'client' ? [e.message] : []));
    expect(sent.length).toBeGreaterThan(6);
    for (const message of sent) {
      expect(validateMessage('JSONRPCMessage', message)).toBeNull();
      const definition = definitions[String(message.method)];
      expect(definition, String(message.method)).toBeDefined();
      expect(validateMessage(definition as string, message)).toBeNull();
    }
  });

  it('the broken server over Streamable HTTP (2026-07-28): the missing X-Accel-Buffering is flagged and the probe sends the Mcp-* headers', async () => {
    const server = await start(startHttpServer([BROKEN_SERVER, 'http', '0'], {}, listeningOn, '/'));
    const t = await probe({ transport: 'http', target: server.url, tool: 'slow-work', arguments: WORK });
    expect(t.protocolVersion).toBe('2026-07-28');
    expect(verdictOf(t, 'headers-and-quiet-stream', 'X-Accel-Buffering: no on SSE responses').result).toBe('broken');
    expect(verdictOf(t, 'progress-and-deadlines', 'progress strictly increases').result).toBe('broken');
    // On 2026-07-28 the cancellation is the stream's close, and the probe says it cannot see past it.
    expect(verdictOf(t, 'cancel-during-work', 'nothing more for the request after its stream closed').result).toBe(
      'not observable',
    );
    expect(
      t.events.some((e) => e.kind === 'stream-closed' && e.by === 'client' && e.probe === 'cancel-during-work'),
    ).toBe(true);
    // What the server received, from its own log.
    expect(server.stderr()).toContain(
      'POST tools/call mcp-protocol-version=2026-07-28 mcp-method=tools/call mcp-name=slow-work',
    );
    expect(server.stderr()).toContain(
      'POST server/discover mcp-protocol-version=2026-07-28 mcp-method=server/discover',
    );
  });

  it('the broken server over Streamable HTTP (2025-11-25): the notification answered with 200 and a body, and the response after the cancellation, are flagged', async () => {
    const server = await start(
      startHttpServer([BROKEN_SERVER, 'http', '0', '--revision', '2025-11-25'], {}, listeningOn, '/'),
    );
    const t = await probe({ transport: 'http', target: server.url, tool: 'slow-work', arguments: WORK });
    expect(t.protocolVersion).toBe('2025-11-25');
    expect(verdictOf(t, 'cancel-during-work', 'the cancellation POST is accepted with 202 and no body').result).toBe(
      'broken',
    );
    expect(verdictOf(t, 'cancel-during-work', 'no response after an accepted cancellation').result).toBe('broken');
    expect(verdictOf(t, 'complete-then-cancel', 'a late cancellation is ignored, not answered').result).toBe('broken');
    expect(verdictOf(t, 'headers-and-quiet-stream', 'X-Accel-Buffering: no on SSE responses').result).toBe('broken');
  });
});

describe.concurrent('lab probe: the idempotency probe (--mutation)', () => {
  const mutation = { name: 'reserve', arguments: { item: 'widget', quantity: 2 }, keyField: 'idempotencyKey' };

  it('an SDK server with a real ledger: the replay returns the stored result, changed arguments are refused, two at once see one result', async () => {
    const t = await probe({ transport: 'stdio', target: node(SDK_SERVER, 'stdio'), arguments: {}, mutation });
    expect(t.tool).toBeNull();
    expect(t.probes).toEqual(['idempotency']);
    expect(verdictOf(t, 'idempotency', 'same key, same arguments: the stored result').result).toBe('holds');
    expect(verdictOf(t, 'idempotency', 'same key, changed arguments: refused').result).toBe('holds');
    expect(verdictOf(t, 'idempotency', 'two calls at once with one key: one result').result).toBe('holds');
    // The mismatch call changed the one number in the arguments and kept the key.
    const changed = t.idempotency?.calls.find((c) => c.call === 'changed-arguments');
    expect(changed?.arguments).toEqual({ item: 'widget', quantity: 3, idempotencyKey: t.idempotency?.key });
    const files = buildProbeEvidence(t).map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining(['idempotency-key-record.json', 'key-mismatch-fixture.json', 'concurrent-same-key.json']),
    );
  });

  it('the broken server, whose mutation ignores the key: every idempotency defect is flagged, and the notification before its first listen acknowledgement', async () => {
    const t = await probe({ transport: 'stdio', target: node(BROKEN_SERVER, 'stdio'), arguments: {}, mutation });
    expect(broken(t)).toEqual([
      'idempotency: same key, same arguments: the stored result',
      'idempotency: same key, changed arguments: refused',
      'idempotency: two calls at once with one key: one result',
      'reconnect: the first listen is acknowledged first',
    ]);
    // Its second listen is acknowledged first: the probe flags the defect, not the server as a whole.
    expect(verdictOf(t, 'reconnect', 'the second listen is acknowledged first').result).toBe('holds');
    expect(t.reconnectPlan).toMatchObject({ sendLastEventId: false, refetched: ['tools/list'] });
    expect(t.reconnectPlan?.secondListenId).not.toBe(t.reconnectPlan?.firstListenId);
  });
});

describe.concurrent('lab probe: the tasks probe (--task-tool)', () => {
  const taskTimes = { ...TIMES, cancelAfterMs: 500 };
  const holdsAll = (t: ProbeTranscript): void => {
    const tasks = t.verdicts.filter((v) => v.probe === 'tasks');
    expect(tasks.filter((v) => v.result === 'broken')).toEqual([]);
    expect(
      verdictOf(t, 'tasks', 'the tasks/cancel acknowledgement is not the end: polled to a terminal status').result,
    ).toBe('holds');
    expect(verdictOf(t, 'tasks', 'a terminal status never changes').result).toBe('holds');
    // Whether the worker stopped is the server's to say: never claimed from the status alone.
    expect(verdictOf(t, 'tasks', 'the work stops after tasks/cancel').result).toBe('not observable');
  };

  it('an honest tasks-extension server over stdio: the acknowledgement is empty, the task stays working past it, the probe polls on to cancelled', async () => {
    // The worker's first checkpoint is 2 s after the task starts and the cancel 0.5 s: the poll right after the acknowledgement has 1.5 s to see working.
    const t = await probe({
      transport: 'stdio',
      target: node(TASK_SERVER, 'stdio'),
      arguments: {},
      taskTool: { name: 'export-report', arguments: { duration: 5, checkpointMs: 2_000 } },
      times: taskTimes,
    });
    expect(t.tasksOffered).toBe('extension');
    expect(t.probes).toContain('tasks');
    holdsAll(t);
    expect(verdictOf(t, 'tasks', 'tasks/cancel is acknowledged with an empty result')).toMatchObject({
      result: 'holds',
      sentence: { level: 'MUST', revision: '2026-07-28' },
    });
    expect(verdictOf(t, 'tasks', 'the task exists when CreateTaskResult arrives').result).toBe('holds');
    const trace = t.tasks;
    expect(trace?.acknowledgement).toMatchObject({ result: { resultType: 'complete' } });
    // The acknowledgement was not the end: the first poll after it still said working, a later one cancelled.
    const afterAck = trace?.polls.filter((p) => p.afterAck).map((p) => p.status) ?? [];
    expect(afterAck[0]).toBe('working');
    expect(trace?.terminal?.status).toBe('cancelled');
    expect(afterAck.slice(-3)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(mustBroken(t)).toBe(0);
    // Every message the probe sent is valid 2026-07-28 (the task requests by the extension's schema), and no notifications/cancelled is used for a task.
    const definitions: Record<string, string> = {
      'server/discover': 'DiscoverRequest',
      'tools/list': 'ListToolsRequest',
      'tools/call': 'CallToolRequest',
      'tasks/get': 'tasks#/$defs/GetTaskRequest',
      'tasks/cancel': 'tasks#/$defs/CancelTaskRequest',
      'subscriptions/listen': 'SubscriptionsListenRequest',
      'notifications/cancelled': 'CancelledNotification',
    };
    const taskMessages = t.events.flatMap((e) =>
      e.kind === 'message' && e.from === 'client' && e.probe === 'tasks' ? [e.message] : [],
    );
    expect(taskMessages.map((m) => m.method)).not.toContain('notifications/cancelled');
    for (const message of t.events.flatMap((e) => (e.kind === 'message' && e.from === 'client' ? [e.message] : []))) {
      expect(validateMessage('JSONRPCMessage', message)).toBeNull();
      expect(
        validateMessage(definitions[String(message.method)] as string, message),
        String(message.method),
      ).toBeNull();
    }
    // The server's answers about the task are the extension's shapes.
    const answers = t.events.filter((e) => e.kind === 'message' && e.from === 'server' && e.probe === 'tasks');
    const methodOf = new Map(taskMessages.map((m) => [m.id, String(m.method)]));
    for (const e of answers)
      if (e.kind === 'message' && methodOf.get(e.message.id) === 'tasks/get')
        expect(validateMessage('tasks#/$defs/GetTaskResultResponse', e.message)).toBeNull();
  });

  it('an honest tasks-extension server over Streamable HTTP: the task requests carry Mcp-Name with the taskId', async () => {
    const server = await start(startHttpServer([TASK_SERVER, 'http', '0'], {}, listeningOn, '/'));
    const t = await probe({
      transport: 'http',
      target: server.url,
      arguments: {},
      taskTool: { name: 'export-report', arguments: { duration: 3 } },
      times: taskTimes,
    });
    holdsAll(t);
    const taskId = t.tasks?.taskId;
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.stderr()).toContain(`POST tasks/cancel mcp-method=tasks/cancel mcp-name=${String(taskId)}`);
    expect(server.stderr()).toContain(`POST tasks/get mcp-method=tasks/get mcp-name=${String(taskId)}`);
  });

  it('a server built on @modelcontextprotocol/ext-tasks over stdio: its task holds every extension check, no progress or log notification for it', async () => {
    const t = await probe({
      transport: 'stdio',
      target: node(EXT_TASK_SERVER),
      arguments: {},
      taskTool: { name: 'export-report', arguments: { duration: 3, checkpointMs: 1_500 } },
      times: taskTimes,
    });
    expect(t.tasksOffered).toBe('extension');
    holdsAll(t);
    expect(verdictOf(t, 'tasks', 'no progress or log notifications for a task')).toMatchObject({
      result: 'holds',
      sentence: { level: 'MUST NOT', revision: '2026-07-28' },
    });
    // The call declared a progress token, so a server that sends progress for the task could.
    const call = t.events.find(
      (e) => e.kind === 'message' && e.from === 'client' && e.message.method === 'tools/call' && e.probe === 'tasks',
    );
    expect(call?.kind === 'message' && call.message.params).toMatchObject({ _meta: { progressToken: 'probe-task' } });
    expect(verdictOf(t, 'tasks', 'the task exists when CreateTaskResult arrives').result).toBe('holds');
    expect(t.tasks?.terminal?.status).toBe('cancelled');
  });

  it('the same server sending progress and log notifications while its task works: the probe reports the MUST NOT broken', async () => {
    const t = await probe({
      transport: 'stdio',
      target: node(EXT_TASK_SERVER, '--progress-on-task'),
      arguments: {},
      taskTool: { name: 'export-report', arguments: { duration: 3, checkpointMs: 200 } },
      times: taskTimes,
    });
    const verdict = verdictOf(t, 'tasks', 'no progress or log notifications for a task');
    expect(verdict.result).toBe('broken');
    expect(verdict.detail).toContain('notifications/progress');
    expect(verdict.detail).toContain('notifications/message');
    expect(mustBroken(t)).toBeGreaterThan(0);
  });

  it('server-everything offers 2025-11-25 tasks: simulate-research-query is cancelled, answered cancelled, stays cancelled, and a second cancel is refused', async () => {
    const t = await probe({
      transport: 'stdio',
      target: node(SERVER_EVERYTHING, 'stdio'),
      arguments: {},
      taskTool: { name: 'simulate-research-query', arguments: { topic: 'probe' } },
      times: taskTimes,
    });
    expect(t.tasksOffered).toBe('2025-11-25');
    holdsAll(t);
    expect(verdictOf(t, 'tasks', 'a task begins working').result).toBe('holds');
    expect(verdictOf(t, 'tasks', 'tasks/cancel answers with the task already cancelled').result).toBe('holds');
    expect(verdictOf(t, 'tasks', 'a cancelled task stays cancelled').result).toBe('holds');
    expect(verdictOf(t, 'tasks', 'a tasks/cancel of a terminal task is refused with -32602').result).toBe('holds');
    const call = t.events.find(
      (e) => e.kind === 'message' && e.from === 'client' && e.message.method === 'tools/call' && e.probe === 'tasks',
    );
    expect(call?.kind === 'message' && call.message.params).toMatchObject({
      name: 'simulate-research-query',
      task: { ttl: 60000 },
    });
  });
});

describe.concurrent('lab probe: reconnect against the official SDK v2 server (2026-07-28)', () => {
  for (const transport of ['stdio', 'http'] as const) {
    it(`over ${transport}: negotiates 2026-07-28, each listen is acknowledged first, the second with a new id`, async () => {
      const target =
        transport === 'stdio'
          ? node(SDK_V2_SERVER, 'stdio')
          : (await start(startHttpServer([SDK_V2_SERVER, 'http', '0'], {}, listeningOn, '/mcp'))).url;
      const t = await probe({ transport, target, arguments: {} });
      expect(t.server).toEqual({ name: 'lab-sdk-v2-server', version: '1.0.0' });
      expect(t.protocolVersion).toBe('2026-07-28');
      expect(t.negotiatedVia).toBe('server/discover');
      expect(t.probes).toEqual(['reconnect']);
      expect(verdictOf(t, 'reconnect', 'the first listen is acknowledged first').result).toBe('holds');
      expect(verdictOf(t, 'reconnect', 'the second listen is acknowledged first').result).toBe('holds');
      expect(t.reconnectPlan).toMatchObject({ sendLastEventId: false, refetched: ['tools/list'] });
      expect(t.reconnectPlan?.secondListenId).not.toBe(t.reconnectPlan?.firstListenId);
      if (transport === 'http') {
        // The first listen's stream was dropped by the probe, then a new POST listened again.
        expect(
          t.events.some(
            (e) =>
              e.kind === 'stream-closed' && e.by === 'client' && e.probe === 'reconnect' && e.reason.includes('drop'),
          ),
        ).toBe(true);
        expect(t.events.some((e) => e.kind === 'note' && /last-event-id/i.test(e.text))).toBe(false);
      }
    });
  }
});

/** Runs a probe expected to fail and returns its LAB error code and message. */
async function failure(options: ProbeOptions): Promise<ProbeFailure> {
  try {
    await runProbe(options);
  } catch (error) {
    if (error instanceof ProbeFailure) return error;
    throw error;
  }
  throw new Error('the probe did not fail');
}
// Generous answer and startup bounds: on a loaded machine a node child alone can take seconds to start,
// and only the silent-server test is about those bounds (it sets its own).
const quick = {
  times: { cancelAfterMs: 100, observeMs: 100, idleTimeoutMs: 500, maxTimeoutMs: 2_000 },
  bounds: { budgetMs: 30_000, answerTimeoutMs: 15_000, startupTimeoutMs: 15_000 },
};

describe.concurrent('lab probe: bad input ends in a catalogued LAB error and nothing outlives it', () => {
  it('an unreachable URL is LAB040', async () => {
    const port = await freePort();
    const f = await failure({
      ...quick,
      transport: 'http',
      target: `http://127.0.0.1:${port}/mcp`,
      tool: 'x',
      arguments: {},
    });
    expect(f.error.code).toBe('LAB040');
    expect(f.error.message).toContain('ECONNREFUSED');
  });

  it('a command that cannot start, and one that exits, are LAB041 with the stderr shown', async () => {
    const missing = await failure({
      ...quick,
      transport: 'stdio',
      target: 'no-such-mcp-server-command --stdio',
      tool: 'x',
      arguments: {},
    });
    expect(missing.error.code).toBe('LAB041');
    expect(missing.error.message).toContain('ENOENT');
    const exits = await failure({
      ...quick,
      transport: 'stdio',
      target: `${JSON.stringify(process.execPath)} -e "console.error('no config file'); process.exit(3)"`,
      tool: 'x',
      arguments: {},
    });
    expect(exits.error.code).toBe('LAB041');
    expect(exits.error.message).toContain('exit code 3');
    expect(exits.stderr).toContain('no config file');
  });

  it('a server that never answers is LAB042, and its process is ended', async () => {
    const f = await failure({
      ...quick,
      bounds: { ...quick.bounds, answerTimeoutMs: 1_500, startupTimeoutMs: 1_500 },
      transport: 'stdio',
      target: `${JSON.stringify(process.execPath)} -e "setInterval(() => {}, 1000)"`,
      tool: 'x',
      arguments: {},
    });
    expect(f.error.code).toBe('LAB042');
    expect(f.error.message).toContain('server/discover');
    expect(alive(childPid(f.events))).toBe(false);
  });

  it('an HTTP endpoint that is not MCP is LAB043', async () => {
    const http = createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>hello</html>'),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const address = http.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const f = await failure({
        ...quick,
        transport: 'http',
        target: `http://127.0.0.1:${port}/`,
        tool: 'x',
        arguments: {},
      });
      expect(f.error.code).toBe('LAB043');
      expect(f.error.message).toContain('text/html');
    } finally {
      http.close();
    }
  });

  it('a server that writes something other than JSON is LAB044', async () => {
    const f = await failure({
      ...quick,
      transport: 'stdio',
      target: `${JSON.stringify(process.execPath)} -e "process.stdin.once('data', () => console.log('Server ready!')); setInterval(() => {}, 1000)"`,
      tool: 'x',
      arguments: {},
    });
    expect(f.error.code).toBe('LAB044');
    expect(f.error.message).toContain('Server ready!');
  });

  it('a flooding server is stopped by the message bound with LAB045', async () => {
    // No double quote or backslash in the code: it travels as one quoted word of the command line.
    const flood = `process.stdin.once('data', () => { const line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }) + String.fromCharCode(10); const spam = () => { while (process.stdout.write(line)); process.stdout.once('drain', spam); }; spam(); })`;
    const f = await failure({
      ...quick,
      bounds: { ...quick.bounds, messagesMax: 500 },
      transport: 'stdio',
      target: `${JSON.stringify(process.execPath)} -e ${JSON.stringify(flood)}`,
      tool: 'x',
      arguments: {},
    });
    expect(f.error.code).toBe('LAB045');
    expect(f.error.message).toContain('more than 500 messages');
    expect(alive(childPid(f.events))).toBe(false);
  });

  it('an unknown tool is LAB046, naming the tools the server has', async () => {
    const f = await failure({
      ...quick,
      transport: 'stdio',
      target: node(BROKEN_SERVER, 'stdio'),
      tool: 'no-such-tool',
      arguments: {},
    });
    expect(f.error.code).toBe('LAB046');
    expect(f.error.message).toContain('slow-work');
  });
});

describe('lab probe on the command line', () => {
  it('--json prints the transcript and --evidence writes the artifacts, marking those it could not produce', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-probe-'));
    const out: string[] = [];
    const err: string[] = [];
    try {
      const code = await main(
        [
          'probe',
          '--stdio',
          node(BROKEN_SERVER, 'stdio'),
          '--tool',
          'slow-work',
          '--args',
          JSON.stringify(WORK),
          '--mutation',
          'reserve',
          '--mutation-args',
          '{"item":"widget","quantity":2}',
          '--task-tool',
          'slow-export',
          '--cancel-after-ms',
          '700',
          '--observe-ms',
          '1600',
          '--idle-ms',
          '1500',
          '--json',
          '--evidence',
          join(dir, 'evidence'),
        ],
        { out: (t) => out.push(t), err: (t) => err.push(t) },
      );
      // The broken server breaks MUSTs (decreasing progress, an answered notification, its task's status): exit 3.
      expect(code).toBe(PROBE_EXIT_MUST_BROKEN);
      const transcript = JSON.parse(out.join('')) as ProbeTranscript;
      expect(transcript).toMatchObject({
        implementation: 'probe',
        transport: 'stdio',
        server: { name: 'lab-broken-server' },
        protocolVersion: '2026-07-28',
      });
      const sent = transcript.events.filter((e) => e.kind === 'message' && e.from === 'client');
      expect(sent.map((e) => (e.kind === 'message' ? e.message.method : null))).toContain('notifications/cancelled');
      const files = readdirSync(join(dir, 'evidence')).sort();
      expect(files).toEqual([
        'README.md',
        'cancellation-race-stdio.json',
        'concurrent-same-key.json',
        'idempotency-key-record.json',
        'key-mismatch-fixture.json',
        'not-produced.json',
        'progress-and-deadlines.json',
        'reconnect-plan.json',
        'task-cancellation-trace.json',
        'verdicts.json',
      ]);
      const missing = JSON.parse(readFileSync(join(dir, 'evidence', 'not-produced.json'), 'utf8')) as {
        path: string;
        why: string;
      }[];
      // Every capstone artifact is either written about this server or marked with the reason it is not.
      const capstone = [
        'cancellation-race-stdio.json',
        'cancellation-race-http.json',
        'retry-table.json',
        'idempotency-key-record.json',
        'key-mismatch-fixture.json',
        'concurrent-same-key.json',
        'reopen-check.json',
        'alias-check.json',
        'buffer-overload.json',
        'sse-headers-and-idle-policy.json',
        'reconnect-plan.json',
        'task-cancellation-trace.json',
      ];
      for (const path of capstone)
        expect(files.includes(path) !== missing.some((m) => m.path === path && m.why.length > 20), path).toBe(true);
      const trace = JSON.parse(readFileSync(join(dir, 'evidence', 'task-cancellation-trace.json'), 'utf8')) as {
        trace: { acknowledgement: unknown; polls: unknown[] };
        verdicts: Verdict[];
      };
      expect(trace.trace.acknowledgement).toMatchObject({ result: { status: 'cancelled' } });
      expect(trace.trace.polls.length).toBeGreaterThan(2);
      expect(trace.verdicts.filter((v) => v.finding === 'broken').map((v) => v.check)).toEqual([
        'tasks/cancel is acknowledged with an empty result',
        'a terminal status never changes',
      ]);
      expect(readFileSync(join(dir, 'evidence', 'README.md'), 'utf8')).toContain(
        '[ ] BROKEN (MUST NOT) **tasks: a terminal status never changes**',
      );
      expect(missing.find((m) => m.path === 'cancellation-race-http.json')?.why).toContain('--http');
      expect(missing.find((m) => m.path === 'sse-headers-and-idle-policy.json')?.why).toContain(
        'stdio has no HTTP headers',
      );
      expect(err.join('')).toContain('cancellation-race-stdio.json');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad --args is LAB047 before anything starts', async () => {
    const err: string[] = [];
    const code = await main(['probe', '--stdio', 'node x.js', '--tool', 't', '--args', '{not json'], {
      out: () => {},
      err: (t) => err.push(t),
    });
    expect(code).toBe(1);
    expect(err.join('')).toContain('LAB047');
    expect(err.join('')).toContain('--args is not JSON');
  });
});
