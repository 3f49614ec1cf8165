/**
 * A canonical text of a model's state for the race explorer: two runs whose models give
 * the same text are in the same state, so the explorer explores what follows once.
 *
 * It walks the object graph: own enumerable fields in their order (a class's fields come in
 * constructor order, so two instances list them alike), arrays and typed arrays element by element,
 * Maps and Sets in insertion order (the order a model iterates them in is state too), numbers,
 * strings, booleans, null and undefined as themselves. Functions are left out: a model's methods are
 * the same in every run, and the closures it queues are the scheduler's (their labels are hashed
 * there). `skip` leaves out objects the caller accounts for itself (the kit: scheduler, log, wire), or
 * (returning text) writes an object as the caller describes it (a queued event's handle, by its label).
 * An object met again is written as a back-reference to its first occurrence, so shared and cyclic
 * structure is kept without looping. What it cannot see is state outside the JS heap: a sql.js
 * database lives in WebAssembly memory, so a model with SQLite must not be summarised by this alone.
 */
export function snapshot(value: unknown, skip: (value: object) => boolean | string = () => false): string {
  const seen = new Map<object, number>();
  const out: string[] = [];
  const walk = (item: unknown): void => {
    switch (typeof item) {
      case 'number':
      case 'boolean':
        out.push(String(item), ',');
        return;
      case 'string':
        out.push(JSON.stringify(item), ',');
        return;
      case 'bigint':
        out.push(`${item}n,`);
        return;
      case 'undefined':
        out.push('u,');
        return;
      case 'function':
      case 'symbol':
        out.push('f,');
        return;
    }
    if (item === null) {
      out.push('n,');
      return;
    }
    const object = item as object;
    const first = seen.get(object);
    if (first !== undefined) {
      out.push(`^${first},`);
      return;
    }
    seen.set(object, seen.size);
    const skipped = skip(object);
    if (skipped !== false) {
      out.push(skipped === true ? '#,' : `#${JSON.stringify(skipped)},`);
      return;
    }
    if (Array.isArray(object) || ArrayBuffer.isView(object)) {
      out.push('[');
      // A DataView is the one view with no indexed elements: it is written as an empty list.
      const elements: ArrayLike<unknown> = Array.isArray(object) || isTypedArray(object) ? object : [];
      for (let index = 0; index < elements.length; index += 1) walk(elements[index]);
      out.push('],');
      return;
    }
    if (object instanceof Map) {
      out.push('M{');
      for (const [key, entry] of object) {
        walk(key);
        walk(entry);
      }
      out.push('},');
      return;
    }
    if (object instanceof Set) {
      out.push('S[');
      for (const entry of object) walk(entry);
      out.push('],');
      return;
    }
    out.push('{');
    for (const key of Object.keys(object)) {
      out.push(key, ':');
      walk((object as Record<string, unknown>)[key]);
    }
    out.push('},');
  };
  walk(value);
  return out.join('');
}

/** Whether `value` is a typed array: a view of an ArrayBuffer read by index (a DataView is read by its methods). */
function isTypedArray(value: object): value is ArrayLike<number | bigint> {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}
