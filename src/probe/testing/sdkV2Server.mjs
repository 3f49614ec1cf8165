#!/usr/bin/env node
// A server on the official TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0), which speaks
// 2026-07-28 (server/discover, subscriptions/listen), for the probe's tests of what needs that
// revision: the reconnect probe against a server nobody here wrote the protocol of. Its tool honours
// the abort signal the SDK hands it.
//
//   node sdkV2Server.mjs stdio
//   node sdkV2Server.mjs http PORT    (PORT 0: any free port; it prints "listening on N")
//
// Over HTTP the SDK's web-standard `createMcpHandler` is served by node:http: each request becomes a
// `Request`, and a client closing its response stream aborts that request's signal.
import { createServer } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const [mode = 'stdio', portText = '0'] = process.argv.slice(2);

function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('cancelled'));
      },
      { once: true },
    );
  });
}

function build() {
  const server = new McpServer(
    { name: 'lab-sdk-v2-server', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.registerTool(
    'count-slowly',
    {
      description: 'Counts to `steps` over `duration` seconds, with progress; stops when cancelled.',
      inputSchema: z.object({ duration: z.number().default(2), steps: z.number().default(4) }),
    },
    async ({ duration, steps }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await pause((duration * 1000) / steps, ctx.mcpReq.signal);
        if (token !== undefined)
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: step, total: steps },
          });
      }
      return { content: [{ type: 'text', text: `counted to ${steps}` }] };
    },
  );
  return server;
}

if (mode === 'stdio') {
  serveStdio(build);
} else {
  const handler = createMcpHandler(build, {
    onerror: (error) => process.stderr.write(`sdk error: ${error.message}\n`),
  });
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
    const response = await handler.fetch(
      new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body, signal: aborted.signal }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return void res.end();
    const reader = response.body.getReader();
    aborted.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // The client closed the stream: nothing left to write to.
    }
    res.end();
  });
  http.listen(Number(portText), '127.0.0.1', () => process.stderr.write(`listening on ${http.address().port}\n`));
}
