// A correct bounded SSE buffer (the buffer exercise's reference solution, a test fixture).
export function createBuffer(capacity) {
  const items = [];
  let dropped = false;
  const dropOldestProgress = () => {
    const at = items.findIndex((held) => held.kind === 'progress');
    if (at === -1) return false;
    items.splice(at, 1);
    dropped = true;
    return true;
  };
  return {
    offer(item) {
      const tail = items[items.length - 1];
      if (item.kind === 'progress' && tail !== undefined && tail.kind === 'progress' && tail.token === item.token) {
        items[items.length - 1] = item;
        return 'coalesced';
      }
      if (items.length < capacity) {
        items.push(item);
        return 'queued';
      }
      if (dropOldestProgress()) {
        items.push(item);
        return 'dropped-oldest';
      }
      if (item.kind === 'progress') {
        dropped = true;
        return 'dropped-oldest';
      }
      return 'refused';
    },
    take() {
      const next = items.shift();
      if (next === undefined) return null;
      if (dropped) {
        dropped = false;
        return { ...next, needsRefetch: true };
      }
      return next;
    },
  };
}
