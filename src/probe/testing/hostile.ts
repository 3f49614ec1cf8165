import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * Hostile servers for the probe's tests: each an HTTP server on 127.0.0.1 (port 0) started by the
 * test itself, with every socket destroyed when it stops, so no test leaves one behind.
 */
export interface HostileServer {
  url: string;
  stop(): Promise<void>;
}

export async function startHostileHttp(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<HostileServer> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      if (body.length < 1 << 20) body += chunk;
    });
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `total` bytes of `a` in 64 KiB chunks, respecting back-pressure, until done or the client goes. */
export function writeMany(res: ServerResponse, total: number, then: () => void = () => {}): void {
  const chunk = 'a'.repeat(64 * 1024);
  let left = total;
  const go = (): void => {
    while (left > 0 && !res.destroyed) {
      left -= chunk.length;
      if (!res.write(chunk)) return void res.once('drain', go);
    }
    if (!res.destroyed) then();
  };
  go();
}

/**
 * The answer a plain 2025-11-25 server gives to one request the probe sends: server/discover refused,
 * initialize, a tools/list with one tool `work`, and an empty result for everything else.
 */
export function plainAnswer(message: { id: number | string; method: string }): Record<string, unknown> {
  if (message.method === 'server/discover')
    return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
  const result =
    message.method === 'initialize'
      ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } }
      : message.method === 'tools/list'
        ? { tools: [{ name: 'work', inputSchema: { type: 'object' } }] }
        : { content: [] };
  return { jsonrpc: '2.0', id: message.id, result };
}
