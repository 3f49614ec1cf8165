#!/usr/bin/env node
// A 2026-07-28 stdio server with the tasks extension built on the extension's own package,
// @modelcontextprotocol/ext-tasks (its V2 schemas and guards): every request about a task is checked with
// the package's guards, every answer parsed with the package's result schemas before it is written. For
// the probe's tests (`lab probe --task-tool`).
//
//   node extTaskServer.mjs                      an honest server
//   node extTaskServer.mjs --progress-on-task   also sends notifications/progress (for the call's
//                                               progressToken) and notifications/message while a task
//                                               works: the extension does not support either on tasks
//
// Its tool `export-report` works `duration` seconds and always runs as a task for a client that declares
// the extension; a worker checks the cancel flag every `checkpointMs` (default 300); tasks/cancel records
// the intent and answers with an empty acknowledgement. The process exits when stdin closes.
import { randomUUID } from 'node:crypto';
import {
  CancelTaskResultV2Schema,
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  hasTaskClientCapabilityV2,
  isCancelTaskRequestV2,
  isGetTaskRequestV2,
} from '@modelcontextprotocol/ext-tasks/core/v2';

const progressOnTask = process.argv.includes('--progress-on-task');
const EXTENSION = 'io.modelcontextprotocol/tasks';
const serverInfo = { name: 'lab-ext-task-server', version: '1.0.0' };
const TOOL = {
  name: 'export-report',
  description: 'Exports a report in `duration` seconds, as a task.',
  inputSchema: { type: 'object', properties: { duration: { type: 'number' }, checkpointMs: { type: 'number' } } },
};
const tasks = new Map();
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

const fields = (task) => ({
  taskId: task.taskId,
  status: task.status,
  createdAt: task.createdAt,
  lastUpdatedAt: task.lastUpdatedAt,
  ttlMs: 60000,
  pollIntervalMs: 200,
  ...(task.result === undefined ? {} : { result: task.result }),
});

function settle(task, status, extra = {}) {
  if (TERMINAL.has(task.status)) return;
  Object.assign(task, { status, lastUpdatedAt: new Date().toISOString() }, extra);
}

function startWorker(task, durationMs, checkpointMs, progressToken) {
  const started = Date.now();
  let step = 0;
  const checkpoint = () => {
    if (task.cancelRequested) return settle(task, 'cancelled');
    if (Date.now() - started >= durationMs)
      return settle(task, 'completed', {
        result: { resultType: 'complete', content: [{ type: 'text', text: 'report exported' }] },
      });
    step += 1;
    if (progressOnTask) {
      if (progressToken !== undefined)
        write({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken, progress: step, message: `checkpoint ${step} of task ${task.taskId}` },
        });
      write({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: `task ${task.taskId}: checkpoint ${step}` },
      });
    }
    setTimeout(checkpoint, Math.min(checkpointMs, Math.max(1, durationMs - (Date.now() - started))));
  };
  setTimeout(checkpoint, Math.min(checkpointMs, durationMs));
}

function handle(message) {
  const { id, method, params = {} } = message;
  const result = (value) => write({ jsonrpc: '2.0', id, result: value });
  const error = (code, text) => write({ jsonrpc: '2.0', id, error: { code, message: text } });
  const meta = { 'io.modelcontextprotocol/serverInfo': serverInfo };
  if (method === 'server/discover')
    return result({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, extensions: { [EXTENSION]: {} } },
      cacheScope: 'public',
      ttlMs: 60000,
      _meta: meta,
    });
  if (method === 'tools/list') return result({ resultType: 'complete', tools: [TOOL] });
  if (method === 'tools/call') {
    if (params.name !== TOOL.name) return error(-32602, `Unknown tool: ${params.name}`);
    if (!hasTaskClientCapabilityV2(params)) return error(-32021, 'Missing required client capability');
    const args = params.arguments ?? {};
    const now = new Date().toISOString();
    const task = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      cancelRequested: false,
    };
    // Durable before the answer: from here on a tasks/get for it resolves.
    tasks.set(task.taskId, task);
    startWorker(task, Number(args.duration ?? 2) * 1000, Number(args.checkpointMs ?? 300), params._meta?.progressToken);
    return result(CreateTaskResultV2Schema.parse({ resultType: 'task', ...fields(task), _meta: meta }));
  }
  if (isGetTaskRequestV2(message)) {
    const task = tasks.get(params.taskId);
    if (task === undefined) return error(-32602, 'Failed to retrieve task: Task not found');
    const answer = { resultType: 'complete', ...fields(task), _meta: meta };
    GetTaskResultV2Schema.parse(answer);
    return result(answer);
  }
  if (isCancelTaskRequestV2(message)) {
    const task = tasks.get(params.taskId);
    if (task === undefined) return error(-32602, 'Failed to cancel task: Task not found');
    task.cancelRequested = true;
    return result(CancelTaskResultV2Schema.parse({ resultType: 'complete', _meta: meta }));
  }
  error(-32601, 'Method not found');
}

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
    handle(message);
  }
});
process.stdin.on('end', () => process.exit(0));
