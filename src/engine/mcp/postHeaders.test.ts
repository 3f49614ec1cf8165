// Every POST of every scenario on Streamable HTTP carries the request headers 2026-07-28 requires
// (basic/transports/streamable-http, Sending Messages and Request Metadata): Accept listing both
// application/json and text/event-stream, Content-Type: application/json, MCP-Protocol-Version
// matching the body's `_meta`, Mcp-Method mirroring `method`, and Mcp-Name mirroring `params.name` /
// `params.uri` on tools/call, resources/read and prompts/get, and the tasks extension's routing rule:
// `Mcp-Name` is `params.taskId` on tasks/get, tasks/update and tasks/cancel ("When `tasks/get`,
// `tasks/update`, or `tasks/cancel` is sent over the Streamable HTTP transport, the client **MUST** set
// the `Mcp-Name` header to the value of `params.taskId`"). The rule is written out here, apart
// from the code that builds the headers, so that the two check each other.
import { expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { scenarios } from '../../scenarios/index';
import { runScenario, usesSqlite, type LabEvent } from '../index';

const SEEDS_MAX = 20;

function header(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}

/** What is wrong with one POST's headers, or null. */
function postProblem(message: Record<string, unknown>, headers: Record<string, string> | undefined): string | null {
  if (headers === undefined) return 'no request headers recorded';
  if (!('method' in message)) return 'a client POSTed a JSON-RPC response';
  const method = String(message.method);
  const params = (message.params ?? {}) as Record<string, unknown>;
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const accept = (header(headers, 'Accept') ?? '').split(',').map((t) => t.trim());
  if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
    return `Accept: ${String(header(headers, 'Accept'))}`;
  if (header(headers, 'Content-Type') !== 'application/json')
    return `Content-Type: ${String(header(headers, 'Content-Type'))}`;
  const version = header(headers, 'MCP-Protocol-Version');
  if (version !== (meta['io.modelcontextprotocol/protocolVersion'] ?? '2026-07-28'))
    return `MCP-Protocol-Version: ${String(version)}`;
  if (header(headers, 'Mcp-Method') !== method)
    return `Mcp-Method: ${String(header(headers, 'Mcp-Method'))} for ${method}`;
  const named = ['tools/call', 'resources/read', 'prompts/get'].includes(method);
  const byTask = ['tasks/get', 'tasks/update', 'tasks/cancel'].includes(method);
  const name = header(headers, 'Mcp-Name');
  if (named && name !== (params.name ?? params.uri)) return `Mcp-Name: ${String(name)} for ${method}`;
  if (byTask && (typeof params.taskId !== 'string' || name !== params.taskId))
    return `Mcp-Name: ${String(name)} for ${method} of task ${String(params.taskId)}`;
  if (!named && !byTask && name !== undefined) return `Mcp-Name on ${method}`;
  return null;
}

it('every POST of every scenario on Streamable HTTP, seeds 1-20, carries Accept, Content-Type, MCP-Protocol-Version, Mcp-Method and (where it applies) Mcp-Name', async () => {
  const sql = await loadSqlJs();
  const problems: string[] = [];
  let posts = 0;
  for (const scenario of scenarios) {
    for (let seed = 1; seed <= SEEDS_MAX; seed += 1) {
      const transcript = runScenario(scenario, {
        transport: 'http',
        seed,
        ledger: usesSqlite(scenario) ? { sql } : undefined,
      });
      for (const event of transcript.events as LabEvent[]) {
        if (event.kind === 'message' && event.from === 'client') {
          posts += 1;
          const problem = postProblem(event.message as unknown as Record<string, unknown>, event.headers);
          if (problem !== null) problems.push(`${scenario.id} seed ${seed} seq ${event.seq}: ${problem}`);
        }
        if (event.kind === 'http-request') {
          const message = (transcript.events as LabEvent[]).find(
            (m) => m.kind === 'message' && m.from === 'client' && 'id' in m.message && m.message.id === event.requestId,
          );
          if (message?.kind === 'message') {
            const problem = postProblem(message.message as unknown as Record<string, unknown>, event.headers);
            if (problem !== null)
              problems.push(`${scenario.id} seed ${seed} http-request seq ${event.seq}: ${problem}`);
          }
        }
      }
    }
  }
  expect(problems.slice(0, 10)).toEqual([]);
  expect(posts).toBeGreaterThan(scenarios.length * SEEDS_MAX);
}, 120_000);

it('stdio messages carry no HTTP headers', () => {
  for (const scenario of scenarios.filter((s) => !usesSqlite(s))) {
    const transcript = runScenario(scenario, { transport: 'stdio', seed: 1 });
    for (const event of transcript.events as LabEvent[])
      if (event.kind === 'message') expect(event.headers, `${scenario.id} seq ${event.seq}`).toBeUndefined();
  }
});

it('the tasks extension routes by task: on Streamable HTTP, tasks/get and tasks/cancel carry Mcp-Name with the taskId, the creating tools/call the tool name', async () => {
  const sql = await loadSqlJs();
  const scenario = scenarios.find((s) => s.id === 'task-cancel-ack');
  if (scenario === undefined) throw new Error('task-cancel-ack is registered');
  const transcript = runScenario(scenario, { transport: 'http', seed: 1, ledger: { sql } });
  const posts = (transcript.events as LabEvent[]).flatMap((e) =>
    e.kind === 'message' && e.from === 'client' && 'method' in e.message
      ? [{ method: e.message.method, name: e.headers?.['Mcp-Name'] }]
      : [],
  );
  const taskId = (transcript.outcome as { taskId: string }).taskId;
  expect(posts.find((p) => p.method === 'tools/call')?.name).toBe('export_report');
  const byTask = posts.filter((p) => p.method === 'tasks/get' || p.method === 'tasks/cancel');
  expect(byTask.map((p) => p.method)).toContain('tasks/cancel');
  expect(byTask.length).toBeGreaterThan(2);
  for (const post of byTask) expect(post.name, post.method).toBe(taskId);
});
