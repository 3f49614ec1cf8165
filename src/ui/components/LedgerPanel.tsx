import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useRunStore, type LedgerRow, type LedgerTable, type LedgerView } from '../../store/runStore';
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
  const kind = useRunStore(selectedKind);
  const ledger = useRunStore((state) => state.ledger);
  const status = useRunStore((state) => state.ledgerStatus);
  const error = useRunStore((state) => state.ledgerError);
  const keepLedger = useRunStore((state) => state.keepLedger);
  const importLedger = useRunStore((state) => state.importLedger);
  const exportLedger = useRunStore((state) => state.exportLedger);
  const resetLedger = useRunStore((state) => state.resetLedger);
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
          ? error !== null
            ? 'The ledger stored in this browser cannot be read: Reset ledger deletes it and starts an empty one, Import ledger replaces it.'
            : 'Reading the ledger stored in this browser…'
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
        {/* A stored ledger the worker cannot read is still stored: Reset is the way out the error names. */}
        <button
          type="button"
          className="lab-button"
          disabled={busy || (ledger === null ? error === null : !ledger.stored)}
          onClick={() => void resetLedger()}
        >
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
          <LedgerTable caption="Idempotency keys" table="idempotencyKeys" ledger={ledger} empty="No key recorded." />
          <LedgerTable caption="Effects" table="effects" ledger={ledger} empty="No effect committed." />
          <LedgerTable caption="Executions" table="executions" ledger={ledger} empty="Nothing executed." />
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

/** Rows drawn at once: an imported ledger may hold 200,000, and drawing each freezes the page for minutes. */
export const LEDGER_PAGE_ROWS = 50;

const count = (n: number) => n.toLocaleString('en');

/** Rows of a page the ledger view did not carry, read from the worker for the view they belong to. */
interface FetchedPage {
  source: LedgerView;
  first: number;
  /** null: the worker could not read them (the section's alert says why). */
  rows: LedgerRow[] | null;
}

/** Where one table's pager stands and the rows it shows (from the view, or read from the worker). */
interface LedgerPage {
  total: number;
  page: number;
  pages: number;
  /** The first row of the page asked for (0-based), and how many rows it holds. */
  first: number;
  size: number;
  /** The rows on screen, and the index of the first: the previous page's while this one is read. */
  rows: LedgerRow[];
  rowsFirst: number;
  columns: string[];
  /** The page asked for is being read. */
  missing: boolean;
  /** The worker could not read it. */
  failed: boolean;
  goTo(page: number): void;
}

/**
 * A page of one table at a time. The ledger view carries each table's first rows; any other page is
 * read from the file the worker holds open, so every row of a 200,000-row ledger is reachable.
 */
function useLedgerPage(table: LedgerTable, ledger: LedgerView): LedgerPage {
  const readRows = useRunStore((state) => state.readLedgerRows);
  const refresh = useRunStore((state) => state.refreshLedger);
  const viewRows = ledger[table];
  const total = ledger.totals?.[table] ?? viewRows.length;
  const [pageWanted, setPage] = useState(0);
  const [fetched, setFetched] = useState<FetchedPage | null>(null);
  const pages = Math.max(1, Math.ceil(total / LEDGER_PAGE_ROWS));
  const page = Math.min(pageWanted, pages - 1);
  const first = page * LEDGER_PAGE_ROWS;
  const size = Math.max(0, Math.min(LEDGER_PAGE_ROWS, total - first));
  const fromView = first + size <= viewRows.length;
  const current = fetched !== null && fetched.source === ledger && fetched.first === first ? fetched : null;
  const missing = !fromView && current === null;

  useEffect(() => {
    if (!missing) return;
    let wanted = true;
    void readRows(table, first, LEDGER_PAGE_ROWS).then((answer) => {
      if (!wanted) return;
      setFetched({ source: ledger, first, rows: answer?.rows ?? null });
      // The worker holds a ledger stored since this view was read (a kept run, another tab): read the view
      // again, and this page of it with it.
      if (answer !== null && ledger.ledgerId !== undefined && answer.ledgerId !== ledger.ledgerId) void refresh();
    });
    return () => {
      wanted = false;
    };
  }, [missing, readRows, refresh, table, first, ledger]);

  // While a page is read (milliseconds), the rows it replaces stay on screen, marked busy.
  const [shownFirst, setShownFirst] = useState(0);
  if (!missing && shownFirst !== first) setShownFirst(first);
  const rowsFirst = missing ? shownFirst : first;
  const rowsAt = (at: number): LedgerRow[] => {
    if (at + Math.min(LEDGER_PAGE_ROWS, total - at) <= viewRows.length)
      return viewRows.slice(at, at + LEDGER_PAGE_ROWS);
    return fetched !== null && fetched.source === ledger && fetched.first === at ? (fetched.rows ?? []) : [];
  };
  const rows = rowsAt(rowsFirst);
  const failed = current !== null && current.rows === null;
  const columns = rows[0] === undefined ? Object.keys(viewRows[0] ?? {}) : Object.keys(rows[0]);
  const goTo = (target: number) => setPage(Math.max(0, Math.min(pages - 1, target)));
  return { total, page, pages, first, size, rows, rowsFirst, columns, missing, failed, goTo };
}

/**
 * One SQLite table as stored: its column names as SQL has them, one row per record, a page at a time
 * (useLedgerPage): First, Previous, Next, Last, or straight to a row by its number. The position is
 * announced as it changes.
 */
function LedgerTable({
  caption,
  table,
  ledger,
  empty,
}: {
  caption: string;
  table: LedgerTable;
  ledger: LedgerView;
  empty: string;
}) {
  const at = useLedgerPage(table, ledger);
  return (
    <div className="lab-scroll">
      <LedgerRows caption={caption} empty={empty} at={at} />
      {/* Below its rows: after Next, the next button is where the pointer already is. */}
      {at.pages > 1 && <LedgerPager caption={caption} at={at} />}
    </div>
  );
}

/** The table's page of rows, named by the table alone ("Effects"), so the name stays put as the row count changes. */
function LedgerRows({ caption, empty, at }: { caption: string; empty: string; at: LedgerPage }) {
  const { total, rows, rowsFirst, columns, missing, failed } = at;
  return (
    <table
      className="lab-table lab-ledger-table"
      aria-label={caption}
      aria-busy={missing}
      data-first-row={rowsFirst + 1}
    >
      <caption>
        {caption} <span className="lab-count">({total === 1 ? '1 row' : `${count(total)} rows`})</span>
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
        {total === 0 || failed ? (
          <tr>
            <td className="lab-empty" colSpan={Math.max(1, columns.length)}>
              {failed ? 'These rows could not be read; the message above says why.' : empty}
            </td>
          </tr>
        ) : (
          rows.map((row, index) => (
            <tr key={rowsFirst + index}>
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
  );
}

/** First, Previous, Next, Last and a row number, with the position announced. */
function LedgerPager({ caption, at }: { caption: string; at: LedgerPage }) {
  const { page, pages, first, size, total, goTo } = at;
  return (
    <nav className="lab-pager" aria-label={`${caption} pages`}>
      <span className="lab-pager-info" role="status">
        Rows {count(first + 1)}–{count(first + size)} of {count(total)}
      </span>
      <span className="lab-pager-steps">
        <PagerButton label={`${caption}: first rows`} disabled={page === 0} onClick={() => goTo(0)}>
          First
        </PagerButton>
        <PagerButton label={`${caption}: previous rows`} disabled={page === 0} onClick={() => goTo(page - 1)}>
          Previous
        </PagerButton>
        <PagerButton label={`${caption}: next rows`} disabled={page >= pages - 1} onClick={() => goTo(page + 1)}>
          Next
        </PagerButton>
        <PagerButton label={`${caption}: last rows`} disabled={page >= pages - 1} onClick={() => goTo(pages - 1)}>
          Last
        </PagerButton>
      </span>
      <RowJump caption={caption} total={total} onJump={(row) => goTo(Math.floor((row - 1) / LEDGER_PAGE_ROWS))} />
    </nav>
  );
}

/**
 * A pager button. At the first or last page it is marked disabled (aria-disabled) rather than taken out
 * of the tab order, so focus stays on the key a keyboard user just pressed.
 */
function PagerButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: string;
}) {
  return (
    <button
      type="button"
      className="lab-button"
      aria-label={label}
      aria-disabled={disabled}
      onClick={disabled ? undefined : onClick}
    >
      {children}
    </button>
  );
}

/** Straight to the page holding row N (1-based): a number field and its button; Enter in the field goes too. */
function RowJump({ caption, total, onJump }: { caption: string; total: number; onJump: (row: number) => void }) {
  const [text, setText] = useState('');
  const hintId = useId();
  const row = Number(text);
  const valid = text.trim() !== '' && Number.isSafeInteger(row) && row >= 1 && row <= total;
  const invalid = text.trim() !== '' && !valid;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (valid) onJump(row);
  };
  return (
    <form className="lab-pager-jump" onSubmit={onSubmit}>
      <label>
        Row{' '}
        <input
          type="number"
          inputMode="numeric"
          min={1}
          max={total}
          step={1}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-label={`${caption}: row number`}
          aria-invalid={invalid}
          aria-describedby={invalid ? hintId : undefined}
        />
      </label>
      <button type="submit" className="lab-button" aria-label={`${caption}: show row`} aria-disabled={!valid}>
        Show
      </button>
      {invalid && (
        <span id={hintId} className="lab-pager-hint">
          A whole number from 1 to {count(total)}
        </span>
      )}
    </form>
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
