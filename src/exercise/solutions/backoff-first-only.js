// Planted wrong (spread-herd): the first reconnect is jittered, but every retry waits exactly its
// ceiling, so the clients refused together retry together, wave after wave.

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
  if (attempt > 0) return ceiling;
  const h = mix(Math.imul(clientId + 1, 0x27d4eb2f));
  return Math.floor((h / 0x100000000) * (ceiling + 1));
}
