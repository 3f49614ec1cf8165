import { proxyBufferingDefaults } from '../engine';
import type { ProxyScenario } from '../engine';

/** docs/requirements.md#proxies-and-recovery-rv and #failure-modes-each-runnable-next-to-its-fix: a buffering reverse proxy turns steady progress into silence and bursts and trips the idle timeout (RV-1, RV-2). */
export const proxyBuffering: ProxyScenario = {
  id: 'proxy-buffering',
  kind: 'proxy',
  title: 'Proxy buffering — steady progress arrives late, in bursts, after the idle timeout',
  topic: 'Proxies and recovery',
  summary:
    "The server sends progress every second on the request's SSE stream, with the headers Content-Type: text/event-stream, " +
    'Cache-Control: no-cache and X-Accel-Buffering: no. A reverse proxy that ignores X-Accel-Buffering holds the events ' +
    'until it has 8 of them, so the client sees nothing for 5 s and its idle timeout fires although the server was working. ' +
    'Set honourNoBuffering=true: the proxy forwards each event at once and the call completes. Set progressEveryMs=0 to ' +
    'see keep-alive comment lines (":") on a quiet stream: proxies see traffic, but the client\'s idle timer does not move.',
  requirements: ['RV-1', 'RV-2'],
  defaultTransport: 'http',
  settings: { ...proxyBufferingDefaults },
  expected: {
    buffering: { requestEndedAs: 'timeout-idle', idleTimeoutFired: true },
    honoured: { requestEndedAs: 'completed', idleTimeoutFired: false },
  },
};
