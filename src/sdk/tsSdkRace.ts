import './zodJitless';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { RequestRaceScenario, Transcript } from '../engine';
import { negotiatedInInitialize, runSdkRace, type TsSdkRunOptions } from './sdkHarness';
import { MCP_URL, labFetch } from './sdkFetch';
import type { SdkLane, SdkRace, SdkSession } from './sdkRace';
import { TappedTransport } from './sdkTap';
import { TS_SDK_PACKAGE, TS_SDK_VERSION } from './version';
import { resumesSession } from './refusal';

export { SETTINGS_NOT_APPLIED } from './version';
export type { TsSdkRunOptions } from './sdkHarness';

/**
 * The `ts-sdk` lane: `@modelcontextprotocol/sdk` 1.32.2, its `Client` and low-level `Server` joined by
 * the SDK's `InMemoryTransport` (stdio) or by its `StreamableHTTPClientTransport` and
 * `WebStandardStreamableHTTPServerTransport` over the harness's in-process `fetch` (http). It
 * negotiates 2025-11-25 with an initialize handshake; the harness (sdkHarness.ts) runs the race.
 */
export const TS_SDK_1X_LANE: SdkLane = {
  implementation: 'ts-sdk',
  package: TS_SDK_PACKAGE,
  version: TS_SDK_VERSION,
  cites: {
    abortedResultDropped: 'protocol.js:397-400',
    maxCheckedOnProgress: 'protocol.js:462-472',
    cancelWithoutHandler: 'protocol.js:173-179',
    cancelOfRunningIgnored: 'protocol.js:173-176',
  },
  join(race, transport, seed) {
    if (resumesSession('ts-sdk', race.settings, transport)) return resumedSession(race, seed);
    const client = new Client({ name: 'mcp-reliability-lab', version: '0.1.0' });
    const server = new Server(
      { name: 'mcp-reliability-lab-server', version: '0.1.0' },
      { capabilities: { tools: {} } },
    );
    client.onerror = (error) => race.clientError(error);
    server.setRequestHandler(CallToolRequestSchema, (_request, extra) =>
      race.runTool(extra.requestId, extra.signal, extra._meta?.progressToken, (progress, total, message) =>
        extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: extra._meta?.progressToken as string | number, progress, total, message },
        }),
      ),
    );
    let clientTransport: TappedTransport<JSONRPCMessage, MessageExtraInfo>;
    let serverTransport: TappedTransport<JSONRPCMessage, MessageExtraInfo>;
    if (transport === 'stdio') {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      clientTransport = new TappedTransport(clientSide, 'client', race, 'stdio');
      serverTransport = new TappedTransport(serverSide, 'server', race, 'stdio');
    } else {
      // A fixed session id and no keep-alive comments: both are the transport's own options; the run stays replayable and ends.
      const httpServer = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => `lab-session-${seed}`,
        keepAliveMs: 0,
      });
      serverTransport = new TappedTransport(httpServer, 'server', race, 'http-server');
      const httpClient = new StreamableHTTPClientTransport(new URL(MCP_URL), {
        fetch: labFetch(race, httpServer, true),
      });
      clientTransport = new TappedTransport(httpClient, 'client', race, 'http-client');
    }
    return {
      connect: () => server.connect(serverTransport).then(() => client.connect(clientTransport)),
      callTool: (name, args, options) => client.callTool({ name, arguments: args }, undefined, options),
      negotiatedProtocolVersion: negotiatedInInitialize,
      close: async () => {
        await client.close();
        await server.close();
      },
    };
  },
};

/**
 * `requestId=0` on Streamable HTTP: one Client initializes the session (its initialize is request 0); a
 * second Client resumes that session through the transport's own `sessionId` option. SDK
 * 1.x's `Client.connect` sends no initialize when the transport already has a session id
 * (client/index.js:276-280), and the new Client numbers its requests from 0 again, so its tool call is
 * request 0: what a client process that restarted and resumed its session sends. That reuses id 0 within
 * the session (the initialize's), which the run's "one final response" check counts. Nothing is patched.
 */
function resumedSession(race: SdkRace, seed: number): SdkSession {
  const server = new Server({ name: 'mcp-reliability-lab-server', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, (_request, extra) =>
    race.runTool(extra.requestId, extra.signal, extra._meta?.progressToken, (progress, total, message) =>
      extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: extra._meta?.progressToken as string | number, progress, total, message },
      }),
    ),
  );
  const httpServer = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => `lab-session-${seed}`,
    keepAliveMs: 0,
  });
  const serverTransport = new TappedTransport<JSONRPCMessage, MessageExtraInfo>(
    httpServer,
    'server',
    race,
    'http-server',
  );
  const fetch = labFetch(race, httpServer, true);
  const first = new Client({ name: 'mcp-reliability-lab', version: '0.1.0' });
  const firstTransport = new TappedTransport<JSONRPCMessage, MessageExtraInfo>(
    new StreamableHTTPClientTransport(new URL(MCP_URL), { fetch }),
    'client',
    race,
    'http-client',
  );
  let client: Client | null = null;
  return {
    connect: async () => {
      await server.connect(serverTransport);
      await first.connect(firstTransport);
      // The first Client is left as it is (closing it would abort its POSTs, numbered from 0 too); it is closed after the run.
      const sessionId = firstTransport.sessionId;
      const resumed = new StreamableHTTPClientTransport(new URL(MCP_URL), { fetch, sessionId });
      resumed.setProtocolVersion(negotiatedInInitialize(race.log.events));
      client = new Client({ name: 'mcp-reliability-lab', version: '0.1.0' });
      client.onerror = (error) => race.clientError(error);
      await client.connect(
        new TappedTransport<JSONRPCMessage, MessageExtraInfo>(resumed, 'client', race, 'http-client'),
      );
    },
    callTool: (name, args, options) => {
      if (client === null) throw new Error('the resumed client is connected before the call');
      return client.callTool({ name, arguments: args }, undefined, options);
    },
    negotiatedProtocolVersion: negotiatedInInitialize,
    close: async () => {
      await client?.close();
      await first.close();
      await server.close();
    },
  };
}

/**
 * Runs a request-race scenario (A–D) on the real SDK 1.x and returns its transcript, in the lab's
 * format, with `implementation: 'ts-sdk'`. Same seed and settings → byte-identical transcript.
 */
export function runTsSdkScenario(
  scenario: RequestRaceScenario,
  options: TsSdkRunOptions = {},
): Promise<Transcript<'request-race'>> {
  return runSdkRace(TS_SDK_1X_LANE, scenario, options);
}
