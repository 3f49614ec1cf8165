import type { DiagramLayout } from '../diagram/geometry/model';
import type { EventWording, LabAnswer, LabEvent, LabResponse, ToolResponse } from './protocol';

/**
 * A long answer travels in parts: a run of 20,000 events, its wording and its diagram's
 * layout are megabytes, and reading them as one message would hold the page's thread for hundreds of
 * milliseconds (the copy out of the worker and the check). The worker sends the events, their wording
 * and the layout's rows PART_EVENTS at a time as `run-part` messages, each read and checked as it
 * arrives, then the answer itself with those lists empty and the number of parts; the page's client
 * puts them back together (PartsAssembly) before anyone sees the answer, so a short run and a long one
 * answer alike.
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
type LayoutRows = Pick<DiagramLayout, 'rowY' | 'wires' | 'markers' | 'times' | 'bars' | 'breaks'>;

const ROW_LISTS = ['wires', 'markers', 'times', 'bars', 'breaks'] as const;

/** The messages that carry `response`: itself, or its parts and then itself with the parted lists empty. */
export function inParts(
  response: LabResponse | ToolResponse,
  partEvents = PART_EVENTS,
): Array<LabResponse | ToolResponse> {
  if (response.type !== 'transcript' && response.type !== 'layout') return [response];
  const { layout } = response;
  const count = layout.rowY.length;
  if (count <= partEvents) return [response];
  const transcript = response.type === 'transcript' ? response : null;
  // Every list of the layout is in event order: each part takes the items of its events.
  const next = { wires: 0, markers: 0, times: 0, bars: 0, breaks: 0 };
  const take = <K extends (typeof ROW_LISTS)[number]>(list: K, to: number): LayoutRows[K] => {
    const items = layout[list] as Array<{ index: number }>;
    const from = next[list];
    let end = from;
    while (end < items.length && (items[end] as { index: number }).index < to) end += 1;
    next[list] = end;
    return items.slice(from, end) as LayoutRows[K];
  };
  const parts: RunPart[] = [];
  let size = Math.min(FIRST_PART_EVENTS, partEvents);
  for (let from = 0; from < count; from += size, size = Math.min(partEvents, size * 2)) {
    const to = Math.min(count, from + size);
    parts.push({
      type: 'run-part',
      requestId: response.requestId,
      from,
      events: transcript === null ? [] : transcript.transcript.events.slice(from, to),
      wording: transcript === null ? [] : transcript.wording.slice(from, to),
      layout: {
        rowY: layout.rowY.slice(from, to),
        wires: take('wires', to),
        markers: take('markers', to),
        times: take('times', to),
        bars: take('bars', to),
        breaks: take('breaks', to),
      },
    });
  }
  const emptyLayout: DiagramLayout = { ...layout, rowY: [], wires: [], markers: [], times: [], bars: [], breaks: [] };
  const answer: Parted =
    transcript === null
      ? { ...response, layout: emptyLayout, parts: parts.length }
      : {
          ...transcript,
          transcript: { ...transcript.transcript, events: [] },
          wording: [],
          layout: emptyLayout,
          parts: parts.length,
        };
  return [...parts, answer];
}

/** The page's side: the parts of one answer, in order, and the answer made whole from them. */
export class PartsAssembly {
  private received = 0;
  private readonly events: LabEvent[] = [];
  private readonly wording: EventWording[] = [];
  private readonly rows: LayoutRows = { rowY: [], wires: [], markers: [], times: [], bars: [], breaks: [] };

  /** Adds the next part; the reason it does not fit (out of order), or null. */
  add(part: RunPart): string | null {
    if (part.from !== this.rows.rowY.length)
      return `part ${this.received + 1} starts at event ${part.from}, not at ${this.rows.rowY.length}`;
    this.received += 1;
    for (const event of part.events) this.events.push(event);
    for (const wording of part.wording) this.wording.push(wording);
    if (part.layout !== null) {
      for (const y of part.layout.rowY) this.rows.rowY.push(y);
      for (const list of ROW_LISTS) for (const item of part.layout[list]) (this.rows[list] as unknown[]).push(item);
    }
    return null;
  }

  /** The answer with its parts put back, or the reason they do not make it whole. */
  finish<A extends LabAnswer | ToolResponse>(answer: A): { ok: true; answer: A } | { ok: false; problem: string } {
    if (answer.type !== 'transcript' && answer.type !== 'layout')
      return this.received === 0
        ? { ok: true, answer }
        : { ok: false, problem: `a ${answer.type} answer came after ${this.received} parts` };
    const expected = answer.parts ?? 0;
    if (expected !== this.received)
      return { ok: false, problem: `the answer has ${expected} parts; ${this.received} arrived` };
    if (expected === 0) return { ok: true, answer };
    const layout: DiagramLayout = { ...answer.layout, ...this.rows };
    if (answer.type === 'layout') return { ok: true, answer: { ...answer, layout, parts: undefined } };
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
