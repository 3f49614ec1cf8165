import type { ProbeEvent } from './record';
import type { ProbeTranscript } from './run';

/**
 * What the probe writes out is bounded by what it read: a server can send 16 MiB of `{}` within the
 * probe's bounds, and written with the usual two-space indentation 60 levels deep that became more than a
 * gigabyte. So every value the server chose (its messages, its tool listing, capabilities, answers) is
 * written with at most SHOWN_VALUE_CHARS_MAX characters of JSON each, and all of them together with at
 * most SHOWN_TOTAL_CHARS_MAX; what does not fit is replaced by a marker saying how much was left out.
 * Objects stay objects, arrays arrays, strings strings and numbers numbers, so a message that was
 * JSON-RPC 2.0 still is one, and the page still opens the transcript.
 */

/** The most JSON characters one value of the server is written with (one message, its tool listing, …). */
export const SHOWN_VALUE_CHARS_MAX = 256 * 1024;
/** The most JSON characters the server's values are written with in one output, all together. */
export const SHOWN_TOTAL_CHARS_MAX = 6 * 1024 * 1024;
/** Room a marker needs: below this, a container is written as its marker alone. */
const MARKER_ROOM = 160;
/** Each value's least room, even once the total is spent: a small message (an id, a method) is still written whole. */
const SHOWN_VALUE_CHARS_MIN = 512;

/** The marker key an object's left-out entries are counted under. */
export const ELIDED_KEY = '…';

const ESCAPED_AS_SIX = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The characters a string takes in terminal-safe JSON (`jsonForTerminal`): quotes and escapes included. */
function stringChars(text: string): number {
  return JSON.stringify(text).length + 5 * (text.match(ESCAPED_AS_SIX)?.length ?? 0);
}

/** The characters a value takes in compact terminal-safe JSON (depth is bounded: the probe refuses messages nested past 64). */
export function jsonChars(value: unknown): number {
  if (typeof value === 'string') return stringChars(value);
  if (value === null || typeof value !== 'object') return (JSON.stringify(value) ?? 'null').length;
  if (Array.isArray(value)) {
    let chars = 2 + Math.max(0, value.length - 1);
    for (const item of value) chars += jsonChars(item);
    return chars;
  }
  let chars = 2;
  let first = true;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    chars += (first ? 0 : 1) + stringChars(key) + 1 + jsonChars(item);
    first = false;
  }
  return chars;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** A string cut to about `room` characters of JSON, with what was left out said at its end. */
function cutString(text: string, room: number): string {
  let keep = Math.max(0, Math.min(text.length, room - MARKER_ROOM));
  while (keep > 0 && stringChars(text.slice(0, keep)) > room - MARKER_ROOM) keep = Math.floor(keep / 2);
  return `${text.slice(0, keep)}… ${plural(text.length - keep, 'character', 'characters')} elided (the probe writes at most ${SHOWN_VALUE_CHARS_MAX} characters of one value)`;
}

const elidedNote = (count: number, what: [string, string], chars: number): string =>
  `… ${plural(count, what[0], what[1])} elided, ${chars} characters of JSON (the probe writes at most ${SHOWN_VALUE_CHARS_MAX} characters of one value, ${SHOWN_TOTAL_CHARS_MAX} in all)`;

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * `value` cut to about `room` characters of JSON, and the characters it now takes. Scalars of an object
 * come first (an `id`, a `method`, a `code` are kept before a large `params`), the key order stays.
 */
function cut(value: unknown, room: number): [unknown, number] {
  if (typeof value === 'string') {
    const chars = stringChars(value);
    if (chars <= room) return [value, chars];
    const shown = cutString(value, room);
    return [shown, stringChars(shown)];
  }
  if (!isContainer(value)) return [value, jsonChars(value)];
  if (Array.isArray(value)) {
    if (value.length === 0) return [value, 2];
    const out: unknown[] = [];
    let used = 2;
    for (let i = 0; i < value.length; i++) {
      const left = room - used - MARKER_ROOM;
      if (left <= 0) {
        const rest = value.slice(i);
        const note = elidedNote(rest.length, ['item', 'items'], jsonChars(rest) - 2);
        out.push(note);
        used += stringChars(note) + 1;
        break;
      }
      const [item, chars] = cut(value[i], left);
      out.push(item);
      used += chars + (i === 0 ? 0 : 1);
    }
    return [out, used];
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return [{}, 2];
  // An object of scalars that fits is kept as it is (most objects of a message are).
  if (entries.every(([, item]) => !isContainer(item))) {
    const chars = jsonChars(value);
    if (chars <= room) return [value, chars];
  }
  const kept = new Map<string, unknown>();
  let used = 2;
  let elided = 0;
  let elidedChars = 0;
  // Scalars first, then objects and arrays: what identifies a message is kept before what it carries.
  for (const containers of [false, true]) {
    for (const [key, item] of entries) {
      if (isContainer(item) !== containers) continue;
      const keyChars = stringChars(key);
      const left = room - used - MARKER_ROOM - keyChars - 1;
      // A number, boolean or null is kept when it fits; a string or a container when its marker fits.
      const fits = !containers && typeof item !== 'string' ? jsonChars(item) <= left : left > MARKER_ROOM;
      if (keyChars > room / 2 || !fits) {
        elided += 1;
        elidedChars += keyChars + 1 + jsonChars(item);
        continue;
      }
      const [shown, chars] = cut(item, left);
      kept.set(key, shown);
      used += (kept.size === 1 ? 0 : 1) + keyChars + 1 + chars;
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key] of entries) if (kept.has(key)) out[key] = kept.get(key);
  if (elided > 0) {
    const note = elidedNote(elided, ['entry', 'entries'], elidedChars);
    out[ELIDED_KEY] = note;
    used += 1 + stringChars(ELIDED_KEY) + 1 + stringChars(note);
  }
  return [out, used];
}

/** Cuts the server's values of one output against a shared total. */
export class ShownBudget {
  private left = SHOWN_TOTAL_CHARS_MAX;

  /** `value` as written: whole when it fits its share, else cut with markers. */
  show<T>(value: T): T {
    const [shown, chars] = cut(value, Math.max(SHOWN_VALUE_CHARS_MIN, Math.min(SHOWN_VALUE_CHARS_MAX, this.left)));
    this.left = Math.max(0, this.left - chars);
    return shown as T;
  }
}

function shownEvent(event: ProbeEvent, budget: ShownBudget): ProbeEvent {
  if (event.kind === 'message') return { ...event, message: budget.show(event.message) };
  if (event.kind === 'http-response') return { ...event, headers: budget.show(event.headers) };
  return event;
}

/**
 * The transcript as `--json` and `--evidence` write it: every value the server chose cut to its share
 * (see above), one by one where the transcript's shape is fixed (a call's answer, a poll's error), so
 * the shape the page checks stays; what the probe itself decided (times, bounds, verdicts, counts, its
 * own requests' ids) is written whole.
 */
export function shownTranscript(t: ProbeTranscript): ProbeTranscript {
  const budget = new ShownBudget();
  const show = <T>(value: T): T => budget.show(value);
  const orNull = <T>(value: T | null): T | null => (value === null ? null : show(value));
  const { idempotency, tasks } = t;
  return {
    ...t,
    server: { name: show(t.server.name), version: show(t.server.version) },
    capabilities: show(t.capabilities),
    tool: t.tool === null ? null : { ...t.tool, listed: orNull(t.tool.listed) },
    events: t.events.map((event) => shownEvent(event, budget)),
    idempotency:
      idempotency === null
        ? null
        : { ...idempotency, calls: idempotency.calls.map((call) => ({ ...call, answer: orNull(call.answer) })) },
    tasks:
      tasks === null
        ? null
        : {
            ...tasks,
            taskId: orNull(tasks.taskId),
            createdStatus: orNull(tasks.createdStatus),
            acknowledgement: orNull(tasks.acknowledgement),
            polls: tasks.polls.map((poll) => ({ ...poll, status: orNull(poll.status), error: orNull(poll.error) })),
            terminal: tasks.terminal === null ? null : { ...tasks.terminal, status: show(tasks.terminal.status) },
          },
  };
}
