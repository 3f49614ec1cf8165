// textRows merges every text's rows without making a pair per text (tops and bottoms sorted apart):
// on the lab's layouts and on random texts that overlap, touch, share a top or stand alone, it gives
// exactly the runs that merging the texts in order of their tops gives.
import { describe, expect, it } from 'vitest';
import { runScenario, TRANSPORTS, usesSqlite, wordEvents } from '../../engine';
import { scenarios } from '../../scenarios/index';
import { layoutDiagram } from './layout';
import type { DiagramLayout } from './model';
import {
  FATE_FONT_PX,
  fitZoom,
  followedY,
  LABEL_FONT_PX,
  LABEL_RAISE,
  textBottom,
  textRows,
  textTop,
  topPan,
} from './headerBand';
import { HEADER_BAND_PX } from './model';

type Texts = Pick<DiagramLayout, 'wires' | 'markers' | 'times'>;

/** The runs as merging the texts one by one in order of their tops gives them. */
function mergedInOrder(layout: Texts, timeHalf: number): number[] {
  const spans: Array<[number, number]> = [];
  for (const wire of layout.wires) {
    const baseline = wire.labelY - LABEL_RAISE;
    spans.push([textTop(baseline, LABEL_FONT_PX), textBottom(baseline, LABEL_FONT_PX)]);
    spans.push([textTop(wire.tagY, FATE_FONT_PX), textBottom(wire.tagY, FATE_FONT_PX)]);
  }
  for (const marker of layout.markers) spans.push([marker.y - marker.height / 2, marker.y + marker.height / 2]);
  for (const time of layout.times) spans.push([time.y - timeHalf, time.y + timeHalf]);
  spans.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [top, bottom] of spans) {
    const last = merged.length - 1;
    if (last > 0 && top <= (merged[last] as number)) merged[last] = Math.max(merged[last] as number, bottom);
    else merged.push(top, bottom);
  }
  return merged;
}

/** A small deterministic generator (texts at whole and half pixels: ties and touching runs are common). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('textRows', () => {
  it("gives the runs of the lab's layouts as merging in order of the tops does", () => {
    const layouts = scenarios
      .filter((scenario) => !usesSqlite(scenario))
      .flatMap((scenario) =>
        TRANSPORTS.map((transport) => {
          const transcript = runScenario(scenario, { transport, seed: 1 });
          return layoutDiagram(transcript, wordEvents(transcript.events));
        }),
      );
    // The time marks' half height is read back from a layout with one time mark.
    const [probe] = layouts.filter((layout) => layout.times.length > 0);
    const time = probe?.times[0];
    expect(time).toBeDefined();
    const half = time === undefined ? 0 : textRows({ wires: [], markers: [], times: [time] })[1]! - time.y;
    for (const layout of layouts) expect([...textRows(layout)]).toEqual(mergedInOrder(layout, half));
  });

  it('gives the same runs on random texts that overlap, touch, share a top or stand alone', () => {
    const next = random(7);
    const half = textRows({ wires: [], markers: [], times: [{ id: 't', index: 0, y: 0, atMs: 0 }] })[1] as number;
    for (let round = 0; round < 300; round++) {
      const count = Math.floor(next() * 40);
      const y = () => Math.round(next() * 400) / 2;
      const layout = {
        wires: Array.from({ length: count }, () => ({ labelY: y(), tagY: y() })),
        markers: Array.from({ length: Math.floor(next() * 10) }, () => ({ y: y(), height: Math.round(next() * 30) })),
        times: Array.from({ length: Math.floor(next() * 10) }, () => ({ y: y() })),
      } as unknown as Texts;
      expect([...textRows(layout)]).toEqual(mergedInOrder(layout, half));
    }
    expect(textRows({ wires: [], markers: [], times: [] })).toHaveLength(0);
  });
});

// A view fitted to the pane's height shows the whole run: followed at any step, it stays at its top, which
// at a zoom under 1 stands low enough (topPan) for the layout's first HEADER_BAND_PX to fill the band.
describe('fitZoom and followedY', () => {
  it('a run fitted to the height (at zooms under 1 and over it) is followed at its top at every step', () => {
    const away: string[] = [];
    for (const paneHeight of [379, 379.6, 474, 652]) {
      for (let height = 200; height < 1000; height += 0.37) {
        const zoom = fitZoom(10_000, paneHeight, 100, height, 6 / 7, 1.25);
        if (zoom <= 6 / 7 || zoom >= 1.25) continue;
        // Whole: the top's room and the run fill the pane.
        expect(topPan(zoom) + height * zoom).toBeCloseTo(paneHeight, 6);
        const pane = { paneHeight, height, lockstep: false, followAt: 0.55 };
        for (let atY = 0; atY <= height; atY += 9) {
          const y = followedY(new Float64Array(), atY, zoom, pane);
          if (y !== topPan(zoom)) away.push(`pane ${paneHeight} run ${height.toFixed(2)} at ${atY}: ${y}`);
        }
      }
    }
    expect(away.slice(0, 5), `${away.length} away`).toEqual([]);
  });

  it("under 1 the top stands lower by what the layout's first HEADER_BAND_PX is drawn short of the band; from 1 up at 0", () => {
    for (const zoom of [6 / 7, 0.9, 0.99]) expect(HEADER_BAND_PX * zoom + topPan(zoom)).toBeCloseTo(HEADER_BAND_PX, 9);
    for (const zoom of [1, 1.1, 1.25, 2.5]) expect(topPan(zoom)).toBe(0);
  });
});
