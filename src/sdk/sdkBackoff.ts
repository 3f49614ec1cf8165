import './zodJitless';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { ComponentProbe, LabError, runScenario, type HerdScenario, type RunOptions, type Transcript } from '../engine';
import { MCP_URL } from './sdkFetch';
import { SDK_HERD_SETTINGS } from './refusal';

/** The SDK lines whose client transport reconnects (the tasks extension's package has no transport of its own). */
export type ReconnectingSdk = 'ts-sdk' | 'ts-sdk-v2';

/** Where each SDK computes its reconnection delay (files under node_modules/@modelcontextprotocol/). */
export const SDK_BACKOFF_SOURCE: Readonly<Record<ReconnectingSdk, string>> = {
  'ts-sdk': 'sdk/dist/esm/client/streamableHttp.js:134-145 _getNextReconnectionDelay (defaults :7-12)',
  'ts-sdk-v2': 'client/dist/index.mjs:1552-1558 _getNextReconnectionDelay (defaults :1269-1274)',
};

/**
 * The SDK's own wait before reconnect attempt n of a Streamable HTTP stream: its client transport's
 * `_getNextReconnectionDelay`, called on a transport made with the default options (nothing is sent;
 * the transport is never started). Read from the installed package, not copied: if an SDK release
 * adds jitter, this function returns it.
 */
export function sdkReconnectionDelay(impl: ReconnectingSdk): (attempt: number) => number {
  const transport = impl === 'ts-sdk' ? new V1Transport(new URL(MCP_URL)) : new V2Transport(new URL(MCP_URL));
  const method: unknown = Reflect.get(transport, '_getNextReconnectionDelay');
  if (typeof method !== 'function')
    throw new LabError(
      'LAB026',
      `${impl}'s StreamableHTTPClientTransport has no _getNextReconnectionDelay; the lab cannot read its reconnection delay`,
    );
  return (attempt) => {
    const delayMs: unknown = Reflect.apply(method, transport, [attempt]);
    if (typeof delayMs !== 'number' || !Number.isFinite(delayMs))
      throw new LabError(
        'LAB026',
        `${impl}'s reconnection delay for attempt ${attempt} is ${String(delayMs)}, not a number of milliseconds`,
      );
    return delayMs;
  };
}

/**
 * The herd (10,000 clients reconnecting to a server that admits 500 per 100 ms) with every client
 * waiting the SDK's own reconnection delay instead of a policy: the model's herd, run through its
 * backoff seam (`components.backoffDelayMs`), so the admission, the windows and the traced client are
 * the lab's and only the waits are the SDK's. The settings that describe a policy are set to what the
 * SDK does, the nearest the herd's wording has (exponential, no jitter, base 1000 ms, cap 30000 ms);
 * the SDK's growth factor is 1.5, not 2, and its delay stays inside that ceiling. The herd's clock counts
 * whole milliseconds: a wait of 5062.5 ms (attempt 4) is 5062 ms.
 */
export function runSdkHerd(
  scenario: HerdScenario,
  impl: ReconnectingSdk,
  options: Pick<RunOptions, 'transport' | 'seed' | 'settings' | 'trace'>,
): Transcript<'herd'> {
  const delay = sdkReconnectionDelay(impl);
  const probe = new ComponentProbe();
  const settings = { ...options.settings, ...SDK_HERD_SETTINGS };
  const transcript = runScenario(scenario, {
    ...options,
    settings,
    components: { probe, backoffDelayMs: (_client, attempt) => Math.floor(delay(attempt)) },
  });
  if (probe.breaches.length > 0)
    throw new LabError(
      'LAB026',
      `${impl}'s reconnection delay left the herd's ceiling: ${probe.breaches[0]?.explanation ?? ''}`,
    );
  return { ...transcript, implementation: impl };
}
