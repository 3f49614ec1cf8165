import type { DiagramLayout } from '../diagram/geometry/model';
import type { EventWording, LabAnswer, LabEvent, LabResponse, ToolResponse } from './protocol';
import type { Transcript } from '../engine';
import { INDEX_LISTS, packedBuffers, packRows, unpackRows, type LayoutRows } from './layoutCodec';

/**
 * A long answer travels in parts: a run of 20,000 events, its wording and its diagram's
 * layout are megabytes, and reading them as one message would hold the page's thread for hundreds of
 * milliseconds (the copy out of the worker and the check). The worker sends the events, their wording
 * and the layout's rows PART_EVENTS at a time as `run-part` messages, each read and checked as it
 * arrives, then the answer itself with those lists empty and the number of parts; the page's client
 * puts them back together (PartsAssembly) before anyone sees the answer, so a short run and a long one
 * answer alike. A long run's events and wording go ahead of its layout (transcriptAhead): the worker
 * sends them before it lays the run out, so the page reads them while it does, and the layout's parts
 * follow.
 */

/** Events per part: small enough that reading and checking one part takes the page a few milliseconds. */
export const PART_EVENTS = 500;
/**
 * The first part's events; each next part doubles, up to PART_EVENTS. The page's check runs cold on
 * the first part (its code not yet compiled by the JavaScript engine), several times slower than
 * once warm: small first parts keep that first read short too.
 */
export const FIRST_PART_EVENTS = 125;

type RunPart = Extract<LabResponse, { type: 'run-part' }>;
type Parted = Extract<LabAnswer, { type: 'transcript' | 'layout' }>;

const ROW_LISTS = ['wires', 'markers', 'times', 'bars', 'breaks'] as const;

/** A layout's rows and index lists, empty: what an answer whose rows went in parts carries. */
const noRows = (): LayoutRows => ({
  rowY: [],
  wires: [],
  markers: [],
  times: [],
  bars: [],
  breaks: [],
  wireMarks: [],
  messageIndexes: [],
  resolvedSorted: [],
});

/** The first event of each part of `count` events: FIRST_PART_EVENTS, then doubling, up to `partEvents`. */
function partStarts(count: number, partEvents: number): Array<{ from: number; to: number }> {
  const starts: Array<{ from: number; to: number }> = [];
  let size = Math.min(FIRST_PART_EVENTS, partEvents);
  for (let from = 0; from < count; from += size, size = Math.min(partEvents, size * 2))
    starts.push({ from, to: Math.min(count, from + size) });
  return starts;
}

/** A run's transcripts whose events and wording went ahead of the answer (transcriptAhead): how many parts carried them, and the layout whose rows went after them (layoutAhead), if any. */
const sentAhead = new WeakMap<Transcript, { parts: number; layout: DiagramLayout | null }>();

/**
 * A long run's events and wording in parts (with no layout), to send before the run is laid out: the
 * page reads and checks them while the worker lays the run out, instead of after. The answer that
 * follows (inParts) then carries only the layout's parts and counts these among its parts. Null when
 * the run is short enough to travel whole.
 */
export function transcriptAhead(
  requestId: number,
  transcript: Transcript,
  wording: readonly EventWording[],
  partEvents = PART_EVENTS,
): RunPart[] | null {
  const { events } = transcript;
  if (events.length <= partEvents) return null;
  const parts = partStarts(events.length, partEvents).map(({ from, to }): RunPart => ({
    type: 'run-part',
    requestId,
    from,
    events: events.slice(from, to),
    wording: wording.slice(from, to),
    layout: null,
  }));
  sentAhead.set(transcript, { parts: parts.length, layout: null });
  return parts;
}

/**
 * The messages that carry `response`: itself, or its parts and then itself with the parted lists
 * empty. A run whose events and wording went ahead (transcriptAhead) sends only its layout's parts,
 * and one whose layout went ahead too (layoutAhead) only itself.
 */
export function inParts(
  response: LabResponse | ToolResponse,
  partEvents = PART_EVENTS,
): Array<LabResponse | ToolResponse> {
  return [...partsOf(response, partEvents)];
}

/**
 * A long run's layout rows in parts, to send as soon as the run is laid out and before the rest of
 * its answer (its race facts) is found: the page reads and checks them while the worker finds it.
 * Only after its events went ahead (transcriptAhead); nothing otherwise, and the answer carries the
 * layout's parts as before. The answer that follows (inParts) then carries no parts and counts these.
 */
export function* layoutAhead(
  requestId: number,
  transcript: Transcript,
  layout: DiagramLayout,
  partEvents = PART_EVENTS,
): Generator<RunPart, void, undefined> {
  const ahead = sentAhead.get(transcript);
  if (ahead === undefined || ahead.layout !== null) return;
  const starts = partStarts(layout.rowY.length, partEvents);
  yield* layoutParts(requestId, layout, starts, null);
  sentAhead.set(transcript, { parts: ahead.parts + starts.length, layout });
}

/** The layout's rows PART_EVENTS at a time (events and wording beside them when `withEvents` gives them), each packed as it is asked for. */
function* layoutParts(
  requestId: number,
  layout: DiagramLayout,
  starts: ReadonlyArray<{ from: number; to: number }>,
  withEvents: { events: readonly LabEvent[]; wording: readonly EventWording[] } | null,
): Generator<RunPart, void, undefined> {
  // Every list of the layout is in event order: each part takes the items of its events.
  const next = { wires: 0, markers: 0, times: 0, bars: 0, breaks: 0 };
  // The index lists are ascending: each part takes the indexes of its events (wireMarks by pairs,
  // [event index, wire position]); the last part takes any past the last event too.
  const nextIndex = { wireMarks: 0, messageIndexes: 0, resolvedSorted: 0 };
  const takeIndexes = (list: (typeof INDEX_LISTS)[number], to: number): number[] => {
    const indexes = layout[list];
    const step = list === 'wireMarks' ? 2 : 1;
    const from = nextIndex[list];
    let end = from;
    while (end < indexes.length && (indexes[end] as number) < to) end += step;
    nextIndex[list] = end;
    return indexes.slice(from, end);
  };
  const last = starts.at(-1)?.to;
  const take = <K extends (typeof ROW_LISTS)[number]>(list: K, to: number): LayoutRows[K] => {
    const items = layout[list] as Array<{ index: number }>;
    const from = next[list];
    let end = from;
    while (end < items.length && (items[end] as { index: number }).index < to) end += 1;
    next[list] = end;
    return items.slice(from, end) as LayoutRows[K];
  };
  for (const { from, to } of starts)
    yield {
      type: 'run-part',
      requestId,
      from,
      events: withEvents === null ? [] : withEvents.events.slice(from, to),
      wording: withEvents === null ? [] : withEvents.wording.slice(from, to),
      layout: packRows({
        rowY: layout.rowY.slice(from, to),
        wires: take('wires', to),
        markers: take('markers', to),
        times: take('times', to),
        bars: take('bars', to),
        breaks: take('breaks', to),
        wireMarks: takeIndexes('wireMarks', to === last ? Infinity : to),
        messageIndexes: takeIndexes('messageIndexes', to === last ? Infinity : to),
        resolvedSorted: takeIndexes('resolvedSorted', to === last ? Infinity : to),
      }),
    };
}

/**
 * inParts one message at a time, each part packed as it is asked for: the worker posts a part before
 * it packs the next, so the page checks and unpacks the first parts while the worker packs the rest.
 */
export function* partsOf(
  response: LabResponse | ToolResponse,
  partEvents = PART_EVENTS,
): Generator<LabResponse | ToolResponse, void, undefined> {
  if (response.type !== 'transcript' && response.type !== 'layout') {
    yield response;
    return;
  }
  const { layout } = response;
  const count = layout.rowY.length;
  const transcript = response.type === 'transcript' ? response : null;
  const ahead = transcript === null ? undefined : sentAhead.get(transcript.transcript);
  if (count <= partEvents && ahead === undefined) {
    yield response;
    return;
  }
  const withEvents = transcript !== null && ahead === undefined;
  const starts = ahead !== undefined && ahead.layout === layout ? [] : partStarts(count, partEvents);
  yield* layoutParts(
    response.requestId,
    layout,
    starts,
    withEvents ? { events: transcript.transcript.events, wording: transcript.wording } : null,
  );
  const emptyLayout: DiagramLayout = { ...layout, ...noRows() };
  const answer: Parted =
    transcript === null
      ? { ...response, layout: emptyLayout, parts: starts.length }
      : {
          ...transcript,
          transcript: { ...transcript.transcript, events: [] },
          wording: [],
          layout: emptyLayout,
          parts: (ahead?.parts ?? 0) + starts.length,
        };
  yield answer;
}

/** The page's side: the parts of one answer, in order, and the answer made whole from them. */
export class PartsAssembly {
  private received = 0;
  private readonly events: LabEvent[] = [];
  private readonly wording: EventWording[] = [];
  private readonly rows: LayoutRows = noRows();

  /**
   * Adds the next part; the reason it does not fit (out of order), or null. A part carries the events
   * and wording from `from` on, the layout's rows from `from` on, or both: each list it carries must
   * go on where that list stands (a run's events may come ahead of its layout, transcriptAhead).
   */
  add(part: RunPart): string | null {
    const carriesEvents = part.layout === null || part.events.length > 0 || part.wording.length > 0;
    for (const [carried, at, what] of [
      [carriesEvents, this.events.length, 'event'],
      [part.layout !== null, this.rows.rowY.length, 'row'],
    ] as const)
      if (carried && part.from !== at) return `part ${this.received + 1} starts at ${what} ${part.from}, not at ${at}`;
    this.received += 1;
    for (const event of part.events) this.events.push(event);
    for (const wording of part.wording) this.wording.push(wording);
    if (part.layout !== null) {
      const rows = unpackRows(part.layout);
      for (const y of rows.rowY) this.rows.rowY.push(y);
      for (const list of ROW_LISTS) for (const item of rows[list]) (this.rows[list] as unknown[]).push(item);
      for (const list of INDEX_LISTS) for (const index of rows[list]) this.rows[list].push(index);
    }
    return null;
  }

  /** The answer with its parts put back, or the reason they do not make it whole. */
  finish<A extends LabAnswer | ToolResponse>(answer: A): { ok: true; answer: A } | { ok: false; problem: string } {
    // The worker may fail after a long answer's parts went out (a run's race facts are found after its
    // layout's parts are posted): its error is the answer, whatever came before it.
    if (answer.type === 'error') return { ok: true, answer };
    if (answer.type !== 'transcript' && answer.type !== 'layout')
      return this.received === 0
        ? { ok: true, answer }
        : { ok: false, problem: `a ${answer.type} answer came after ${this.received} parts` };
    const expected = answer.parts ?? 0;
    if (expected !== this.received)
      return { ok: false, problem: `the answer has ${expected} parts; ${this.received} arrived` };
    if (expected === 0) return { ok: true, answer };
    const layout: DiagramLayout = { ...answer.layout, ...this.rows };
    if (answer.type === 'layout')
      return this.events.length > 0 || this.wording.length > 0
        ? { ok: false, problem: `a layout answer came after parts holding ${this.events.length} events` }
        : { ok: true, answer: { ...answer, layout, parts: undefined } };
    if (this.events.length !== layout.rowY.length || this.wording.length !== this.events.length) {
      return {
        ok: false,
        problem: `the parts hold ${this.events.length} events, ${this.wording.length} wordings and ${layout.rowY.length} rows`,
      };
    }
    return {
      ok: true,
      answer: {
        ...answer,
        transcript: { ...answer.transcript, events: this.events },
        wording: this.wording,
        layout,
        parts: undefined,
      },
    };
  }
}

/** The buffers a message hands over instead of having them copied: a part's packed layout rows. */
export function transferOf(message: LabResponse | ToolResponse): ArrayBuffer[] {
  return message.type === 'run-part' && message.layout !== null ? packedBuffers(message.layout) : [];
}
