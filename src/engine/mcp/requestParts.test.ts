// Proves the kit's request parts apart from any model: the channel each message takes,
// the client's start / expire / abandon / cancel on both transports, the server's acceptance and
// refusal of a cancellation, completion that cancellation beat, a dropped connection, and that
// defineModel refuses a run without its settings.
import { describe, expect, it } from 'vitest';
import { InvariantError } from '../core/assert';
import { defineModel, type ResolvedRun } from '../core/model';
import type { Sim } from '../core/sim';
import type { Transport } from '../core/transcript';
import { ClientRequest } from './clientRequest';
import { RequestCoordinator } from './coordinator';
import type { McpEvent } from './events';
import { mcpSim } from './mcpSim';
import { callToolRequest, callToolResultResponse, cancelledNotification, progressNotification } from './protocol';
import { ServerRequest } from './serverRequest';
import { channelFor, responseChannel } from './stream';

const ID = 7;

function call(transport: Transport, idleTimeoutMs = 100, maxTimeoutMs = 1_000) {
  const run: ResolvedRun<unknown> = { transport, seed: 1, settings: {} };
  const sim: Sim<McpEvent> = mcpSim<McpEvent>(run, {
    eventsMax: 1_000,
    latency: { latencyMs: 10, latencyJitterMs: 0 },
  });
  const coordinator = new RequestCoordinator();
  const server = new ServerRequest(sim, coordinator, ID);
  const client: ClientRequest = new ClientRequest(sim, coordinator, ID, {
    idleTimeoutMs,
    maxTimeoutMs,
    progressToken: 'p',
    onDeadline: () => {
      const ended = client.expire((deadline) => `${deadline} fired`);
      if (ended !== null) client.cancel(ended.reason, server);
    },
  });
  return { sim, coordinator, server, client };
}

const kinds = (sim: Sim<McpEvent>): string[] =>
  sim.events.map((event) => (event.kind === 'message' ? `message ${event.channel}` : event.kind));

describe('channels', () => {
  it('puts a request on its own POST, a notification on a POST named by its method, and the server on the request’s SSE stream', () => {
    expect(channelFor(true, 'client', callToolRequest(3, 'x', {}, null), 9)).toBe('POST #3');
    expect(channelFor(true, 'client', cancelledNotification(3, 'r'), 3)).toBe('POST notifications/cancelled');
    expect(channelFor(true, 'server', progressNotification('p', 1, 2, 'm'), 3)).toBe('SSE #3');
    expect(responseChannel(true, 3)).toBe('SSE #3');
  });

  it('puts everything on the one stdio pipe', () => {
    expect(channelFor(false, 'client', callToolRequest(3, 'x', {}, null), 3)).toBe('stdio');
    expect(channelFor(false, 'server', callToolResultResponse(3, 'done'), 3)).toBe('stdio');
  });
});

describe('the client’s side of a request', () => {
  it('on stdio: the idle deadline fires, the client abandons and sends notifications/cancelled, the server accepts it', () => {
    const { sim, coordinator, server, client } = call('stdio');
    client.callTool('x', {}, () => null);
    client.deadlines.armBoth('idle', 'max');
    sim.run();
    expect(coordinator.terminal(ID)?.state).toBe('timeout-idle');
    expect(client.cancellationSignal).toBe('notifications/cancelled');
    expect(server.phase).toBe('cancelled');
    expect(kinds(sim)).toEqual([
      'request-started',
      'message stdio',
      'deadline',
      'deadline',
      'delivered',
      'deadline',
      'state',
      'terminal',
      'deadline',
      'message stdio',
      'delivered',
      'cancel-accepted',
      'state',
    ]);
  });

  it('on Streamable HTTP: the client closes the response stream and the server observes the disconnect one latency later', () => {
    const { sim, server, client } = call('http');
    client.callTool('x', {}, () => null);
    client.deadlines.armBoth('idle', 'max');
    sim.run();
    expect(client.cancellationSignal).toBe('stream-close');
    expect(client.closedStreamAtMs).toBe(100);
    const observed = sim.events.find((event) => event.kind === 'disconnect-observed');
    expect(observed?.atMs).toBe(110);
    expect(server.phase).toBe('cancelled');
    expect(
      sim.events.some(
        (event) =>
          event.kind === 'message' &&
          event.from === 'client' &&
          'method' in event.message &&
          event.message.method === 'notifications/cancelled',
      ),
    ).toBe(false);
  });

  it('takes progress as activity and the final response as its settlement, then refuses a late response', () => {
    const { sim, coordinator, client } = call('stdio');
    client.callTool('x', {}, () => null);
    client.deadlines.armBoth('idle', 'max');
    sim.scheduler.runUntil(50);
    expect(client.progress(1, 'progress')).toBeNull();
    expect(client.deadlines.idleDueAtMs()).toBe(150);
    expect(client.progress(1, 'progress')).toMatch(/does not increase/);
    expect(client.response()).toBeNull();
    expect(coordinator.clientOutcome(ID)?.outcome).toBe('completed');
    expect(client.deadlines.armed('idle')).toBe(false);
    expect(client.abandon('too late').accepted).toBe(false);
  });
});

describe('the server’s side of a request', () => {
  it('ignores a cancellation that names no request, and one for a request it never saw, without reply', () => {
    const { sim, server, client } = call('stdio');
    client.callTool('x', {}, () => null);
    expect(server.acceptCancel({ reason: 'no id' }, 'received')).toMatch(/requestId is missing/);
    expect(server.acceptCancel({ requestId: 99 }, 'received')).toMatch(/no request 99/);
    expect(server.phase).toBe('active');
    expect(sim.events.filter((event) => event.kind === 'cancel-ignored')).toHaveLength(2);
  });

  it('sends nothing when the cancellation was accepted before the worker completed (RC-6)', () => {
    const { sim, server, client } = call('stdio');
    client.callTool('x', {}, () => null);
    expect(server.acceptCancel({ requestId: ID }, 'received')).toBeNull();
    let responded = false;
    expect(server.complete('done', () => (responded = true))).toBe(false);
    expect(responded).toBe(false);
    expect(sim.events.filter((event) => event.kind === 'terminal').map((event) => event.state)).toEqual(['cancelled']);
  });

  it('completes: the response goes out and, on Streamable HTTP, the response stream ends', () => {
    const { sim, server, client } = call('http');
    client.callTool('x', {}, () => null);
    server.opened();
    expect(server.complete('done', () => undefined)).toBe(true);
    expect(kinds(sim).slice(-5)).toEqual(['stream-opened', 'worker', 'state', 'terminal', 'stream-closed']);
  });
});

describe('a dropped connection', () => {
  it('loses every message in flight and records each loss', () => {
    const { sim, client } = call('stdio');
    client.callTool('x', {}, () => null);
    expect(sim.dropAll('the pipe broke')).toBe(1);
    expect(sim.events.filter((event) => event.kind === 'message-lost')).toHaveLength(1);
    expect(sim.dropAll('again')).toBe(0);
  });
});

describe('defineModel', () => {
  const spec = { latencyMs: { kind: 'integer', min: 0, max: 10, description: 'x' } } as const;
  const model = defineModel(spec, (run) => ({
    run: () => undefined,
    outcome: () => run.settings.latencyMs,
    events: [],
  }));

  it('types the resolved settings by the spec and reads the lab’s outcome after its run', () => {
    expect(model.execute(null, { transport: 'stdio', seed: 1, settings: { latencyMs: 4 } }).outcome).toBe(4);
  });

  it('refuses a run that lacks a setting of its spec', () => {
    expect(() => model.execute(null, { transport: 'stdio', seed: 1, settings: {} })).toThrow(InvariantError);
  });
});
