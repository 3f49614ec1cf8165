// Proves the packed layout rows a long answer's parts carry (layoutCodec.ts) are the layout exactly:
// packing and unpacking gives back every row, wire, marker, time, bar and break as laid out (nulls
// included), the page's check passes what the worker packs, and it refuses a part whose numbers,
// strings or choices are not what the layout allows, naming the field.
import { describe, expect, it } from 'vitest';
import { runScenario, wordEvents } from '../engine';
import { findScenario } from '../scenarios/index';
import { layoutDiagram } from '../diagram/geometry/layout';
import { explainPackedRows, packRows, unpackRows, type LayoutRows, type PackedRows } from './layoutCodec';
import { explainBadResponse } from './protocol';

const rowsOf = (id: string, settings = {}, scale: 'ordinal' | 'linear' = 'ordinal'): LayoutRows => {
  const transcript = runScenario(findScenario(id), { transport: 'http', seed: 1, settings });
  const layout = layoutDiagram(transcript, wordEvents(transcript.events), scale);
  const { rowY, wires, markers, times, bars, breaks, wireMarks, messageIndexes, resolvedSorted } = layout;
  return { rowY, wires, markers, times, bars, breaks, wireMarks, messageIndexes, resolvedSorted };
};

const part = (layout: PackedRows) => ({ type: 'run-part', requestId: 1, from: 0, events: [], wording: [], layout });

describe('the packed layout rows', () => {
  it.each(['A', 'B', 'C', 'D'])('%s: unpacking gives back exactly the rows laid out, on both time axes', (id) => {
    for (const scale of ['ordinal', 'linear'] as const) {
      const rows = rowsOf(id, {}, scale);
      const packed = structuredClone(packRows(rows));
      expect(explainPackedRows(packed)).toBeNull();
      expect(unpackRows(packed)).toStrictEqual(rows);
    }
  });

  it('keeps the nulls: a wire never arriving and with no reason, a bar never ended', () => {
    const rows = rowsOf('C', { progressEveryMs: 2 });
    const [wire, ...wires] = rows.wires;
    const [bar, ...bars] = rows.bars;
    if (wire === undefined || bar === undefined) throw new Error('C lays out wires and deadline bars');
    const withNulls: LayoutRows = {
      ...rows,
      wires: [{ ...wire, arrivesAtMs: null, reason: null }, ...wires],
      bars: [{ ...bar, endIndex: null, endAction: null, yEnd: null }, ...bars],
    };
    expect(unpackRows(structuredClone(packRows(withNulls)))).toStrictEqual(withNulls);
  });

  it('passes the page check of a run part, and is refused when a number, a string or a choice is not what the layout allows', () => {
    const rows = rowsOf('B');
    expect(explainBadResponse(part(packRows(rows)))).toBeNull();
    const spoilt = (spoil: (packed: PackedRows) => void) => {
      const packed = packRows(rows);
      spoil(packed);
      return explainBadResponse(part(packed));
    };
    // A wire's fields in order: id, kind, index, seq, from, to, x1, …
    const WIRE_FIELDS = 22;
    expect(spoilt((packed) => (packed.wires.values[6] = Infinity))).toMatch(/wires\.0\.x1 is not a finite number/);
    expect(spoilt((packed) => (packed.wires.values[WIRE_FIELDS + 2] = 1.5))).toMatch(
      /wires\.1\.index is not a non-negative integer/,
    );
    expect(spoilt((packed) => (packed.wires.values[0] = packed.strings.length))).toMatch(
      /wires\.0\.id names no string/,
    );
    expect(spoilt((packed) => (packed.wires.values[1] = 3))).toMatch(/wires\.0\.kind names no choice/);
    expect(spoilt((packed) => (packed.wires.values[1] = -1))).toMatch(/wires\.0\.kind names no choice/);
    expect(spoilt((packed) => (packed.rowY[0] = NaN))).toMatch(/rowY\.0 is not a finite number/);
    expect(spoilt((packed) => (packed.markers.count += 1))).toMatch(/markers holds \d+ numbers, not 15 for each of/);
    expect(spoilt((packed) => ((packed as { times: unknown }).times = { count: 0, values: [] }))).toMatch(/times/);
    expect(spoilt((packed) => (packed.strings[0] = 7 as unknown as string))).toMatch(/strings/);
    expect(spoilt((packed) => (packed.wireMarks[1] = -1))).toMatch(/wireMarks\.1 is not a non-negative integer/);
    expect(spoilt((packed) => (packed.messageIndexes[0] = 0.5))).toMatch(/messageIndexes\.0 is not a non-negative/);
    expect(spoilt((packed) => (packed.resolvedSorted[0] = NaN))).toMatch(/resolvedSorted\.0 is not a non-negative/);
    expect(spoilt((packed) => ((packed as { wireMarks: unknown }).wireMarks = [0, 0]))).toMatch(/wireMarks/);
  });
});
