// Planted wrong: when full it evicts the oldest item whatever it is, final responses included.
export function createBuffer(capacity) {
  const items = [];
  let dropped = false;
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
      items.shift();
      items.push(item);
      dropped = true;
      return 'dropped-oldest';
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
