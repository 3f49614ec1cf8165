// Planted wrong (idle-reset-by-progress): both deadlines fixed at the start, so progress never
// restarts the idle clock and steady progress still ends the request after idleTimeoutMs.

export function createDeadlines({ idleTimeoutMs, maxTimeoutMs, startedAtMs }) {
  const due = { idle: startedAtMs + idleTimeoutMs, max: startedAtMs + maxTimeoutMs };
  return {
    dueAtMs() {
      return due;
    },
    onProgress() {
      return due;
    },
  };
}
