import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordEvents, type Transcript } from '../../engine';
import { runRaceById } from '../../scenarios/index';
import { barsAt, buildFlow, flowAt } from './flow';
import { layoutDiagram } from '../../diagram/geometry/layout';
import { EXTENTS } from '../../diagram/geometry/model';
import { LONG_PX, SpanIndex, spanReach } from '../../diagram/geometry/spans';

// The band index finds exactly the items a pass over all of them would (short and long ones alike),
// and the diagram cut to a band is the whole diagram's cut, less what lies outside the band, with the
// current and the picked event always kept.

describe('SpanIndex', () => {
  it('finds exactly the items that reach into a band, as a full pass would', () => {
    const item = fc.record({
      gap: fc.integer({ min: 0, max: 300 }),
      up: fc.integer({ min: 0, max: 60 }),
      down: fc.integer({ min: 0, max: 3 * LONG_PX }),
    });
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 300 }),
        fc.integer({ min: -500, max: 40_000 }),
        fc.integer({ min: 0, max: 8_000 }),
        (items, top, height) => {
          let key = 0;
          const spans = items.map(({ gap, up, down }) => {
            key += gap;
            return { key, lo: key - up, hi: key + down };
          });
          const index = new SpanIndex(spans, { key: (span) => span.key, lo: (span) => span.lo, hi: (span) => span.hi });
          const band = { top, bottom: top + height };
          const expected = spans.flatMap((span, at) => (span.hi >= band.top && span.lo <= band.bottom ? [at] : []));
          expect(index.query(band)).toEqual(expected);
        },
      ),
      { seed: 9, numRuns: 300 },
    );
  });

  it('refuses keys that go back up the time axis', () => {
    const same = (key: number) => key;
    expect(() => new SpanIndex([10, 5], { key: same, lo: same, hi: same })).toThrow(/must not decrease/);
  });
});

describe('the diagram cut to the rows on screen', () => {
  const transcript = runRaceById('C', { settings: { progressEveryMs: 2 } }) as unknown as Transcript;
  const flow = buildFlow(layoutDiagram(transcript, wordEvents(transcript.events)));
  const total = transcript.events.length;

  it.each([
    [0.2, 0.3],
    [0.5, 0.6],
    [0.95, 1],
  ])('at %f of the run, a band shows what the whole view shows there, and the current event', (at, to) => {
    const step = Math.round(total * at);
    const rowTop = flow.layout.rowY[Math.round(total * at) - 40] as number;
    const band = { top: rowTop, bottom: flow.layout.rowY[Math.min(total - 1, Math.round(total * to))] as number };
    const whole = flowAt(flow, step, null);
    const cut = flowAt(flow, step, null, band);
    const inBand = (top: number, bottom: number) => bottom >= band.top && top <= band.bottom;
    const wireIds = new Set(
      flow.layout.wires
        .filter((wire) => inBand(Math.min(wire.y1, wire.y2), Math.max(wire.y1, wire.y2)))
        .map((wire) => wire.id),
    );
    expect(cut.edges.map((edge) => edge.id)).toEqual(
      whole.edges.filter((edge) => wireIds.has(edge.id) || edge.data?.marksCurrent === true).map((edge) => edge.id),
    );
    const markerIds = new Set(
      flow.layout.markers
        .filter((marker) => inBand(marker.y - marker.height / 2, marker.y + marker.height / 2))
        .map((marker) => marker.id),
    );
    const cutMarkers = cut.nodes.filter((node) => node.type === 'marker').map((node) => node.id);
    expect(cutMarkers).toEqual(
      whole.nodes
        .filter((node) => node.type === 'marker' && (markerIds.has(node.id) || node.data.current === true))
        .map((node) => node.id),
    );
    expect([cut.nowX, cut.nowY, cut.inFlight]).toEqual([whole.nowX, whole.nowY, whole.inFlight]);
    // Far fewer than the whole view: the work follows the band.
    expect(cut.nodes.length).toBeLessThan(whole.nodes.length / 4);
  });

  it('shows the deadline bars a pass over all of them would: ended ones to where they ended, running ones to the now-line', () => {
    expect(flow.layout.bars.length).toBeGreaterThan(100);
    for (const at of [0.1, 0.5, 0.9, 1]) {
      const step = Math.round(total * at);
      const middle = flow.layout.rowY[Math.max(0, step - 1)] as number;
      for (const band of [
        { top: middle - 1200, bottom: middle + 600 },
        { top: 0, bottom: 1800 },
      ]) {
        const expected = flow.layout.bars.flatMap((bar) => {
          if (bar.index >= step) return [];
          const ended = bar.endIndex !== null && bar.endIndex < step;
          if (bar.y1 > band.bottom || (ended ? (bar.yEnd ?? bar.yDue) : bar.yDue) < band.top) return [];
          return [{ bar, ended, y2: ended ? (bar.yEnd ?? bar.yDue) : Math.min(bar.yDue, middle) }];
        });
        expect(barsAt(flow, step, band, middle)).toEqual(expected);
        // Nothing below now: no bar reaches past the now-line.
        for (const { y2 } of barsAt(flow, step, band, middle)) expect(y2).toBeLessThanOrEqual(middle);
      }
    }
  });

  it('the layout carries each list’s reach as a pass over it finds it (the page makes none)', () => {
    for (const list of ['markers', 'wires', 'times', 'breaks', 'bars'] as const) {
      expect(flow.layout.spans[list], list).toEqual(spanReach(flow.layout[list] as never[], EXTENTS[list] as never));
    }
    expect(flow.layout.spans.barLives).toEqual(spanReach(flow.layout.bars, EXTENTS.barLives));
    // The maximum deadline runs over most of the run: a long item in event units.
    expect(flow.layout.spans.barLives.long.length).toBeGreaterThan(0);
  });

  it('keeps the current event marked when the band is elsewhere', () => {
    const step = Math.round(total / 2);
    const cut = flowAt(flow, step, null, { top: 0, bottom: 600 });
    const marked = [
      ...cut.nodes.filter((node) => node.domAttributes?.['aria-current' as never] === 'step'),
      ...cut.edges.filter((edge) => edge.data?.marksCurrent === true),
    ];
    expect(marked).toHaveLength(1);
  });
});
