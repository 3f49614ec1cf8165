import './zodJitless';
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/client';
import { Server, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { RequestRaceScenario, Transcript } from '../engine';
import { runSdkRace, type TsSdkRunOptions } from './sdkHarness';
import { MCP_URL, labFetch } from './sdkFetch';
import type { SdkLane } from './sdkRace';
import { TappedTransport } from './sdkTap';
import { TS_SDK_V2_PACKAGE, TS_SDK_V2_PROTOCOL_VERSION, TS_SDK_V2_VERSION } from './version';

export type { TsSdkRunOptions } from './sdkHarness';

/** Where v2 2.4.0 does what the harness words (files under node_modules/@modelcontextprotocol/). */
export const V2_SOURCE = {
  client: 'client/dist/src-CeKsbNLO.mjs',
  clientPublic: 'client/dist/public-CvV4ZHkX.mjs',
  server: 'server/dist/src-DdvbAHrR.mjs',
  serverIndex: 'server/dist/index.mjs',
  serverStdio: 'server/dist/stdio.mjs',
} as const;

/**
 * The `ts-sdk-v2` lane: the official v2 packages 2.4.0 (`@modelcontextprotocol/client`,
 * `@modelcontextprotocol/server`, over `@modelcontextprotocol/core`), the SDK of the revision the
 * lab models. The v2 `Client` negotiates with `versionNegotiation: { mode: 'auto' }` (its default
 * is the 2025 initialize handshake) and so reaches 2026-07-28 through a `server/discover` probe.
 * The server side is a low-level v2 `Server` made by a factory and served the way v2 serves the
 * 2026-07-28 era: by `serveStdio` over one end of v2's `InMemoryTransport` (stdio), and by
 * `createMcpHandler`'s `fetch` behind the harness's in-process `fetch` (Streamable HTTP), which the
 * v2 `StreamableHTTPClientTransport` calls. v2's `WebStandardStreamableHTTPServerTransport` serves
 * only the 2025 era (a session of its own, and an initialize handshake), so it would not be the
 * reference this lane is for; the v2 table says so. Nothing of the SDK is patched.
 */
export const TS_SDK_V2_LANE: SdkLane = {
  implementation: 'ts-sdk-v2',
  package: TS_SDK_V2_PACKAGE,
  version: TS_SDK_V2_VERSION,
  cites: {
    abortedResultDropped: `${V2_SOURCE.server}:6546 and :6562 return before sending once the handler's signal is aborted`,
    maxCheckedOnProgress: `${V2_SOURCE.client}:6030-6047 _onprogress → :5814-5820 _resetTimeout`,
    cancelWithoutHandler: `${V2_SOURCE.server}:6348-6351 _oncancel`,
  },
  join(race, transport) {
    const client = new Client(
      { name: 'mcp-reliability-lab', version: '0.1.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    client.onerror = (error) => race.clientError(error);
    const makeServer = (): Server => {
      const server = new Server(
        { name: 'mcp-reliability-lab-server', version: '0.1.0' },
        { capabilities: { tools: {} } },
      );
      server.setRequestHandler('tools/call', (_request, ctx) =>
        race.runTool(ctx.mcpReq.id, ctx.mcpReq.signal, ctx.mcpReq._meta?.progressToken, (progress, total, message) =>
          ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: ctx.mcpReq._meta?.progressToken as string | number, progress, total, message },
          }),
        ),
      );
      return server;
    };
    let clientTransport: TappedTransport<JSONRPCMessage, MessageExtraInfo>;
    let closeServer: () => Promise<void>;
    if (transport === 'stdio') {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      clientTransport = new TappedTransport(clientSide, 'client', race, 'stdio');
      const serverTransport = new TappedTransport(serverSide, 'server', race, 'stdio');
      const served = serveStdio(makeServer, { transport: serverTransport });
      closeServer = () => served.close();
    } else {
      // No keep-alive comments: the handler's own option; the run stays replayable and ends.
      const handler = createMcpHandler(makeServer, { keepAliveMs: 0 });
      const httpClient = new StreamableHTTPClientTransport(new URL(MCP_URL), {
        fetch: labFetch(race, { handleRequest: (request) => handler.fetch(request) }, false),
      });
      clientTransport = new TappedTransport(httpClient, 'client', race, 'http-client');
      closeServer = () => handler.close();
    }
    return {
      connect: () => client.connect(clientTransport),
      callTool: (name, args, options) => client.callTool({ name, arguments: args }, options),
      negotiatedProtocolVersion: () => client.getNegotiatedProtocolVersion() ?? 'unknown',
      close: async () => {
        await client.close();
        await closeServer();
      },
    };
  },
};

/**
 * Runs a request-race scenario (A–D) on the v2 packages and returns its transcript, in the lab's
 * format, with `implementation: 'ts-sdk-v2'`. Same seed and settings → byte-identical transcript.
 */
export function runTsSdkV2Scenario(
  scenario: RequestRaceScenario,
  options: TsSdkRunOptions = {},
): Promise<Transcript<'request-race'>> {
  return runSdkRace(TS_SDK_V2_LANE, scenario, options);
}

export { TS_SDK_V2_PROTOCOL_VERSION };
