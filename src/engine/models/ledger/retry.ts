/**
 * Retry classification (docs/requirements.md#retry-classification-rt, RT-1): whether a failed call may be retried is decided by the
 * operation's contract and the server's implementation, not by its tool annotations. Annotations
 * such as readOnlyHint and idempotentHint are hints, untrusted unless the server is trusted, and
 * even a trusted hint describes intent, not what this implementation does.
 */
export type RetryClass = 'safe' | 'conditional' | 'unsafe';

export interface ToolAnnotationsHint {
  readonly readOnlyHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What the application knows about an operation, independent of what its annotations claim. */
export interface OperationContract {
  readonly mutates: boolean;
  /** A durable business idempotency key de-duplicates it (a ledger like this lab's). */
  readonly durableKey: boolean;
  /** Reads give the same answer for the same input, with no side effect. */
  readonly deterministicRead: boolean;
}

export interface ExposedOperation {
  readonly name: string;
  readonly description: string;
  readonly annotations: ToolAnnotationsHint;
  readonly contract: OperationContract;
}

export interface RetryClassification {
  readonly operation: string;
  readonly retryClass: RetryClass;
  readonly rule: string;
  /** Where the annotations and the contract disagree: the contract wins, and this says why. */
  readonly hintWarnings: string[];
}

const RULES: Record<RetryClass, string> = {
  safe: 'retry with a new JSON-RPC id once the failure boundary is understood',
  conditional: 'retry with the same idempotency key and identical arguments',
  unsafe: 'no automatic retry; reconcile first (read the authoritative state, then decide)',
};

export function classify(operation: ExposedOperation): RetryClassification {
  const { contract, annotations } = operation;
  const retryClass: RetryClass =
    !contract.mutates && contract.deterministicRead
      ? 'safe'
      : contract.mutates && contract.durableKey
        ? 'conditional'
        : 'unsafe';
  const hintWarnings: string[] = [];
  if (annotations.idempotentHint === true && retryClass === 'unsafe') {
    hintWarnings.push(
      'idempotentHint says true, but the implementation has no durable de-duplication: a retry can run the effect twice',
    );
  }
  if (annotations.readOnlyHint === true && contract.mutates)
    hintWarnings.push('readOnlyHint says true, but the operation mutates state');
  if (annotations.readOnlyHint === false && !contract.mutates)
    hintWarnings.push('readOnlyHint says false, but the operation only reads');
  return { operation: operation.name, retryClass, rule: RULES[retryClass], hintWarnings };
}

/** The operations the lab's server exposes, with their contracts (the retry table is built from these). */
export const exposedOperations: readonly ExposedOperation[] = [
  {
    name: 'get_account_balance',
    description: 'Reads the balance of an account.',
    annotations: { readOnlyHint: true, idempotentHint: true },
    contract: { mutates: false, durableKey: false, deterministicRead: true },
  },
  {
    name: 'charge_account',
    description:
      'Charges an account; requires idempotencyKey, recorded in the ledger with a fingerprint of the arguments.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    contract: { mutates: true, durableKey: true, deterministicRead: false },
  },
  {
    name: 'reserve_inventory',
    description: 'Reserves stock for a tenant; the key binds SKU, quantity, tenant and operation name.',
    annotations: { readOnlyHint: false, idempotentHint: true },
    contract: { mutates: true, durableKey: true, deterministicRead: false },
  },
  {
    name: 'charge_account_legacy',
    description: 'The old charge endpoint: no idempotency key, every call charges.',
    annotations: { readOnlyHint: false, destructiveHint: true },
    contract: { mutates: true, durableKey: false, deterministicRead: false },
  },
  {
    name: 'send_receipt_email',
    description: 'Emails a receipt. Annotated idempotentHint: true by its author, but every call sends another email.',
    annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: true },
    contract: { mutates: true, durableKey: false, deterministicRead: false },
  },
];

export function retryTable(operations: readonly ExposedOperation[] = exposedOperations): RetryClassification[] {
  return operations.map(classify);
}
