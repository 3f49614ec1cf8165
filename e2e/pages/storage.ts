import type { Page } from '@playwright/test';

/** What IndexedDB holds under the worker's key, read from the page (not through the app); null when nothing is stored. */
export function storedByteCount(page: Page): Promise<number | null> {
  return page.evaluate(
    () =>
      new Promise<number | null>((resolve, reject) => {
        const open = indexedDB.open('mcp-reliability-lab');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('ledger')) return resolve(null);
          const read = db.transaction('ledger', 'readonly').objectStore('ledger').get('lab-ledger.sqlite');
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            db.close();
            resolve(read.result instanceof Uint8Array ? read.result.length : null);
          };
        };
      }),
  );
}

/** The stored ledger's bytes, read from IndexedDB by the page (not through the app); null when nothing is stored. */
export async function storedBytes(page: Page): Promise<Uint8Array | null> {
  const bytes = await page.evaluate(
    () =>
      new Promise<number[] | null>((resolve, reject) => {
        const open = indexedDB.open('mcp-reliability-lab');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('ledger')) return resolve(null);
          const read = db.transaction('ledger', 'readonly').objectStore('ledger').get('lab-ledger.sqlite');
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            db.close();
            resolve(read.result instanceof Uint8Array ? Array.from(read.result) : null);
          };
        };
      }),
  );
  return bytes === null ? null : new Uint8Array(bytes);
}
