import { useState, type ChangeEvent } from 'react';
import { useLabStore, type LedgerRow } from '../../store/labStore';
import { downloadFile } from '../download';
import { cellText, formatBytes, shortCell } from '../format';
import { selectedKind, withoutCode } from './selectors';

/** The file name Export ledger saves under. */
const LEDGER_FILE_NAME = 'lab-ledger.sqlite';

/**
 * The ledger stored in this browser (IndexedDB), shown with ledger scenarios: its rows, its size, the
 * actions on it, and what a local ledger does and does not guarantee (LG-8).
 */
export function LedgerPanel() {
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
          <LedgerTable caption="Idempotency keys" rows={ledger.idempotencyKeys} total={ledger.totals?.idempotencyKeys ?? ledger.idempotencyKeys.length} empty="No key recorded." />
          <LedgerTable caption="Effects" rows={ledger.effects} total={ledger.totals?.effects ?? ledger.effects.length} empty="No effect committed." />
          <LedgerTable caption="Executions" rows={ledger.executions} total={ledger.totals?.executions ?? ledger.executions.length} empty="Nothing executed." />
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

/** Rows drawn at once: an imported ledger may hold 200,000, and drawing each froze the page for minutes (issue #14). */
export const LEDGER_PAGE_ROWS = 50;

/** One SQLite table as stored: its column names as SQL has them, one row per record, a page at a time. */
function LedgerTable({ caption, rows: allRows, total, empty }: { caption: string; rows: LedgerRow[]; total: number; empty: string }) {
  const [pageWanted, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(allRows.length / LEDGER_PAGE_ROWS));
  const page = Math.min(pageWanted, pages - 1);
  const first = page * LEDGER_PAGE_ROWS;
  const rows = allRows.slice(first, first + LEDGER_PAGE_ROWS);
  const columns = rows[0] === undefined ? [] : Object.keys(rows[0]);
  return (
    <div className="lab-scroll">
      {pages > 1 && (
        <nav className="lab-pager" aria-label={`${caption} pages`}>
          <button type="button" className="lab-button" disabled={page === 0} onClick={() => setPage(page - 1)} aria-label={`${caption}: previous rows`}>
            Previous
          </button>
          <span className="lab-pager-info">
            Rows {(first + 1).toLocaleString('en')}–{(first + rows.length).toLocaleString('en')} of {total.toLocaleString('en')}
            {total > allRows.length && ` (the first ${allRows.length.toLocaleString('en')} are shown here; Export ledger has them all)`}
          </span>
          <button type="button" className="lab-button" disabled={page >= pages - 1} onClick={() => setPage(page + 1)} aria-label={`${caption}: next rows`}>
            Next
          </button>
        </nav>
      )}
      {/* Named by the table alone ("Effects"), so the name stays put as the row count changes. */}
      <table className="lab-table lab-ledger-table" aria-label={caption}>
        <caption>
          {caption} <span className="lab-count">({total === 1 ? '1 row' : `${total.toLocaleString('en')} rows`})</span>
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
          {allRows.length === 0 ? (
            <tr>
              <td className="lab-empty">{empty}</td>
            </tr>
          ) : (
            rows.map((row, index) => (
              <tr key={first + index}>
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
