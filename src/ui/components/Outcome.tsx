import { Fragment } from 'react';
import { useLabStore, type LedgerOutcome, type Transcript } from '../../store/labStore';
import { aliasText, compactJson, factsRowAt, ledgerOutcome, LEDGER_COUNTS, outcomeRows, PENDING, responseText } from '../format';

/**
 * What the run established. For a request race, the four recorded facts (SPEC §7), filled in as
 * the replay reaches the event behind each; for a ledger run, its counts and responses; for other
 * models, their outcome's fields.
 */
export function Outcome({ transcript }: { transcript: Transcript }) {
  const step = useLabStore((state) => state.step);
  const reached = useLabStore((state) => state.facts);
  const facts = factsRowAt(transcript, reached, step);
  const ledger = ledgerOutcome(transcript);
  if (ledger !== null) return <LedgerOutcomeView outcome={ledger} />;
  if (facts === null) {
    return (
      <table className="lab-facts lab-outcome">
        <caption>Outcome</caption>
        <tbody>
          {outcomeRows(transcript.outcome).map(([key, value]) => (
            <tr key={key}>
              <th scope="row">{key}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  // A long value ("notifications/cancelled") may break after a slash, never inside a word.
  const cell = (value: string) => (
    <td className={value === PENDING ? 'is-pending' : undefined}>
      {value.split('/').map((part, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <>
              /<wbr />
            </>
          )}
          {part}
        </Fragment>
      ))}
    </td>
  );
  return (
    <table className="lab-facts lab-race-facts">
      <caption>Recorded facts</caption>
      <thead>
        <tr>
          <th scope="col">Terminal state</th>
          <th scope="col">Final response</th>
          <th scope="col">Cancellation signal</th>
          <th scope="col">Client ignores</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          {cell(facts.terminalState)}
          {cell(facts.finalResponse)}
          {cell(facts.cancellationSignal)}
          {cell(facts.clientIgnores)}
        </tr>
      </tbody>
    </table>
  );
}

/** A ledger run's outcome: the counts as one row of numbers, then what each request got back. */
function LedgerOutcomeView({ outcome }: { outcome: LedgerOutcome }) {
  const alias = aliasText(outcome.aliasIntact);
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
      <dl className="lab-stored">
        <dt>Stored result for the key</dt>
        <dd className="lab-json">{outcome.storedResult === null ? 'none (no key, or nothing committed)' : compactJson(outcome.storedResult)}</dd>
        {alias !== null && (
          <>
            <dt>Replay after the caller mutated its copy</dt>
            <dd>{alias}</dd>
          </>
        )}
      </dl>
    </>
  );
}
