import { LEDGER_BYTES_MAX, ledgerTooLarge } from '../../worker/ledgerLimits';
import type { LedgerTable, LedgerView } from '../../worker/protocol';
import { toFailure } from './run';
import type { LedgerSlice, Slice } from './state';

/** The tables as the Ledger section names them. */
const LEDGER_TABLE_NAMES: Record<LedgerTable, string> = {
  idempotencyKeys: 'Idempotency keys',
  effects: 'Effects',
  executions: 'Executions',
};

/** The stored ledger, as the worker reads it: busy while any request is unanswered, showing only the latest answer's rows. */
export const createLedgerSlice: Slice<LedgerSlice> = (deps) => (set, get) => {
  /** Runs one ledger request; a failure sets ledgerError and leaves the rows on screen (the worker changed nothing). */
  async function request<T>(what: string, action: () => Promise<T>, onAnswer: (answer: T) => void): Promise<T | null> {
    set({ ledgerPending: get().ledgerPending + 1, ledgerStatus: 'busy' });
    try {
      const answer = await action();
      onAnswer(answer);
      set({ ledgerError: null });
      return answer;
    } catch (error) {
      set({ ledgerError: { action: what, ...toFailure(error) } });
      return null;
    } finally {
      const ledgerPending = get().ledgerPending - 1;
      set(ledgerPending === 0 ? { ledgerPending, ledgerStatus: 'idle' } : { ledgerPending });
    }
  }

  async function view(what: string, action: () => Promise<LedgerView>): Promise<void> {
    const ledgerRequest = get().ledgerRequest + 1;
    set({ ledgerRequest });
    await request(what, action, (ledger) => {
      if (get().ledgerRequest === ledgerRequest) set({ ledger });
    });
  }

  return {
    ledger: null,
    ledgerStatus: 'idle',
    ledgerError: null,
    ledgerPending: 0,
    ledgerRequest: 0,
    refreshLedger: () => view('Could not read the stored ledger.', () => deps.client().ledgerSnapshot()),
    importLedger(file) {
      const name = (file as Partial<File>).name;
      const what = name === undefined || name === '' ? 'Could not import the file.' : `Could not import “${name}”.`;
      // By its size, before reading it: a file is read into memory whole, and a 2 GB one freezes the tab.
      if (file.size > LEDGER_BYTES_MAX) {
        set({ ledgerError: { action: what, code: 'LAB010', message: ledgerTooLarge(file.size) } });
        return Promise.resolve();
      }
      return view(what, async () => deps.client().importLedger(new Uint8Array(await file.arrayBuffer())));
    },
    exportLedger: () =>
      request(
        'Could not export the ledger.',
        () => deps.client().exportLedger(),
        () => undefined,
      ),
    resetLedger: () => view('Could not reset the ledger.', () => deps.client().resetLedger()),
    async readLedgerRows(table, offset, limit) {
      try {
        return await deps.client().ledgerRows(table, offset, limit);
      } catch (error) {
        const what = `Could not read rows ${(offset + 1).toLocaleString('en')}–${(offset + limit).toLocaleString('en')} of ${LEDGER_TABLE_NAMES[table]}.`;
        set({ ledgerError: { action: what, ...toFailure(error) } });
        return null;
      }
    },
  };
};
