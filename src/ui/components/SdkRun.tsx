import type { Transcript } from '../../engine';
import { TS_SDK_V2_PROTOCOL_VERSION, V2_SCHEMA_FINDINGS } from '../../store/runStore';

/**
 * Said wherever a run of a real SDK appears. Which SDK ran, the protocol revision it negotiated (1.x:
 * older than the model's, so its messages are not held to the lab's schema; v2: the model's own, and
 * the schema findings of the lab's tests), and the invariants checked on its transcript: each with
 * whether it holds.
 */
export function SdkRun({ transcript }: { transcript: Transcript }) {
  const sdk = transcript.sdk;
  if (sdk === undefined) return null;
  const broken = sdk.invariants.filter((check) => !check.holds).length;
  return (
    <section className="lab-sdk" aria-label="Real SDK run">
      {sdk.negotiatedProtocolVersion === TS_SDK_V2_PROTOCOL_VERSION ? (
        <p className="lab-sdk-lead">
          Run by the real{' '}
          <strong>
            {sdk.package} {sdk.version}
          </strong>{' '}
          on the virtual clock. It negotiated protocol <strong>{sdk.negotiatedProtocolVersion}</strong>, the model’s own
          revision; its server/discover probe is shown at 0 ms. The lab’s tests hold every message it sends on A–D to
          the 2026-07-28 schema:{' '}
          {V2_SCHEMA_FINDINGS.length === 0
            ? 'all validate.'
            : `${V2_SCHEMA_FINDINGS.length} finding(s): ${V2_SCHEMA_FINDINGS.map((f) => `${f.finding} (${f.why})`).join('; ')}.`}
        </p>
      ) : (
        <p className="lab-sdk-lead">
          Run by the real{' '}
          <strong>
            {sdk.package} {sdk.version}
          </strong>{' '}
          on the virtual clock. It negotiated protocol <strong>{sdk.negotiatedProtocolVersion}</strong>, an older
          revision than the model’s; its session handshake is shown at 0 ms. Its messages are checked against the
          invariants below, not against the model’s schema.
        </p>
      )}
      <details className="lab-sdk-invariants" open={broken > 0}>
        <summary>
          Invariants: {sdk.invariants.length - broken} hold, {broken} broken
        </summary>
        <ul>
          {sdk.invariants.map((check) => (
            <li key={check.id} className={check.holds ? 'is-holds' : 'is-broken'}>
              <span className="lab-sdk-verdict">{check.holds ? 'holds' : 'broken'}</span> <strong>{check.id}</strong>:{' '}
              {check.statement}. <span className="lab-sdk-detail">{check.detail}</span>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
