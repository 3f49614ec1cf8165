// Planted wrong (the coordinator exercise): it sends every report while the request runs, repeats included (no check that progress increases).
export function createCoordinator() {
  // id -> { state: 'active' | 'cancelled' | 'completed', lastProgress: number | null }
  const requests = new Map();
  const isRequestId = (value) => typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
  return {
    onRequest(id, _progressToken) {
      requests.set(id, { state: 'active', lastProgress: null });
      return null;
    },
    onCancel(params) {
      // Malformed, unknown, or already ended: ignored, without error or reply (RC-7).
      if (params === null || typeof params !== 'object' || !isRequestId(params.requestId)) return 'ignore';
      const request = requests.get(params.requestId);
      if (request === undefined || request.state !== 'active') return 'ignore';
      request.state = 'cancelled';
      return 'accept';
    },
    onProgress(id, progress) {
      const request = requests.get(id);
      // Only while the request runs, and only increasing (RC-3); nothing after cancel or final (RC-6).
      if (request === undefined || request.state !== 'active') return 'drop';
      request.lastProgress = progress;
      return 'send';
    },
    onComplete(id) {
      const request = requests.get(id);
      if (request === undefined || request.state !== 'active') return 'suppress';
      request.state = 'completed';
      return 'send';
    },
  };
}
