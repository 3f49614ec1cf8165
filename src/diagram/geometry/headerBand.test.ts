// textRows merges every text's rows without making a pair per text (tops and bottoms sorted apart):
// on the lab's layouts and on random texts that overlap, touch, share a top or stand alone, it gives
// exactly the runs that merging the texts in order of their tops gives.
import { describe, expect, it } from 'vitest';
import { runScenario, TRANSPORTS, usesSqlite, wordEvents } from '../../engine';
import { scenarios } from '../../scenarios/index';
import { layoutDiagram } from './layout';
import type { DiagramLayout } from './model';
import { FATE_FONT_PX, LABEL_FONT_PX, LABEL_RAISE, textBottom, textRows, textTop } from './headerBand';

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
