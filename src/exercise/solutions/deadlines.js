// Reference solution of the deadlines exercise (docs/requirements.md RC-1, RC-2, RC-4): the idle clock counts from
// the last useful activity, the maximum from the start, and a progress token changes neither.

export function createDeadlines({ idleTimeoutMs, maxTimeoutMs, startedAtMs }) {
  let lastActivityAtMs = startedAtMs;
  const maxDueAtMs = startedAtMs + maxTimeoutMs;
  const due = () => ({ idle: lastActivityAtMs + idleTimeoutMs, max: maxDueAtMs });
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
