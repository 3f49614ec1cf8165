#!/usr/bin/env node
// A deliberately broken MCP server for the probe's tests: every defect below is planted on purpose,
// and the probe must flag each one. Plain Node, no dependencies, so a test starts it in milliseconds.
//
//   node brokenServer.mjs stdio [--revision 2026-07-28|2025-11-25]
//   node brokenServer.mjs http PORT [--revision …]      (PORT 0: any free port; it prints "listening on N")
//
// Planted defects:
//   1. it answers a request after accepting its cancellation (the final response still comes);
//   2. its progress decreases (1, 2, 1.5, 3, …);
//   3. its SSE responses omit X-Accel-Buffering (and send no keep-alive comments);
//   4. it answers the cancellation notification (stdio: an error response; HTTP: 200 with a body, not 202);
//   5. its mutation `reserve` ignores the idempotency key: every call reserves again;
//   6. on its first subscriptions/listen (2026-07-28) it sends a notification before the acknowledgement;
//   7. (tasks extension, 2026-07-28) its tasks/cancel acknowledgement is not empty: it claims the task cancelled;
//   8. (tasks extension) the cancelled task's status then leaves the terminal one: cancelled, working, completed.
import { createServer } from 'node:http';

const argv = process.argv.slice(2);
const mode = argv[0] ?? 'stdio';
const revisionAt = argv.indexOf('--revision');
const revision = revisionAt >= 0 ? argv[revisionAt + 1] : '2026-07-28';
const serverInfo = { name: 'lab-broken-server', version: '1.0.0' };
let reservations = 0;
let listens = 0;
const tasks = new Map();
const EXPORT = {
  name: 'slow-export',
  description: 'Runs as a task (tasks extension) and mishandles its cancellation.',
  inputSchema: { type: 'object', properties: {} },
};
/** Defect 8: what tasks/get says after the cancel, one poll after another (the last one repeats). */
const AFTER_CANCEL = ['cancelled', 'working', 'completed'];
const RESERVE = {
  name: 'reserve',
  description: 'Reserves stock (and ignores idempotencyKey).',
  inputSchema: {
    type: 'object',
    properties: { item: { type: 'string' }, quantity: { type: 'number' }, idempotencyKey: { type: 'string' } },
  },
};
const TOOL = {
  name: 'slow-work',
  description: 'Works for `duration` seconds in `steps` steps, reporting progress (decreasing at the third step).',
  inputSchema: { type: 'object', properties: { duration: { type: 'number' }, steps: { type: 'number' } } },
};

/** Answers one request; `send` takes each message the server emits for it (progress, then the response). */
function handle(message, send, done) {
  const { id, method, params = {} } = message;
  const result = (value) => {
    send({ jsonrpc: '2.0', id, result: value });
    done();
  };
  if (method === 'server/discover') {
    if (revision !== '2026-07-28') {
      send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
      return done();
    }
    return result({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
      cacheScope: 'public',
      ttlMs: 60000,
      _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
    });
  }
  if (method === 'initialize')
    return result({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo });
  if (method === 'tools/list')
    return result({ tools: revision === '2026-07-28' ? [TOOL, RESERVE, EXPORT] : [TOOL, RESERVE] });
  if (method === 'tools/call' && params.name === EXPORT.name && revision === '2026-07-28') {
    const now = new Date().toISOString();
    const task = {
      taskId: `task-${tasks.size + 1}`,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: 60000,
      pollIntervalMs: 150,
    };
    tasks.set(task.taskId, { task, cancelled: false, gets: 0 });
    return result({ resultType: 'task', ...task });
  }
  if ((method === 'tasks/get' || method === 'tasks/cancel') && tasks.has(params.taskId)) {
    const entry = tasks.get(params.taskId);
    if (method === 'tasks/cancel') {
      entry.cancelled = true;
      // Defect 7: the acknowledgement carries a status, as if the cancellation were done.
      return result({ resultType: 'complete', taskId: entry.task.taskId, status: 'cancelled' });
    }
    const status = entry.cancelled ? AFTER_CANCEL[Math.min(entry.gets++, AFTER_CANCEL.length - 1)] : 'working';
    const extra = status === 'completed' ? { result: { content: [{ type: 'text', text: 'exported anyway' }] } } : {};
    return result({ resultType: 'complete', ...entry.task, status, lastUpdatedAt: new Date().toISOString(), ...extra });
  }
  if (method === 'subscriptions/listen' && revision === '2026-07-28') {
    // The stream stays open: `done` is never called, so the HTTP response never ends on its own.
    const meta = { 'io.modelcontextprotocol/subscriptionId': id };
    const changed = { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: meta } };
    listens += 1;
    if (listens === 1) send(changed);
    send({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: params.notifications ?? {}, _meta: meta },
    });
    return;
  }
  if (method === 'tools/call' && params.name === RESERVE.name) {
    // Defect 5: the key is never looked at.
    reservations += 1;
    return result({ content: [{ type: 'text', text: `reservation r-${reservations}` }] });
  }
  if (method === 'tools/call') {
    if (params.name !== TOOL.name) {
      send({ jsonrpc: '2.0', id, error: { code: -32602, message: `Unknown tool: ${params.name}` } });
      return done();
    }
    const args = params.arguments ?? {};
    const steps = Number(args.steps ?? 5);
    const stepMs = (Number(args.duration ?? 2) * 1000) / steps;
    const token = params._meta?.progressToken;
    const values = Array.from({ length: steps }, (_, i) => (i === 2 ? 1.5 : i + 1));
    let step = 0;
    const tick = () => {
      // Defect 1: a cancellation is "accepted" (logged) but the work and its response go on regardless.
      if (token !== undefined)
        send({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: values[step], total: steps },
        });
      step += 1;
      if (step < steps) setTimeout(tick, stepMs);
      else result({ content: [{ type: 'text', text: `worked ${steps} steps` }] });
    };
    setTimeout(tick, stepMs);
    return;
  }
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
  done();
}

if (mode === 'stdio') {
  let pending = '';
  const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    pending += chunk;
    let newline;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim() === '') continue;
      const message = JSON.parse(line);
      if (message.method === 'notifications/cancelled') {
        process.stderr.write(`accepted cancellation of ${message.params?.requestId}\n`);
        // Defect 4: a notification gets an answer.
        write({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `cancellation of ${message.params?.requestId} received` },
        });
        continue;
      }
      if (message.id === undefined) continue;
      handle(message, write, () => {});
    }
  });
  process.stdin.on('end', () => process.exit(0));
} else if (mode === 'http') {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const message = JSON.parse(body);
      // The tests read these lines to check the Mcp-* headers the probe really sent.
      process.stderr.write(
        `POST ${message.method} mcp-protocol-version=${req.headers['mcp-protocol-version']} mcp-method=${req.headers['mcp-method']} mcp-name=${req.headers['mcp-name']}\n`,
      );
      if (message.id === undefined) {
        if (message.method === 'notifications/cancelled') {
          // Defect 4 on HTTP: 200 with a JSON-RPC body where 202 and no body are required.
          res
            .writeHead(200, { 'Content-Type': 'application/json' })
            .end(
              JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'cancellation received' } }),
            );
        } else res.writeHead(202).end();
        return;
      }
      if (message.method !== 'tools/call' && message.method !== 'subscriptions/listen') {
        handle(
          message,
          (answer) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer)),
          () => {},
        );
        return;
      }
      // Defect 3: no X-Accel-Buffering on the SSE response, and no keep-alive comments.
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      handle(
        message,
        (answer) => {
          if (!res.destroyed) res.write(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
        },
        () => res.end(),
      );
    });
  });
  server.listen(Number(argv[1] ?? 0), '127.0.0.1', () =>
    process.stderr.write(`listening on ${server.address().port}\n`),
  );
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
