import { herdDefaults } from '../engine';
import type { HerdScenario } from '../engine';

/** docs/requirements.md RV-4 and RV-5: 10,000 clients reconnect at once to a server that admits 500 per 100 ms. */
export const herd: HerdScenario = {
  id: 'herd',
  kind: 'herd',
  title: 'Thundering herd — 10,000 reconnects, with and without jitter',
  topic: 'Proxies and recovery',
  summary:
    '10,000 clients lose their streams at the same instant and reconnect to a recovering server that admits 500 ' +
    'connections per 100 ms and refuses the rest. Each refused client waits its backoff and tries again. With policy=none ' +
    'or exponential (no jitter) the clients stay in lockstep and every wave hits the server together; with full jitter ' +
    '(the default: attempt n waits a random amount up to min(8000, 250·2ⁿ) ms, drawn from the client id and attempt; ' +
    'attempt 0 too, up to 250 ms) they spread out and need far fewer attempts. Set initialJitter=false to see the ' +
    "stampede: every client's first attempt at 0 ms, whatever the policy. The outcome gives the first window and the " +
    'highest retry wave separately. No backoff finishes soonest on the clock — it keeps every window full and reaches the ' +
    'admission floor — but only by hitting the server with the most attempts, most of them refusals it must still process.',
  requirements: ['RV-4', 'RV-5'],
  defaultTransport: 'http',
  settings: { ...herdDefaults },
};
