// Proves the RequestCoordinator's lifecycle rules RC-1 … RC-9 directly, with explicit virtual times and no transport.
import { describe, expect, it } from 'vitest';
import { InvariantError } from '../core/assert';
import { RequestCoordinator } from './coordinator';

function started(options: Partial<{ idleTimeoutMs: number; maxTimeoutMs: number; progressToken: string | null }> = {}) {
  const coordinator = new RequestCoordinator();
  coordinator.start(41, {
    atMs: 0,
    progressToken: options.progressToken === undefined ? 'tok-41' : options.progressToken,
    idleTimeoutMs: options.idleTimeoutMs ?? 500,
    maxTimeoutMs: options.maxTimeoutMs ?? 2000,
  });
  return coordinator;
}

describe('RC-1 two deadlines', () => {
  it('starts a request with an idle deadline and a maximum deadline', () => {
    const c = started();
    expect(c.idleDueAtMs(41)).toBe(500);
    expect(c.maxDueAtMs(41)).toBe(2000);
    expect(c.isActive(41, 499)).toBe(true);
  });

  it('the idle deadline alone ends a request with no activity', () => {
    const c = started();
    expect(c.clientExpire(41, 499)).toBeNull();
    expect(c.clientExpire(41, 500)).toBe('idle');
    expect(c.terminal(41)).toEqual({ state: 'timeout-idle', atMs: 500 });
  });
});

describe('RC-2 progress resets the idle clock, never the maximum clock (worked example)', () => {
  it('is still active at 1500 ms and times out at 2000 ms although progress came at 1999 ms', () => {
    const c = started({ idleTimeoutMs: 500, maxTimeoutMs: 2000 });
    for (const [value, atMs] of [
      [1, 400],
      [2, 800],
      [3, 1200],
    ] as const)
      expect(c.clientProgress(41, value, atMs)).toEqual({ accepted: true });
    expect(c.isActive(41, 1500)).toBe(true);
    expect(c.clientExpire(41, 1500)).toBeNull();
    expect(c.idleDueAtMs(41)).toBe(1700);
    expect(c.clientProgress(41, 4, 1600)).toEqual({ accepted: true });
    expect(c.clientProgress(41, 5, 1999)).toEqual({ accepted: true });
    expect(c.maxDueAtMs(41)).toBe(2000);
    expect(c.idleDueAtMs(41)).toBe(2499);
    expect(c.isActive(41, 2000)).toBe(false);
    expect(c.clientExpire(41, 2000)).toBe('max');
    expect(c.terminal(41)).toEqual({ state: 'timeout-max', atMs: 2000 });
  });
});

describe('RC-3 progress strictly increases and stops at a terminal state', () => {
  it('rejects a non-increasing value without sending it', () => {
    const c = started();
    expect(c.serverProgress(41, 1)).toEqual({ accepted: true });
    expect(c.serverProgress(41, 1).accepted).toBe(false);
    expect(c.serverProgress(41, 0.5).accepted).toBe(false);
    expect(c.serverProgress(41, 2)).toEqual({ accepted: true });
  });

  it('rejects progress after the server completed or accepted a cancellation', () => {
    const completed = started();
    expect(completed.serverComplete(41, 100)).toBe(true);
    expect(completed.serverProgress(41, 1)).toMatchObject({
      accepted: false,
      reason: expect.stringMatching(/completed/),
    });
    const cancelled = started();
    expect(cancelled.serverCancel({ requestId: 41 }, 50).accepted).toBe(true);
    expect(cancelled.serverProgress(41, 1)).toMatchObject({
      accepted: false,
      reason: expect.stringMatching(/cancelled/),
    });
  });

  it('the client ignores non-increasing progress and progress after it abandoned the request', () => {
    const c = started();
    expect(c.clientProgress(41, 2, 10).accepted).toBe(true);
    expect(c.clientProgress(41, 2, 20).accepted).toBe(false);
    expect(c.idleDueAtMs(41)).toBe(510);
    c.clientAbandon(41, 30);
    expect(c.clientProgress(41, 3, 30).accepted).toBe(false);
  });
});

describe('RC-4 a progress token is optional to honour and never makes the timeout infinite', () => {
  it('a request whose server sends no progress still times out', () => {
    const c = started({ progressToken: 'tok' });
    expect(c.clientExpire(41, 500)).toBe('idle');
  });
  it('a request without a token cannot be sent progress', () => {
    const c = started({ progressToken: null });
    expect(c.serverProgress(41, 1)).toMatchObject({ accepted: false, reason: expect.stringMatching(/progressToken/) });
  });
});

describe('RC-6 / RC-8 cancellation wins: complete() after cancel returns no response', () => {
  it('suppresses the response and stores one terminal state', () => {
    const c = started();
    c.clientAbandon(41, 30);
    expect(c.serverCancel({ requestId: 41, reason: 'User closed the operation' }, 105).accepted).toBe(true);
    expect(c.serverComplete(41, 200)).toBe(false);
    expect(c.terminal(41)).toEqual({ state: 'cancelled', atMs: 105 });
  });
});

describe('RC-8 completion wins: the late cancellation and the late response are ignored', () => {
  it('keeps the completed state and ignores the cancel', () => {
    const c = started();
    expect(c.serverComplete(41, 200)).toBe(true);
    expect(c.clientAbandon(41, 207).accepted).toBe(true);
    const verdict = c.serverCancel({ requestId: 41 }, 212);
    expect(verdict.accepted).toBe(false);
    expect(c.clientResponse(41, 210)).toMatchObject({ accepted: false, reason: expect.stringMatching(/abandoned/) });
    expect(c.terminal(41)).toEqual({ state: 'completed', atMs: 200 });
  });

  it('refuses to record a second terminal state (the invariant is asserted, not assumed)', () => {
    const c = started();
    c.serverComplete(41, 10);
    expect(() => c.serverComplete(41, 20)).toThrow(InvariantError);
  });
});

describe('RC-7 malformed, unknown and finished cancellations are ignored without error', () => {
  const cases: Array<[string, unknown]> = [
    ['params missing', undefined],
    ['params not an object', 'cancel 41'],
    ['requestId missing', { reason: 'x' }],
    ['requestId ill-typed (object)', { requestId: { id: 41 } }],
    ['requestId ill-typed (fraction)', { requestId: 41.5 }],
    ['requestId ill-typed (null)', { requestId: null }],
    ['unknown request', { requestId: 99 }],
    ['string id of a numeric request', { requestId: '41' }],
  ];
  for (const [name, params] of cases) {
    it(name, () => {
      const c = started();
      const verdict = c.serverCancel(params, 10);
      expect(verdict.accepted).toBe(false);
      expect(c.get(41)?.server).toBe('active');
      expect(c.terminal(41)).toBeNull();
    });
  }
  it('already finished', () => {
    const c = started();
    c.serverComplete(41, 10);
    expect(c.serverCancel({ requestId: 41 }, 20)).toMatchObject({
      accepted: false,
      reason: expect.stringMatching(/already completed/),
    });
  });
  it('already cancelled', () => {
    const c = started();
    c.serverCancel({ requestId: 41 }, 10);
    expect(c.serverCancel({ requestId: 41 }, 20)).toMatchObject({
      accepted: false,
      reason: expect.stringMatching(/already was cancelled/),
    });
  });
});

describe('RC-9 server-initiated cancellation is only for subscriptions/listen', () => {
  it('ends an open listen call', () => {
    const c = new RequestCoordinator();
    c.openListen('listen-1', 0);
    expect(c.serverEndListen('listen-1', 30)).toEqual({ accepted: true });
    expect(c.terminal('listen-1')).toEqual({ state: 'cancelled', atMs: 30 });
  });
  it('refuses to cancel an ordinary request, which stays active', () => {
    const c = started();
    expect(c.serverEndListen(41, 30)).toMatchObject({ accepted: false, reason: expect.stringMatching(/MUST NOT/) });
    expect(c.get(41)?.server).toBe('active');
  });
});
