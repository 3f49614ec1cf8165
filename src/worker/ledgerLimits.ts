/**
 * The largest file Import ledger takes. A plain module without the engine, so the page checks a
 * file's size before reading it (a 2 GB file read whole freezes the tab) without loading the worker;
 * the worker checks the bytes it is handed against the same bound.
 */
export const LEDGER_BYTES_MAX = 16 * 1024 * 1024;

/** Why a file of `bytes` is refused (LAB010's detail): its size and the bound, in the same words from the page and the worker. */
export function ledgerTooLarge(bytes: number): string {
  return `the file is ${bytes.toLocaleString('en')} bytes, more than a lab ledger's ${LEDGER_BYTES_MAX.toLocaleString('en')}; the current ledger is unchanged`;
}
