import type { Transcript } from '../../store/labStore';

/**
 * Issue #13: said wherever a run of the real SDK appears. Which SDK ran, the protocol revision it
 * negotiated (older than the model's), and, since its messages are not validated against the lab's
 * schema, the invariants checked on its transcript instead: each with whether it holds.
 */
export function SdkRun({ transcript }: { transcript: Transcript }) {
  const sdk = transcript.sdk;
  if (sdk === undefined) return null;
  const broken = sdk.invariants.filter((check) => !check.holds).length;
  return (
    <section className="lab-sdk" aria-label="Real SDK run">
      <p className="lab-sdk-lead">
        Run by the real <strong>{sdk.package} {sdk.version}</strong> on the virtual clock. It negotiated protocol <strong>{sdk.negotiatedProtocolVersion}</strong>, an older revision than
        the model’s; its session handshake is shown at 0 ms. Its messages are checked against the invariants below, not against the model’s schema.
      </p>
      <details className="lab-sdk-invariants" open={broken > 0}>
        <summary>
          Invariants: {sdk.invariants.length - broken} hold, {broken} broken
        </summary>
        <ul>
          {sdk.invariants.map((check) => (
            <li key={check.id} className={check.holds ? 'is-holds' : 'is-broken'}>
              <span className="lab-sdk-verdict">{check.holds ? 'holds' : 'broken'}</span> <strong>{check.id}</strong>: {check.statement}. <span className="lab-sdk-detail">{check.detail}</span>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
