import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useLabStore, type LabEvent, type LabState, type LedgerOutcome, type LedgerRow, type Transcript, type Transport } from '../store/labStore';
import { downloadFile } from './download';
import {
  aliasText,
  cellText,
  compactJson,
  describeEvent,
  factsRow,
  formatBytes,
  LEDGER_COUNTS,
  ledgerOutcome,
  outcomeRows,
  responseText,
  shortCell,
  TRANSPORT_LABELS,
} from './format';

/** The file name Export ledger saves under. */
const LEDGER_FILE_NAME = 'lab-ledger.sqlite';

const selectedKind = (state: LabState) => state.scenarios.find((scenario) => scenario.id === state.scenarioId)?.kind;

/** The first page: pick a scenario, transport and seed; the worker runs it; the page shows the transcript. */
export function App() {
  const status = useLabStore((state) => state.status);
  const transcript = useLabStore((state) => state.transcript);
  const error = useLabStore((state) => state.error);

  return (
    <main
      className="lab"
      data-status={status}
      data-scenario={transcript?.scenario}
      data-transport={transcript?.transport}
      data-seed={transcript?.seed}
    >
      <header className="lab-header">
        <h1>MCP Reliability Lab</h1>
        <p className="lab-tagline">What an application still owns on top of MCP (cancellation, timeouts, retries, idempotency), run on a virtual clock.</p>
      </header>
      <Controls />
      {error !== null && (
        <div role="alert" className="lab-alert">
          <strong>{error.code}</strong> {withoutCode(error.code, error.message)}
        </div>
      )}
      <ScenarioDescription />
      {transcript !== null && <Results transcript={transcript} stale={status === 'running'} />}
      <LedgerPanel />
    </main>
  );
}

/** LabError messages already start with their code; the alert shows the code once, in bold. */
function withoutCode(code: string, message: string): string {
  return message.startsWith(`${code} `) ? message.slice(code.length + 1) : message;
}

function Controls() {
  const scenarios = useLabStore((state) => state.scenarios);
  const scenarioId = useLabStore((state) => state.scenarioId);
  const transport = useLabStore((state) => state.transport);
  const seed = useLabStore((state) => state.seed);
  const selectScenario = useLabStore((state) => state.selectScenario);
  const setTransport = useLabStore((state) => state.setTransport);
  const setSeed = useLabStore((state) => state.setSeed);
  const keepLedger = useLabStore((state) => state.keepLedger);
  const setKeepLedger = useLabStore((state) => state.setKeepLedger);
  const kind = useLabStore(selectedKind);
  const run = useLabStore((state) => state.run);

  // What is typed may be momentarily unusable ("", "-"); the store gets every number, the engine
  // judges whether it is a valid seed (LAB003 shows in the alert).
  const [seedText, setSeedText] = useState(String(seed));
  const onSeed = (event: ChangeEvent<HTMLInputElement>) => {
    const text = event.target.value;
    setSeedText(text);
    if (text.trim() !== '' && Number.isFinite(Number(text))) setSeed(Number(text));
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run();
  };

  return (
    <form className="lab-controls" onSubmit={onSubmit}>
      <label className="lab-field">
        <span className="lab-label">Scenario</span>
        <select value={scenarioId} disabled={scenarios.length === 0} onChange={(event) => selectScenario(event.target.value)}>
          {scenarios.map((scenario) => (
            <option key={scenario.id} value={scenario.id}>
              {scenario.title}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="lab-field lab-transport">
        <legend className="lab-label">Transport</legend>
        {(Object.keys(TRANSPORT_LABELS) as Transport[]).map((value) => (
          <label key={value} className="lab-radio">
            <input type="radio" name="transport" value={value} checked={transport === value} onChange={() => setTransport(value)} />
            {TRANSPORT_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <label className="lab-field lab-seed">
        <span className="lab-label">Seed</span>
        <input type="number" inputMode="numeric" min={0} step={1} value={seedText} onChange={onSeed} />
      </label>
      {kind === 'ledger' && (
        <label className="lab-check">
          <input type="checkbox" checked={keepLedger} onChange={(event) => setKeepLedger(event.target.checked)} />
          Keep ledger between runs
        </label>
      )}
      <button type="submit" className="lab-run" disabled={scenarios.length === 0}>
        Run
      </button>
    </form>
  );
}

function ScenarioDescription() {
  const scenarios = useLabStore((state) => state.scenarios);
  const scenarioId = useLabStore((state) => state.scenarioId);
  const scenario = scenarios.find((candidate) => candidate.id === scenarioId);
  if (scenario === undefined) return null;
  return (
    <section className="lab-scenario" aria-label="Scenario description">
      <p className="lab-topic">{scenario.topic}</p>
      <p className="lab-summary">{scenario.summary}</p>
      <div className="lab-requirements">
        <span className="lab-label" id="requirements-label">
          Requirements
        </span>
        <ul aria-labelledby="requirements-label">
          {scenario.requirements.map((id) => (
            <li key={id}>{id}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Results({ transcript, stale }: { transcript: Transcript; stale: boolean }) {
  const facts = factsRow(transcript.outcome);
  const ledger = ledgerOutcome(transcript);
  return (
    <section className={stale ? 'lab-results is-stale' : 'lab-results'} aria-busy={stale}>
      <p className="lab-run-info">
        Scenario {transcript.scenario} on {TRANSPORT_LABELS[transcript.transport]}, seed {transcript.seed} ·{' '}
        {transcript.events.length} events · protocol {transcript.protocolVersion}
      </p>
      {ledger !== null ? (
        <LedgerOutcomeView outcome={ledger} />
      ) : facts === null ? (
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
      ) : (
        <table className="lab-facts">
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
              <td>{facts.terminalState}</td>
              <td>{facts.finalResponse}</td>
              <td>{facts.cancellationSignal}</td>
              <td>{facts.clientIgnores}</td>
            </tr>
          </tbody>
        </table>
      )}
      <h2 id="timeline-heading">Timeline</h2>
      <ol className="lab-timeline" aria-label="Timeline">
        {transcript.events.map((event) => (
          <TimelineItem key={event.seq} event={event} />
        ))}
      </ol>
    </section>
  );
}

function TimelineItem({ event }: { event: LabEvent }) {
  const ignored = ('ignoredBy' in event && event.ignoredBy !== undefined) || ('lost' in event && event.lost === true);
  const failed = event.kind === 'sql' && !event.ok;
  const className = ['lab-event', `kind-${event.kind}`, ignored ? 'is-ignored' : '', failed ? 'is-failed' : ''].filter(Boolean).join(' ');
  return (
    <li className={className}>
      <span className="lab-event-at">{event.atMs} ms</span>
      <span className="lab-event-sep"> · </span>
      <span className="lab-event-kind">{event.kind}</span>
      <span className="lab-event-sep"> · </span>
      <span className="lab-event-text">{describeEvent(event)}</span>
    </li>
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

/**
 * The ledger stored in this browser (IndexedDB), shown with ledger scenarios: its rows, its size, the
 * actions on it, and what a local ledger does and does not guarantee (LG-8).
 */
function LedgerPanel() {
  const kind = useLabStore(selectedKind);
  const ledger = useLabStore((state) => state.ledger);
  const status = useLabStore((state) => state.ledgerStatus);
  const error = useLabStore((state) => state.ledgerError);
  const keepLedger = useLabStore((state) => state.keepLedger);
  const importLedger = useLabStore((state) => state.importLedger);
  const exportLedger = useLabStore((state) => state.exportLedger);
  const resetLedger = useLabStore((state) => state.resetLedger);
  if (kind !== 'ledger') return null;

  const busy = status === 'busy';
  const onImport = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again is a new change.
    event.target.value = '';
    if (file !== undefined) void importLedger(file);
  };
  const onExport = async () => {
    const bytes = await exportLedger();
    if (bytes !== null) downloadFile(bytes, LEDGER_FILE_NAME, 'application/vnd.sqlite3');
  };

  return (
    <section className="lab-ledger" aria-labelledby="ledger-heading" aria-busy={busy} data-status={status}>
      <h2 id="ledger-heading">Ledger</h2>
      <p className="lab-ledger-info">
        {ledger === null
          ? 'Reading the ledger stored in this browser…'
          : ledger.stored
            ? `Stored in this browser (IndexedDB): a SQLite file of ${formatBytes(ledger.bytes)}.`
            : 'Nothing is stored in this browser yet.'}{' '}
        {keepLedger
          ? 'Each run of a ledger scenario opens this ledger and saves it back when the run completes.'
          : 'Each run starts from a fresh, empty ledger, so the same inputs give the same transcript; tick “Keep ledger between runs” to run on this one instead.'}
      </p>
      <div className="lab-ledger-actions">
        <button type="button" className="lab-button" disabled={busy} onClick={() => void onExport()}>
          Export ledger
        </button>
        <label className={busy ? 'lab-button is-disabled' : 'lab-button'}>
          <input
            type="file"
            className="lab-file-input"
            accept=".sqlite,.sqlite3,.db,application/vnd.sqlite3,application/x-sqlite3"
            disabled={busy}
            onChange={onImport}
          />
          Import ledger
        </label>
        <button type="button" className="lab-button" disabled={busy || ledger?.stored !== true} onClick={() => void resetLedger()}>
          Reset ledger
        </button>
      </div>
      {error !== null && (
        <div role="alert" className="lab-alert">
          {error.action} <strong>{error.code}</strong> {withoutCode(error.code, error.message)}
        </div>
      )}
      {ledger !== null && (
        <>
          <LedgerTable caption="Idempotency keys" rows={ledger.idempotencyKeys} empty="No key recorded." />
          <LedgerTable caption="Effects" rows={ledger.effects} empty="No effect committed." />
          <LedgerTable caption="Executions" rows={ledger.executions} empty="Nothing executed." />
          <aside className="lab-scope" aria-labelledby="scope-heading">
            <h3 id="scope-heading">Scope of this ledger (LG-8)</h3>
            <ul>
              {ledger.scopeNotes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </aside>
        </>
      )}
    </section>
  );
}

/** One SQLite table as stored: its column names as SQL has them, one row per record. */
function LedgerTable({ caption, rows, empty }: { caption: string; rows: LedgerRow[]; empty: string }) {
  const columns = rows[0] === undefined ? [] : Object.keys(rows[0]);
  return (
    <div className="lab-scroll">
      {/* Named by the table alone ("Effects"), so the name stays put as the row count changes. */}
      <table className="lab-table lab-ledger-table" aria-label={caption}>
        <caption>
          {caption} <span className="lab-count">({rows.length === 1 ? '1 row' : `${rows.length} rows`})</span>
        </caption>
        {columns.length > 0 && (
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  <ColumnName name={column} />
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td className="lab-empty">{empty}</td>
            </tr>
          ) : (
            rows.map((row, index) => (
              <tr key={index}>
                {columns.map((column) => {
                  const value = row[column] ?? null;
                  const text = cellText(value);
                  return (
                    <td key={column} title={text} className={/^[[{]/.test(text) ? 'is-json' : undefined}>
                      {shortCell(value)}
                    </td>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A SQL column name that may wrap after its underscores (committed_at_ms) when the table is tight. */
function ColumnName({ name }: { name: string }) {
  const parts = name.split('_');
  // Each piece is an inline block: lines may break between them where white-space allows (not wide screens).
  return parts.map((part, index) => (
    <span key={index} className="lab-column-part">
      {index < parts.length - 1 ? `${part}_` : part}
    </span>
  ));
}
