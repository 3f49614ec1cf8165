// Reference solution of the backoff exercise: full jitter (docs/requirements.md RV-4), the randomness a hash of the
// client id and the attempt, so the same arguments always give the same wait.

function mix(value) {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function backoffDelayMs(clientId, attempt) {
  const ceiling = Math.min(250 * 2 ** attempt, 8000);
  const h = mix(mix(Math.imul(clientId + 1, 0x27d4eb2f)) ^ Math.imul(attempt + 1, 0x165667b1));
  // h / 2^32 is in [0, 1): the wait is uniform over the integers 0 … ceiling.
  return Math.floor((h / 0x100000000) * (ceiling + 1));
}
