// Planted wrong (deterministic): full jitter in range and well spread, but drawn from a generator
// kept between calls (a linear congruential one, as Math.random would be), so the same client and
// attempt get a different wait each time they are asked.

let state = 12345;

function next() {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 0x100000000;
}

export function backoffDelayMs(clientId, attempt) {
  const ceiling = Math.min(250 * 2 ** attempt, 8000);
  return Math.floor(next() * (ceiling + 1));
}
