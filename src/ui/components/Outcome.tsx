import type { Transcript } from '../../engine';
import { usePredictHides } from '../panels/predictPhase';
import { withBreaks } from './breaks';
import { useRunStore, type LedgerOutcome, type RequestOutcome } from '../../store/runStore';
import { RecordingFacts } from '../recording/RecordingFacts';
import {
  aliasText,
  clientRecordText,
  compactJson,
  factsRowAt,
  ledgerOutcome,
  LEDGER_COUNTS,
  outcomeRows,
  PENDING,
  responseText,
} from '../format';

/**
 * What the run established. For a request race, the four recorded facts (docs/requirements.md#the-race-and-its-four-recorded-facts), filled in as
 * the replay reaches the event behind each; for a ledger run, its counts and responses; for other
 * models, their outcome's fields.
 */
export function Outcome({ transcript }: { transcript: Transcript }) {
  const step = useRunStore((state) => state.step);
  const reached = useRunStore((state) => state.facts);
  const facts = factsRowAt(transcript, reached, step);
  const ledger = ledgerOutcome(transcript);
  const hidden = usePredictHides();
  if (transcript.kind === 'recording') return <RecordingFacts transcript={transcript} />;
  // A ledger run's counts are its ending; while the room predicts they wait for the reveal.
  if (ledger !== null && hidden) {
    return (
      <p className="lab-facts lab-outcome is-pending" data-hidden-by="predict">
        Outcome: pending. The counts show after the reveal.
      </p>
    );
  }
  if (ledger !== null) return <LedgerOutcomeView outcome={ledger} />;
  if (facts === null) {
    return (
      <table className="lab-facts lab-outcome">
        <caption>Outcome</caption>
        <tbody>
          {outcomeRows(transcript.outcome).map(([key, value]) => (
            <tr key={key}>
              {/* A field name ("progressDelivered") may break before a capital. */}
              <th scope="row">{withBreaks(key, /(?=[A-Z])/)}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  // A long value ("notifications/cancelled") may break after a slash, never inside a word.
  const cell = (value: string) => (
    <td className={value === PENDING ? 'is-pending' : undefined}>{withBreaks(value, /(?<=\/)/)}</td>
  );
  const client = clientOutcomeAt(transcript, step);
  return (
    <table className="lab-facts lab-race-facts">
      <caption>Recorded facts</caption>
      <thead>
        <tr>
          <th scope="col">Terminal state</th>
          <th scope="col">Final response</th>
          <th scope="col">Cancellation signal</th>
          <th scope="col">Client ignores</th>
          <th scope="col">Client outcome</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          {cell(facts.terminalState)}
          {cell(facts.finalResponse)}
          {cell(facts.cancellationSignal)}
          {cell(facts.clientIgnores)}
          <td
            className={client.text === PENDING ? 'is-pending' : client.diverges ? 'is-diverged' : undefined}
            title={client.title}
          >
            {client.text}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/**
 * RC-8: the client's own ending (the engine's `clientOutcome`), shown once the replay passes the
 * client's own `state` event that ended its view; "(views diverge)" when the server completed and
 * the client never used the response, as the engine recorded it, once the replay reaches the event
 * that records it (never ahead of the replay).
 */
function clientOutcomeAt(
  transcript: Transcript,
  step: number,
): { text: string; diverges: boolean; title: string | undefined } {
  const outcome = transcript.outcome as RequestOutcome;
  const ended = transcript.events.findIndex(
    (event) =>
      event.kind === 'state' && event.side === 'client' && (event.to === 'settled' || event.to === 'abandoned'),
  );
  if (ended < 0 || ended >= step) return { text: PENDING, diverges: false, title: undefined };
  const divergedAt = transcript.events.findIndex((event) => event.kind === 'views-diverge');
  const diverges = outcome.viewsDiverge === true && divergedAt >= 0 && divergedAt < step;
  return {
    text: `${diverges ? `${outcome.clientOutcome} (views diverge)` : outcome.clientOutcome}${(outcome.cancelDelayMs ?? 0) > 0 ? `; cancel sent ${String(outcome.cancelDelayMs)} ms later` : ''}`,
    diverges,
    title: diverges
      ? `The server completed and sent its response at ${outcome.terminalAtMs} ms; the client ended ${outcome.clientOutcome} at ${outcome.clientOutcomeAtMs} ms and never uses it.`
      : undefined,
  };
}

/** A ledger run's outcome: the counts as one row of numbers, then what each request got back. */
function LedgerOutcomeView({ outcome }: { outcome: LedgerOutcome }) {
  return (
    <>
      <div className="lab-scroll">
        <table className="lab-facts lab-counts">
          <caption>Outcome</caption>
          <thead>
            <tr>
              {LEDGER_COUNTS.map(([field, label]) => (
                <th key={field} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              {LEDGER_COUNTS.map(([field]) => (
                <td key={field}>{outcome[field]}</td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <div className="lab-scroll">
        <table className="lab-table lab-responses">
          <caption>Responses</caption>
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">Connection</th>
              <th scope="col">Status</th>
              <th scope="col">What the client got</th>
            </tr>
          </thead>
          <tbody>
            {outcome.responses.map((response) => (
              <tr key={`${String(response.requestId)}-${response.connection}`}>
                <td>#{String(response.requestId)}</td>
                <td>{response.connection}</td>
                <td>
                  <span className={`lab-status status-${response.status}`}>{response.status}</span>
                </td>
                <td className="is-json">{responseText(response)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {outcome.clientRecord !== undefined && <ClientRecord calls={outcome.clientRecord} />}
      <LedgerStored outcome={outcome} />
    </>
  );
}

/** What the client knows of each call, beside what the server did. */
function ClientRecord({ calls }: { calls: NonNullable<LedgerOutcome['clientRecord']> }) {
  return (
    <div className="lab-scroll">
      <table className="lab-table lab-client-record">
        <caption>What the client knows</caption>
        <thead>
          <tr>
            <th scope="col">Request</th>
            <th scope="col">Client&apos;s record</th>
            <th scope="col">Server did</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((call) => (
            <tr key={String(call.requestId)} title={call.tool}>
              <td>#{String(call.requestId)}</td>
              <td>{clientRecordText(call)}</td>
              <td>{call.server}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="lab-client-record-note">
        Unknown: no answer by the client&apos;s deadline, so it cannot tell whether the call ran (not failed).
      </p>
    </div>
  );
}

/** What the ledger ended up holding: a duplicated effect, the stored result, a replay after aliasing, a secret. */
function LedgerStored({ outcome }: { outcome: LedgerOutcome }) {
  const alias = aliasText(outcome.aliasIntact);
  return (
    <dl className="lab-stored">
      {outcome.duplicateEffect !== undefined && (
        <>
          <dt>Duplicated effect</dt>
          <dd data-testid="ledger-duplicate">
            {outcome.duplicateEffect === null
              ? 'none: the effect ran at most once'
              : `${outcome.duplicateEffect.requestIds.map((id) => `#${String(id)}`).join(' and ')}: ${outcome.duplicateEffect.detail}`}
          </dd>
        </>
      )}
      <dt>Stored result for the key</dt>
      <dd className="lab-json">
        {outcome.storedResult === null ? 'none (no key, or nothing committed)' : compactJson(outcome.storedResult)}
      </dd>
      {alias !== null && (
        <>
          <dt>Replay after the caller mutated its copy</dt>
          <dd>{alias}</dd>
        </>
      )}
      {outcome.paymentTokenInLedger !== null && outcome.paymentTokenInLedger !== undefined && (
        <>
          <dt>Payment token in the ledger (LG-P5)</dt>
          <dd data-testid="ledger-secret">
            {outcome.paymentTokenInLedger
              ? 'FOUND: a secret was stored'
              : 'absent — the call carried paymentToken on the wire; no ledger row and no returned result holds it'}
          </dd>
        </>
      )}
    </dl>
  );
}
