// Planted wrong (token-keeps-deadlines): a request that asked for progress is given no deadline at
// all, trusting the server to report; a server that accepts the token and sends nothing hangs it.

export function createDeadlines({ idleTimeoutMs, maxTimeoutMs, startedAtMs, progressToken }) {
  let lastActivityAtMs = startedAtMs;
  const due = () => (progressToken !== null ? { idle: null, max: null } : { idle: lastActivityAtMs + idleTimeoutMs, max: startedAtMs + maxTimeoutMs });
  return {
    dueAtMs() {
      return due();
    },
    onProgress(atMs) {
      lastActivityAtMs = atMs;
      return due();
    },
  };
}
