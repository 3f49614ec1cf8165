#!/usr/bin/env node
// A well-behaved MCP server built on the official TypeScript SDK, for the probe's tests: its tool
// honours the abort signal the SDK hands it, so a cancellation stops the work and its progress.
//
//   node sdkServer.mjs stdio
//   node sdkServer.mjs http PORT [KEEPALIVE_MS]   (PORT 0: any free port; it prints "listening on N")
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const [mode = 'stdio', portText = '0', keepAliveText] = process.argv.slice(2);

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('cancelled'));
      },
      { once: true },
    );
  });
}

let reservations = 0;
const ledger = new Map();

function build() {
  const server = new McpServer({ name: 'lab-sdk-server', version: '1.0.0' });
  server.registerTool(
    'count-slowly',
    {
      description: 'Counts to `steps` over `duration` seconds, with progress; stops when cancelled.',
      inputSchema: { duration: z.number().default(2), steps: z.number().default(4) },
    },
    async ({ duration, steps }, extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await pause((duration * 1000) / steps, extra.signal);
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: step, total: steps },
          });
      }
      return { content: [{ type: 'text', text: `counted to ${steps}` }] };
    },
  );
  // A mutation with a real idempotency ledger: the key binds the arguments' fingerprint and the one result.
  server.registerTool(
    'reserve',
    {
      description: 'Reserves `quantity` of `item`; an idempotencyKey makes a retry return the stored reservation.',
      inputSchema: { item: z.string(), quantity: z.number(), idempotencyKey: z.string().optional() },
    },
    async ({ item, quantity, idempotencyKey }) => {
      const fingerprint = JSON.stringify([item, quantity]);
      const execute = async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        reservations += 1;
        return { content: [{ type: 'text', text: `reservation r-${reservations}: ${quantity} × ${item}` }] };
      };
      if (idempotencyKey === undefined) return execute();
      const stored = ledger.get(idempotencyKey);
      if (stored === undefined) {
        const result = execute();
        ledger.set(idempotencyKey, { fingerprint, result });
        return result;
      }
      if (stored.fingerprint !== fingerprint)
        return {
          isError: true,
          content: [{ type: 'text', text: `key ${idempotencyKey} was used with other arguments` }],
        };
      return stored.result;
    },
  );
  return server;
}

if (mode === 'stdio') {
  await build().connect(new StdioServerTransport());
} else {
  const transports = new Map();
  const http = createServer(async (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    for await (const chunk of req) body += chunk;
    const parsed = body === '' ? undefined : JSON.parse(body);
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
        ...(keepAliveText === undefined ? {} : { keepAliveMs: Number(keepAliveText) }),
      });
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, parsed);
  });
  http.listen(Number(portText), '127.0.0.1', () => process.stderr.write(`listening on ${http.address().port}\n`));
}
