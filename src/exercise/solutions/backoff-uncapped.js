// Planted wrong (delay-in-range): full jitter, deterministic and spread, but the ceiling is never
// capped at 8000 ms, so from attempt 6 on a client may wait up to 250·2ⁿ ms.

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
  const ceiling = 250 * 2 ** attempt;
  const h = mix(mix(Math.imul(clientId + 1, 0x27d4eb2f)) ^ Math.imul(attempt + 1, 0x165667b1));
  return Math.floor((h / 0x100000000) * (ceiling + 1));
}
