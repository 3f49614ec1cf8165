/**
 * LG-8: what a local SQLite ledger does and does not guarantee. The command line prints these with
 * every ledger run; the page shows them next to the ledger.
 */
export const ledgerScopeNotes: readonly string[] = [
  'This ledger makes the local record atomic: key claim, effect record and result commit together in one SQLite transaction.',
  'It does not make a remote side effect atomic. When the effect lives in another service (a payment API, a deployment, an inventory service), that service must accept the same idempotency key, or the effect must be written to a transactional outbox in this same transaction and delivered from there.',
  'An in-memory or per-replica ledger does not survive a restart and does not span replicas: replicas need one shared durable database (or the upstream key) for de-duplication to hold.',
];

/**
 * LG-8 worded for one run (every sentence is true of the run it describes): a run
 * that sends no idempotency key has no key claim to make atomic.
 */
export function ledgerScopeNotesFor(sendKey: boolean): readonly string[] {
  if (sendKey) return ledgerScopeNotes;
  return [
    'This run sends no idempotency key: each effect and its execution count commit together in one SQLite transaction, but nothing records the business intent, so a retry under a new JSON-RPC id runs the effect again (LG-1).',
    ...ledgerScopeNotes.slice(1),
  ];
}
