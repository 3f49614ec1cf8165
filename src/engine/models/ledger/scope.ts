/**
 * LG-8: what a local SQLite ledger does and does not guarantee. The command line prints these with
 * every ledger run; the page shows them next to the ledger.
 */
export const ledgerScopeNotes: readonly string[] = [
  'This ledger makes the local record atomic: key claim, effect record and result commit together in one SQLite transaction.',
  'It does not make a remote side effect atomic. When the effect lives in another service (a payment API, a deployment, an inventory service), that service must accept the same idempotency key, or the effect must be written to a transactional outbox in this same transaction and delivered from there.',
  'An in-memory or per-replica ledger does not survive a restart and does not span replicas: replicas need one shared durable database (or the upstream key) for de-duplication to hold.',
];
