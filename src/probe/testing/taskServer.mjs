#!/usr/bin/env node
// An honest 2026-07-28 server with the tasks extension (io.modelcontextprotocol/tasks), for the probe's
// tests: no published server offers the extension yet. Plain Node, no dependencies.
//
//   node taskServer.mjs stdio
//   node taskServer.mjs http PORT      (PORT 0: any free port; it prints "listening on N")
//
// Its tool `export-report` works `duration` seconds. Called by a client that declares the extension, it
// answers with a task once the task exists (so a tasks/get resolves at once); a worker checks the task's
// cancel flag every `checkpointMs` (default 300). tasks/cancel only records the intent and answers with an
// empty acknowledgement: the task stays working until the next checkpoint, then becomes cancelled, and a
// terminal status never changes again. A client without the extension gets the plain result at the end.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const [mode = 'stdio', portText = '0'] = process.argv.slice(2);
const EXTENSION = 'io.modelcontextprotocol/tasks';
const serverInfo = { name: 'lab-task-server', version: '1.0.0' };
const TOOL = {
  name: 'export-report',
  description: 'Exports a report in `duration` seconds; runs as a task when the client declares the tasks extension.',
  inputSchema: { type: 'object', properties: { duration: { type: 'number' }, checkpointMs: { type: 'number' } } },
};
const tasks = new Map();
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

const view = (task) => {
  const { cancelRequested: _flag, ...rest } = task;
  return rest;
};

function setStatus(task, status, extra = {}) {
  if (TERMINAL.has(task.status)) return;
  Object.assign(task, { status, lastUpdatedAt: new Date().toISOString() }, extra);
}

function startWorker(task, durationMs, checkpointMs) {
  const started = Date.now();
  const checkpoint = () => {
    if (task.cancelRequested)
      return setStatus(task, 'cancelled', { statusMessage: 'cancelled at a worker checkpoint' });
    if (Date.now() - started >= durationMs)
      return setStatus(task, 'completed', { result: { content: [{ type: 'text', text: 'report exported' }] } });
    setTimeout(checkpoint, Math.min(checkpointMs, Math.max(1, durationMs - (Date.now() - started))));
  };
  setTimeout(checkpoint, Math.min(checkpointMs, durationMs));
}

/** One answer for one request (every answer here is immediate but the plain, task-less call's). */
function handle(message, send) {
  const { id, method, params = {} } = message;
  const result = (value) => send({ jsonrpc: '2.0', id, result: value });
  const error = (code, text) => send({ jsonrpc: '2.0', id, error: { code, message: text } });
  if (method === 'server/discover')
    return result({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, extensions: { [EXTENSION]: {} } },
      cacheScope: 'public',
      ttlMs: 60000,
      _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
    });
  if (method === 'tools/list') return result({ resultType: 'complete', tools: [TOOL] });
  if (method === 'tools/call') {
    if (params.name !== TOOL.name) return error(-32602, `Unknown tool: ${params.name}`);
    const args = params.arguments ?? {};
    const durationMs = Number(args.duration ?? 2) * 1000;
    const checkpointMs = Number(args.checkpointMs ?? 300);
    const declared =
      params._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[EXTENSION] !== undefined;
    if (!declared)
      return void setTimeout(
        () => result({ resultType: 'complete', content: [{ type: 'text', text: 'report exported' }] }),
        durationMs,
      );
    const now = new Date().toISOString();
    const task = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: 60000,
      pollIntervalMs: 200,
      cancelRequested: false,
    };
    // Durable before the answer: the map holds it, so a tasks/get for it resolves from now on.
    tasks.set(task.taskId, task);
    startWorker(task, durationMs, checkpointMs);
    return result({ resultType: 'task', ...view(task) });
  }
  if (method === 'tasks/get' || method === 'tasks/cancel') {
    const task = tasks.get(params.taskId);
    if (task === undefined) return error(-32602, 'Failed to retrieve task: Task not found');
    if (method === 'tasks/get') return result({ resultType: 'complete', ...view(task) });
    // The intent only: the worker observes it at its next checkpoint.
    task.cancelRequested = true;
    return result({ resultType: 'complete' });
  }
  error(-32601, 'Method not found');
}

if (mode === 'stdio') {
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    pending += chunk;
    let newline;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim() === '') continue;
      const message = JSON.parse(line);
      if (message.id === undefined) continue;
      handle(message, (answer) => process.stdout.write(`${JSON.stringify(answer)}\n`));
    }
  });
  process.stdin.on('end', () => process.exit(0));
} else if (mode === 'http') {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const message = JSON.parse(body);
      // The tests read these lines to check the routing headers the probe sent.
      process.stderr.write(
        `POST ${message.method} mcp-method=${req.headers['mcp-method']} mcp-name=${req.headers['mcp-name']}\n`,
      );
      if (message.id === undefined) return void res.writeHead(202).end();
      handle(message, (answer) => {
        if (!res.destroyed) res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
  });
  server.listen(Number(portText), '127.0.0.1', () => process.stderr.write(`listening on ${server.address().port}\n`));
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
