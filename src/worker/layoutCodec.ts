import type { DeadlineBar, DiagramLayout, Marker, TimeBreak, TimeMark, Wire } from '../diagram/geometry/model';

/**
 * The layout's rows as a long answer's parts carry them (runParts.ts): each list packed column by
 * column into typed arrays, its strings in a table (a repeated one once), and the index lists by
 * event (wireMarks, messageIndexes, resolvedSorted) as plain numbers, each part the entries of its
 * events. The worker hands the arrays' buffers over instead of having tens of thousands of small
 * objects copied, and the page checks a part with loops over numbers (every number finite, every
 * count and index a non-negative integer, every choice and string a place in its list) instead of
 * one schema per object, then unpacks it into the objects the diagram reads. What is unpacked equals
 * what was packed.
 */

/** How a field is packed: a number, or a place in a list (a string in the part's table, a choice in a picklist). */
type FieldKind =
  | { number: 'finite' | 'count' | 'lines'; nullable?: boolean }
  | { string: true; nullable?: boolean }
  | { choice: readonly string[]; nullable?: boolean };
type Fields<T> = ReadonlyArray<readonly [keyof T & string, FieldKind]>;

export const WIRE_KINDS = ['message', 'stream-close', 'comment'] as const satisfies ReadonlyArray<Wire['kind']>;
export const WIRE_FATES = ['delivered', 'ignored', 'lost', 'closed'] as const satisfies ReadonlyArray<Wire['fate']>;
export const MARKER_TONES = ['plain', 'muted', 'good', 'warn', 'bad', 'strong'] as const satisfies ReadonlyArray<
  Marker['tone']
>;
export const MARKER_LOOKS = ['marker', 'chip', 'dot'] as const satisfies ReadonlyArray<Marker['look']>;
export const BAR_DEADLINES = ['idle', 'max'] as const satisfies ReadonlyArray<DeadlineBar['deadline']>;
export const BAR_END_ACTIONS = ['reset', 'fired', 'disarmed'] as const satisfies ReadonlyArray<
  NonNullable<DeadlineBar['endAction']>
>;

const finite = { number: 'finite' } as const;
const count = { number: 'count' } as const;
const text = { string: true } as const;

const WIRE: Fields<Wire> = [
  ['id', text],
  ['kind', { choice: WIRE_KINDS }],
  ['index', count],
  ['seq', count],
  ['from', text],
  ['to', text],
  ['x1', finite],
  ['y1', finite],
  ['x2', finite],
  ['y2', finite],
  ['labelX', finite],
  ['labelY', finite],
  ['tagX', finite],
  ['tagY', finite],
  ['label', text],
  ['sentAtMs', finite],
  ['arrivesAtMs', { number: 'finite', nullable: true }],
  ['fate', { choice: WIRE_FATES }],
  ['resolvedAt', count],
  ['reason', { string: true, nullable: true }],
  ['description', text],
  ['bandY', finite],
];
const MARKER: Fields<Marker> = [
  ['id', text],
  ['index', count],
  ['seq', count],
  ['kind', text],
  ['lane', text],
  ['x', finite],
  ['y', finite],
  ['text', text],
  ['tone', { choice: MARKER_TONES }],
  ['title', text],
  ['width', finite],
  ['height', finite],
  ['lines', { number: 'lines' }],
  ['look', { choice: MARKER_LOOKS }],
  ['bandY', finite],
];
const TIME: Fields<TimeMark> = [
  ['id', text],
  ['index', count],
  ['y', finite],
  ['atMs', finite],
];
const BREAK: Fields<TimeBreak> = [
  ['id', text],
  ['index', count],
  ['y', finite],
  ['ms', finite],
];
const BAR: Fields<DeadlineBar> = [
  ['id', text],
  ['deadline', { choice: BAR_DEADLINES }],
  ['index', count],
  ['x', finite],
  ['y1', finite],
  ['dueAtMs', finite],
  ['yDue', finite],
  ['endIndex', { number: 'count', nullable: true }],
  ['endAction', { choice: BAR_END_ACTIONS, nullable: true }],
  ['yEnd', { number: 'finite', nullable: true }],
];

export type LayoutRows = Pick<
  DiagramLayout,
  'rowY' | 'wires' | 'markers' | 'times' | 'bars' | 'breaks' | 'wireMarks' | 'messageIndexes' | 'resolvedSorted'
>;
/**
 * The layout's lists of event indexes (and wire positions), each ascending by event: a part carries
 * the entries of its events, as plain numbers, each a non-negative integer.
 */
export const INDEX_LISTS = ['wireMarks', 'messageIndexes', 'resolvedSorted'] as const;
const LISTS = { wires: WIRE, markers: MARKER, times: TIME, bars: BAR, breaks: BREAK } as const;
type ListName = keyof typeof LISTS;
const LIST_NAMES = Object.keys(LISTS) as ListName[];

/** A field's kind as a number, for the loops over every value (a part holds tens of thousands). */
const FINITE = 0;
const COUNT = 1;
const LINES = 2;
const STRING = 3;
const CHOICE = 4;

/**
 * A list's fields as the packing and the check loop over them: each field's name, kind, whether it
 * may be null, and its choices. Made once from the field tables above, so the loops read arrays by
 * index instead of taking each field's description apart for every value.
 */
interface Plan {
  readonly width: number;
  readonly names: readonly string[];
  readonly kinds: readonly number[];
  readonly nullable: readonly boolean[];
  readonly choices: ReadonlyArray<readonly string[]>;
}

function planOf<T>(fields: Fields<T>): Plan {
  const kindOf = (kind: FieldKind): number => {
    if ('string' in kind) return STRING;
    if ('choice' in kind) return CHOICE;
    return kind.number === 'finite' ? FINITE : kind.number === 'count' ? COUNT : LINES;
  };
  return {
    width: fields.length,
    names: fields.map(([name]) => name),
    kinds: fields.map(([, kind]) => kindOf(kind)),
    nullable: fields.map(([, kind]) => kind.nullable === true),
    choices: fields.map(([, kind]) => ('choice' in kind ? kind.choice : [])),
  };
}

const PLANS: Record<ListName, Plan> = {
  wires: planOf(WIRE),
  markers: planOf(MARKER),
  times: planOf(TIME),
  bars: planOf(BAR),
  breaks: planOf(BREAK),
};

/** One list packed: `count` items, each its fields in order, one number a field (NaN for null; a string or a choice by its place, -1 for null). */
export interface PackedList {
  count: number;
  values: Float64Array<ArrayBuffer>;
}

/** A part's layout rows packed: the rows' y, each list, the index lists, and the strings the lists name by place. */
export interface PackedRows {
  strings: string[];
  rowY: Float64Array<ArrayBuffer>;
  wireMarks: Float64Array<ArrayBuffer>;
  messageIndexes: Float64Array<ArrayBuffer>;
  resolvedSorted: Float64Array<ArrayBuffer>;
  wires: PackedList;
  markers: PackedList;
  times: PackedList;
  bars: PackedList;
  breaks: PackedList;
}

/**
 * Packs a part's layout rows. Each list is packed by a loop that names its fields in the order of its
 * table (WIRE, MARKER, …), as unpackRows reads them: the worker's objects have one shape each, so each
 * field is read straight from it instead of looked up by name (the round-trip test holds the order).
 */
export function packRows(rows: LayoutRows): PackedRows {
  const strings: string[] = [];
  const places = new Map<string, number>();
  const text = (value: string): number => {
    let at = places.get(value);
    if (at === undefined) {
      at = strings.push(value) - 1;
      places.set(value, at);
    }
    return at;
  };
  // An item's own strings (its id, label, description, title: one each, seldom repeated) go into
  // the table as they come, looked up in no map: most of the strings a part carries, and the
  // lookup was most of the worker's time packing a long run.
  const own = (value: string): number => strings.push(value) - 1;
  const maybeText = (value: string | null) => (value === null ? -1 : text(value));
  const maybe = (value: number | null) => (value === null ? NaN : value);
  const choice = (choices: readonly string[], value: string | null) => (value === null ? -1 : choices.indexOf(value));
  const each = <T>(items: readonly T[], fields: Fields<T>, item: (v: Float64Array, at: number, from: T) => void) => {
    const width = fields.length;
    const values = new Float64Array(items.length * width);
    for (let i = 0; i < items.length; i++) item(values, i * width, items[i] as T);
    return { count: items.length, values };
  };
  return {
    rowY: Float64Array.from(rows.rowY),
    wireMarks: Float64Array.from(rows.wireMarks),
    messageIndexes: Float64Array.from(rows.messageIndexes),
    resolvedSorted: Float64Array.from(rows.resolvedSorted),
    wires: each(rows.wires, WIRE, (v, at, wire) => {
      v[at] = own(wire.id);
      v[at + 1] = choice(WIRE_KINDS, wire.kind);
      v[at + 2] = wire.index;
      v[at + 3] = wire.seq;
      v[at + 4] = text(wire.from);
      v[at + 5] = text(wire.to);
      v[at + 6] = wire.x1;
      v[at + 7] = wire.y1;
      v[at + 8] = wire.x2;
      v[at + 9] = wire.y2;
      v[at + 10] = wire.labelX;
      v[at + 11] = wire.labelY;
      v[at + 12] = wire.tagX;
      v[at + 13] = wire.tagY;
      v[at + 14] = own(wire.label);
      v[at + 15] = wire.sentAtMs;
      v[at + 16] = maybe(wire.arrivesAtMs);
      v[at + 17] = choice(WIRE_FATES, wire.fate);
      v[at + 18] = wire.resolvedAt;
      v[at + 19] = maybeText(wire.reason);
      v[at + 20] = own(wire.description);
      v[at + 21] = wire.bandY;
    }),
    markers: each(rows.markers, MARKER, (v, at, marker) => {
      v[at] = own(marker.id);
      v[at + 1] = marker.index;
      v[at + 2] = marker.seq;
      v[at + 3] = text(marker.kind);
      v[at + 4] = text(marker.lane);
      v[at + 5] = marker.x;
      v[at + 6] = marker.y;
      v[at + 7] = own(marker.text);
      v[at + 8] = choice(MARKER_TONES, marker.tone);
      v[at + 9] = own(marker.title);
      v[at + 10] = marker.width;
      v[at + 11] = marker.height;
      v[at + 12] = marker.lines;
      v[at + 13] = choice(MARKER_LOOKS, marker.look);
      v[at + 14] = marker.bandY;
    }),
    times: each(rows.times, TIME, (v, at, time) => {
      v[at] = own(time.id);
      v[at + 1] = time.index;
      v[at + 2] = time.y;
      v[at + 3] = time.atMs;
    }),
    bars: each(rows.bars, BAR, (v, at, bar) => {
      v[at] = own(bar.id);
      v[at + 1] = choice(BAR_DEADLINES, bar.deadline);
      v[at + 2] = bar.index;
      v[at + 3] = bar.x;
      v[at + 4] = bar.y1;
      v[at + 5] = bar.dueAtMs;
      v[at + 6] = bar.yDue;
      v[at + 7] = maybe(bar.endIndex);
      v[at + 8] = choice(BAR_END_ACTIONS, bar.endAction);
      v[at + 9] = maybe(bar.yEnd);
    }),
    breaks: each(rows.breaks, BREAK, (v, at, timeBreak) => {
      v[at] = own(timeBreak.id);
      v[at + 1] = timeBreak.index;
      v[at + 2] = timeBreak.y;
      v[at + 3] = timeBreak.ms;
    }),
    strings,
  };
}

/** The buffers a packed part hands over (transferred, not copied, when posted). */
export function packedBuffers(rows: PackedRows): ArrayBuffer[] {
  return [rows.rowY, ...INDEX_LISTS.map((name) => rows[name]), ...LIST_NAMES.map((name) => rows[name].values)].map(
    (array) => array.buffer,
  );
}

/** Why a field's value is not what its kind allows, or null. */
function badValue(value: number, kind: FieldKind, strings: number): string | null {
  if (Number.isNaN(value) && kind.nullable === true && 'number' in kind) return null;
  if (value === -1 && kind.nullable === true && !('number' in kind)) return null;
  if ('number' in kind) {
    if (!Number.isFinite(value)) return 'is not a finite number';
    if (kind.number === 'count' && !(Number.isInteger(value) && value >= 0)) return 'is not a non-negative integer';
    if (kind.number === 'lines' && !(Number.isInteger(value) && value >= 1)) return 'is not a positive integer';
    return null;
  }
  const size = 'string' in kind ? strings : kind.choice.length;
  return Number.isInteger(value) && value >= 0 && value < size
    ? null
    : `names no ${'string' in kind ? 'string' : 'choice'} (${value})`;
}

/** Whether a packed value is one its field allows (badValue says why not): the check's loop, on numbers only. */
function allowed(value: number, kind: number, nullable: boolean, size: number): boolean {
  switch (kind) {
    case FINITE:
      return value - value === 0 || (nullable && Number.isNaN(value));
    case COUNT:
      return (Number.isInteger(value) && value >= 0) || (nullable && Number.isNaN(value));
    case LINES:
      return (Number.isInteger(value) && value >= 1) || (nullable && Number.isNaN(value));
    default:
      return (Number.isInteger(value) && value >= 0 && value < size) || (nullable && value === -1);
  }
}

/** Why `rows` is not a well-formed packed part, or null: the page's check, in loops over the numbers. */
export function explainPackedRows(rows: PackedRows): string | null {
  if (!(rows.rowY instanceof Float64Array)) return 'rowY is not a Float64Array';
  for (let i = 0; i < rows.rowY.length; i++)
    if (!Number.isFinite(rows.rowY[i])) return `rowY.${i} is not a finite number`;
  for (const name of INDEX_LISTS) {
    const list = rows[name] as unknown;
    if (!(list instanceof Float64Array)) return `${name} is not a Float64Array`;
    for (let i = 0; i < list.length; i++)
      if (!allowed(list[i] as number, COUNT, false, 0)) return `${name}.${i} is not a non-negative integer`;
  }
  if (!Array.isArray(rows.strings)) return 'strings is not an array';
  const { strings } = rows;
  for (let i = 0; i < strings.length; i++) if (typeof strings[i] !== 'string') return `strings.${i} is not a string`;
  for (const name of LIST_NAMES) {
    const list = rows[name] as PackedList | undefined;
    const fields = LISTS[name] as Fields<unknown>;
    if (typeof list !== 'object' || list === null || !(list.values instanceof Float64Array))
      return `${name}.values is not a Float64Array`;
    if (!Number.isSafeInteger(list.count) || list.count < 0 || list.values.length !== list.count * fields.length)
      return `${name} holds ${list.values.length} numbers, not ${fields.length} for each of ${list.count} items`;
    const { width, kinds, nullable, choices } = PLANS[name];
    const sizes = kinds.map((kind, f) => (kind === STRING ? strings.length : (choices[f] as readonly string[]).length));
    const { values } = list;
    for (let at = 0, f = 0; at < values.length; at++, f = f + 1 === width ? 0 : f + 1) {
      const value = values[at] as number;
      if (allowed(value, kinds[f] as number, nullable[f] as boolean, sizes[f] as number)) continue;
      const [field, kind] = fields[f] as Fields<unknown>[number];
      return `${name}.${Math.floor(at / width)}.${field} ${badValue(value, kind, strings.length) ?? 'is not allowed'}`;
    }
  }
  return null;
}

/**
 * The layout rows a packed part holds (checked first with explainPackedRows). Each list is unpacked by
 * an object literal of its fields in the order packed (WIRE, MARKER, …): the objects get one shape
 * each, as the worker's did, which the diagram reads fast (the round-trip test holds the order).
 */
export function unpackRows(rows: PackedRows): LayoutRows {
  const { strings } = rows;
  const text = (value: number) => strings[value] as string;
  const maybeText = (value: number) => (value === -1 ? null : text(value));
  const maybe = (value: number) => (Number.isNaN(value) ? null : value);
  const each = <T>(list: PackedList, fields: Fields<T>, item: (v: Float64Array, at: number) => T): T[] => {
    const items = new Array<T>(list.count);
    for (let i = 0; i < list.count; i++) items[i] = item(list.values, i * fields.length);
    return items;
  };
  const choice = <C extends string>(choices: readonly C[], value: number) => choices[value] as C;
  return {
    rowY: Array.from(rows.rowY),
    wireMarks: Array.from(rows.wireMarks),
    messageIndexes: Array.from(rows.messageIndexes),
    resolvedSorted: Array.from(rows.resolvedSorted),
    wires: each(rows.wires, WIRE, (v, at) => ({
      id: text(v[at] as number),
      kind: choice(WIRE_KINDS, v[at + 1] as number),
      index: v[at + 2] as number,
      seq: v[at + 3] as number,
      from: text(v[at + 4] as number),
      to: text(v[at + 5] as number),
      x1: v[at + 6] as number,
      y1: v[at + 7] as number,
      x2: v[at + 8] as number,
      y2: v[at + 9] as number,
      labelX: v[at + 10] as number,
      labelY: v[at + 11] as number,
      tagX: v[at + 12] as number,
      tagY: v[at + 13] as number,
      label: text(v[at + 14] as number),
      sentAtMs: v[at + 15] as number,
      arrivesAtMs: maybe(v[at + 16] as number),
      fate: choice(WIRE_FATES, v[at + 17] as number),
      resolvedAt: v[at + 18] as number,
      reason: maybeText(v[at + 19] as number),
      description: text(v[at + 20] as number),
      bandY: v[at + 21] as number,
    })),
    markers: each(rows.markers, MARKER, (v, at) => ({
      id: text(v[at] as number),
      index: v[at + 1] as number,
      seq: v[at + 2] as number,
      kind: text(v[at + 3] as number),
      lane: text(v[at + 4] as number),
      x: v[at + 5] as number,
      y: v[at + 6] as number,
      text: text(v[at + 7] as number),
      tone: choice(MARKER_TONES, v[at + 8] as number),
      title: text(v[at + 9] as number),
      width: v[at + 10] as number,
      height: v[at + 11] as number,
      lines: v[at + 12] as number,
      look: choice(MARKER_LOOKS, v[at + 13] as number),
      bandY: v[at + 14] as number,
    })),
    times: each(rows.times, TIME, (v, at) => ({
      id: text(v[at] as number),
      index: v[at + 1] as number,
      y: v[at + 2] as number,
      atMs: v[at + 3] as number,
    })),
    bars: each(rows.bars, BAR, (v, at) => ({
      id: text(v[at] as number),
      deadline: choice(BAR_DEADLINES, v[at + 1] as number),
      index: v[at + 2] as number,
      x: v[at + 3] as number,
      y1: v[at + 4] as number,
      dueAtMs: v[at + 5] as number,
      yDue: v[at + 6] as number,
      endIndex: maybe(v[at + 7] as number),
      endAction: v[at + 8] === -1 ? null : choice(BAR_END_ACTIONS, v[at + 8] as number),
      yEnd: maybe(v[at + 9] as number),
    })),
    breaks: each(rows.breaks, BREAK, (v, at) => ({
      id: text(v[at] as number),
      index: v[at + 1] as number,
      y: v[at + 2] as number,
      ms: v[at + 3] as number,
    })),
  };
}
