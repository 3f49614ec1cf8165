import { usePanelsStore } from '../../store/panels';
import { LoadState } from './LoadState';

/** docs/requirements.md#proxies-and-recovery-rv (RV-1 … RV-3): SSE headers through a proxy, keep-alives, and the reconnect plan. */
export function ProxyPanel() {
  const honour = usePanelsStore((s) => s.honourNoBuffering);
  const setHonour = usePanelsStore((s) => s.setHonourNoBuffering);
  const load = usePanelsStore((s) => s.proxy);
  const value = 'value' in load ? load.value : null;
  return (
    <section className="panel" aria-labelledby="proxy-title">
      <h2 id="proxy-title">Proxy and reconnect</h2>
      <div className="panel-sliders">
        <label className="panel-check">
          <input type="checkbox" checked={honour} onChange={(e) => setHonour(e.target.checked)} /> Proxy honours
          X-Accel-Buffering: no
        </label>
      </div>
      <LoadState load={load} />
      {value !== null && (
        <div className="panel-columns">
          <div>
            <h3>SSE response headers</h3>
            <dl className="panel-numbers" data-testid="sse-headers">
              {Object.entries(value.proxy.outcome.sseHeaders ?? {}).map(([name, v]) => (
                <div key={name}>
                  <dt>{name}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
            <h3>Keep-alive and idle policy</h3>
            <dl className="panel-numbers">
              <div>
                <dt>Keep-alive comment every</dt>
                <dd>
                  {value.proxy.keepAliveEveryMs === null || value.proxy.keepAliveEveryMs === 0
                    ? 'never'
                    : `${value.proxy.keepAliveEveryMs} ms`}
                </dd>
              </div>
              <div>
                <dt>Idle timeout</dt>
                <dd>{value.proxy.idleTimeoutMs ?? '—'} ms (comments do not reset it)</dd>
              </div>
              <div>
                <dt>Request ended as</dt>
                <dd data-testid="proxy-ended">{value.proxy.outcome.requestEndedAs}</dd>
              </div>
              <div>
                <dt>Progress delivered</dt>
                <dd>
                  {value.proxy.outcome.progressDelivered} of {value.proxy.outcome.progressSent}
                </dd>
              </div>
              <div>
                <dt>Longest silence</dt>
                <dd>{value.proxy.outcome.longestSilenceMs} ms</dd>
              </div>
            </dl>
          </div>
          <div>
            <h3>Reconnect plan</h3>
            <dl className="panel-numbers" data-testid="reconnect-plan">
              <div>
                <dt>New listen request id</dt>
                <dd>
                  {value.reconnect.outcome.reconnectPlan.newRequestId} (was{' '}
                  {value.reconnect.outcome.reconnectPlan.previousRequestId})
                </dd>
              </div>
              <div>
                <dt>Refetches</dt>
                <dd>{value.reconnect.outcome.reconnectPlan.refetch.join(', ')}</dd>
              </div>
              <div>
                <dt>Sends Last-Event-ID</dt>
                <dd>{value.reconnect.outcome.reconnectPlan.sendLastEventId ? 'yes' : 'no'}</dd>
              </div>
              <div>
                <dt>Replays unsafe mutations</dt>
                <dd>
                  {value.reconnect.outcome.reconnectPlan.replayUnsafeMutations ? 'yes' : 'no — reconciles instead'}
                </dd>
              </div>
              <div>
                <dt>Messages lost while down</dt>
                <dd>{value.reconnect.outcome.messagesLost}</dd>
              </div>
            </dl>
          </div>
        </div>
      )}
    </section>
  );
}
