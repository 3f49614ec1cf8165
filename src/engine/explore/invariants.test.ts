// Proves each invariant the explorer checks catches the break it names, on event streams written by
// hand for the breaks no setting of the lab produces (a correct kit never delivers out of order).
import { describe, expect, it } from 'vitest';
import { InvariantChecker, sseStream } from './invariants';

let seq = 0;
const ev = (kind: string, fields: Record<string, unknown>, atMs = 0) => ({ kind, seq: seq++, atMs, ...fields });
const message = (from: string, channel: string, body: Record<string, unknown>, atMs = 0) =>
  ev(
    'message',
    { from, to: from === 'client' ? 'server' : 'client', channel, message: { jsonrpc: '2.0', ...body } },
    atMs,
  );
const progress = (value: number) =>
  message('server', 'stdio', {
    method: 'notifications/progress',
    params: { progressToken: 'progress-41', progress: value },
  });

function check(events: ReturnType<typeof ev>[], settings = {}): string[] {
  const checker = new InvariantChecker(settings);
  for (const event of events) checker.observe(event);
  checker.finish('request-race', {});
  return checker.found.map((breach) => breach.invariant);
}

/** Request #41 with its progress token, sent and received by the server (what every server message about it needs first). */
const received = () => {
  const request = message('client', 'stdio', {
    method: 'tools/call',
    id: 41,
    params: { name: 'report', _meta: { progressToken: 'progress-41' } },
  });
  return [request, ev('delivered', { messageSeq: request.seq, from: 'client', to: 'server' })];
};
const started = () =>
  ev('request-started', { requestId: 41, idleTimeoutMs: 1000, maxTimeoutMs: 5000, progressToken: 'progress-41' });
const terminal = (state: string) => ev('terminal', { requestId: 41, state });

describe('InvariantChecker', () => {
  it('a clean request breaks nothing', () => {
    expect(
      check([
        started(),
        ...received(),
        progress(1),
        progress(2),
        message('server', 'stdio', { id: 41, result: {} }),
        terminal('completed'),
      ]),
    ).toEqual([]);
  });
  it('one-terminal-state: a second terminal state, or none', () => {
    expect(check([started(), terminal('completed'), terminal('cancelled')])).toContain('one-terminal-state');
    expect(check([started()])).toContain('one-terminal-state');
  });
  it('progress-increasing: progress that repeats or goes back', () => {
    expect(check([started(), progress(2), progress(2), terminal('completed')])).toEqual(['progress-increasing']);
  });
  it('no-progress-after-final: progress after the response', () => {
    expect(
      check([
        started(),
        ...received(),
        message('server', 'stdio', { id: 41, result: {} }),
        progress(1),
        terminal('completed'),
      ]),
    ).toEqual(['no-progress-after-final']);
  });
  it('channel-fifo: a later message delivered first', () => {
    const first = message('client', 'stdio', { method: 'ping', id: 1 });
    const second = message('client', 'stdio', { method: 'ping', id: 2 });
    expect(check([first, second, ev('delivered', { messageSeq: second.seq, from: 'client', to: 'server' })])).toContain(
      'channel-fifo',
    );
  });
  it('channel-fifo: a lost message does not hold its channel', () => {
    const first = { ...message('client', 'stdio', { method: 'ping', id: 1 }), lost: true };
    const second = message('client', 'stdio', { method: 'ping', id: 2 });
    expect(check([first, second, ev('delivered', { messageSeq: second.seq, from: 'client', to: 'server' })])).toEqual(
      [],
    );
  });
  it('unique-request-ids: one sender reusing an id', () => {
    expect(
      check([
        message('client', 'stdio', { method: 'ping', id: 7 }),
        message('client', 'stdio', { method: 'ping', id: 7 }),
      ]),
    ).toContain('unique-request-ids');
    expect(
      check([
        message('client', 'stdio', { method: 'ping', id: 7 }),
        message('server', 'stdio', { method: 'ping', id: 7 }),
      ]),
    ).toEqual([]);
  });
  it('buffer-within-capacity: more held than the capacity', () => {
    expect(
      check([
        ev('buffer', { action: 'enqueued', what: 'progress', occupancyEvents: 9, capacityEvents: 8, requestId: 1 }),
      ]),
    ).toEqual(['buffer-within-capacity']);
    expect(
      check([
        ev('buffer', { action: 'enqueued', what: 'progress', occupancyEvents: 90, capacityEvents: null, requestId: 1 }),
      ]),
    ).toEqual([]);
  });
  it('task-terminal-stable: a terminal task status that changes on the server, or regresses in what the client polls; a stale poll is not one', () => {
    expect(
      check([
        ev('task', { action: 'completed', taskId: 't1', status: 'completed' }),
        ev('task', { action: 'restarted', taskId: 't1', status: 'working' }),
      ]),
    ).toEqual(['task-terminal-stable']);
    expect(
      check([
        ev('task', { action: 'polled', taskId: 't1', status: 'completed' }),
        ev('task', { action: 'polled', taskId: 't1', status: 'working' }),
      ]),
    ).toEqual(['task-terminal-stable']);
    // A tasks/get answered while the task was working, delivered at the instant it completed.
    expect(
      check([
        ev('task', { action: 'completed', taskId: 't1', status: 'completed' }),
        ev('task', { action: 'polled', taskId: 't1', status: 'working' }),
      ]),
    ).toEqual([]);
    expect(
      check([
        ev('task', { action: 'polled', taskId: 't1', status: 'working' }),
        ev('task', { action: 'completed', taskId: 't1', status: 'completed' }),
      ]),
    ).toEqual([]);
  });
  it('one-execution-per-key: applies only when the calls carry a key', () => {
    const twice = [
      ev('ledger', { action: 'executed', requestId: 41 }),
      ev('ledger', { action: 'executed', requestId: 42 }),
    ];
    expect(check(twice, { sendKey: true })).toEqual(['one-execution-per-key']);
    expect(check(twice, { sendKey: false })).toEqual([]);
  });
  it('causality: a response, progress, or a stream for a request the server has not received (on its way, or lost)', () => {
    const request = message('client', 'stdio', {
      method: 'tools/call',
      id: 41,
      params: { name: 'report', _meta: { progressToken: 'progress-41' } },
    });
    expect(check([request, message('server', 'stdio', { id: 41, result: {} })])).toContain('causality');
    expect(check([request, progress(1)])).toContain('causality');
    expect(
      check([{ ...request, lost: true } as typeof request, ev('stream-opened', { by: 'server', requestId: 41 })]),
    ).toContain('causality');
    expect(
      check([
        request,
        ev('delivered', { messageSeq: request.seq, from: 'client', to: 'server' }),
        progress(1),
        message('server', 'stdio', { id: 41, result: {} }),
      ]),
    ).toEqual([]);
  });
  it('causality: a listen the server cancels, or notifies on, before it received it', () => {
    const listen = message('client', 'stdio', { method: 'subscriptions/listen', id: 1, params: { notifications: {} } });
    const cancelsListen = message('server', 'stdio', { method: 'notifications/cancelled', params: { requestId: 1 } });
    const onSubscription = message('server', 'stdio', {
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 1 } },
    });
    expect(check([listen, cancelsListen])).toEqual(['causality']);
    expect(check([listen, onSubscription])).toEqual(['causality']);
    const arrives = ev('delivered', { messageSeq: listen.seq, from: 'client', to: 'server' });
    // The same two messages again, stamped after the arrival (the checker reads a run in seq order).
    const after = [onSubscription, cancelsListen].map((event) => ({ ...event, seq: seq++ }));
    expect(check([listen, arrives, ...after])).toEqual([]);
  });
  it('causality: a cancellation accepted, or a disconnect seen, before it reached the server', () => {
    const request = message('client', 'stdio', { method: 'tools/call', id: 41, params: { name: 'report' } });
    const arrives = ev('delivered', { messageSeq: request.seq, from: 'client', to: 'server' });
    expect(check([request, arrives, ev('cancel-accepted', { by: 'server', requestId: 41 })])).toEqual(['causality']);
    expect(check([request, ev('disconnect-observed', { by: 'server', requestId: 41 })])).toContain('causality');
    const cancel = message('client', 'stdio', { method: 'notifications/cancelled', params: { requestId: 41 } });
    expect(
      check([
        request,
        arrives,
        cancel,
        ev('delivered', { messageSeq: cancel.seq, from: 'client', to: 'server' }),
        ev('cancel-accepted', { by: 'server', requestId: 41 }),
      ]),
    ).toEqual([]);
  });

  it("refuses to judge a stream it was not built for: an event seen again, an event after the run's end, a request with no maximum", () => {
    const twice = new InvariantChecker({});
    const request = started();
    twice.observe(request);
    expect(() => twice.observe(request)).toThrow(/reads each event once, in order/);
    const ended = new InvariantChecker({});
    ended.finish('request-race', {});
    expect(() => ended.observe(terminal('completed'))).toThrow(/after the run finished/);
    expect(() => ended.finish('request-race', {})).toThrow(/finished a run twice/);
    const noMax = new InvariantChecker({});
    expect(() => noMax.observe(ev('request-started', { requestId: 42, idleTimeoutMs: 1000 }))).toThrow(
      /no maxTimeoutMs/,
    );
  });
});

describe('the request a response stream belongs to', () => {
  it('is what the pattern /^SSE #(.+)$/ captures, for every channel name', () => {
    const names = [
      'SSE #41',
      'SSE #',
      'SSE #a b',
      'SSE #x\ny',
      'SSE #\r',
      'SSE #\u2028',
      'SSE #1\u2029',
      'SSE 41',
      'sse #1',
      'POST #41',
      'xSSE #1',
      'SSE ##',
      '',
    ];
    for (const name of names) expect(sseStream(name), JSON.stringify(name)).toBe(/^SSE #(.+)$/.exec(name)?.[1]);
  });
});
