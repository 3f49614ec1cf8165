import { describe, expect, it } from 'vitest';
import { wordEvents } from '../../engine';
import { runRaceById } from '../../scenarios/index';
import { layoutDiagram } from './layout';
import { overviewColumns, overviewTicks, raceSpan, viewYAt, windowOnStrip } from './overview';

const laid = (id: string) => {
  const transcript = runRaceById(id, {});
  return { transcript, layout: layoutDiagram(transcript, wordEvents(transcript.events)) };
};

describe('the run overview', () => {
  it('draws only what has happened: no tick past the current step, every event column ticked at the end', () => {
    const { transcript, layout } = laid('C');
    const columns = overviewColumns(layout, 400);
    expect(overviewTicks(columns, 0)).toEqual({ events: '', messages: '' });
    for (let step = 1; step <= transcript.events.length; step++) {
      const nowX = (400 * (layout.rowY[step - 1] as number)) / layout.height;
      const { events, messages } = overviewTicks(columns, step);
      const xs = [...`${events}${messages}`.matchAll(/M([\d.]+) /g)].map((match) => Number(match[1]));
      expect(xs.length).toBeGreaterThan(0);
      // Rows within a band may sit a little below the band's first row: allow the band's reach.
      for (const x of xs) expect(x).toBeLessThanOrEqual(nowX + 400 * (60 / layout.height) + 1);
    }
    const all = overviewTicks(columns, transcript.events.length);
    expect(all.messages.split('M').length - 1).toBeGreaterThanOrEqual(
      new Set(layout.messageIndexes.map((i) => Math.floor((400 * (layout.rowY[i] as number)) / layout.height))).size,
    );
  });

  it('the window it draws and the view it moves to are each other’s inverse, inside the diagram', () => {
    const height = 3000;
    const width = 600;
    for (const zoom of [0.8, 1, 1.5]) {
      for (const left of [0, 100, 250, 400]) {
        const y = viewYAt(left, zoom, 450, height, width);
        expect(y).toBeLessThanOrEqual(0);
        expect(y).toBeGreaterThanOrEqual(450 - height * zoom);
        const drawn = windowOnStrip({ y, zoom }, 450, height, width);
        // Where the diagram's end stops it, the window ends at the strip's end.
        if (drawn.x + drawn.width < width - 0.5) expect(drawn.x).toBeCloseTo(left, 6);
        else expect(drawn.x).toBeLessThanOrEqual(left + 1e-6);
        expect(drawn.width).toBeCloseTo((450 / zoom / height) * width, 6);
      }
    }
  });

  it('the race window runs from the tools/call to the terminal event', () => {
    const { transcript } = laid('A');
    const span = raceSpan(transcript.events);
    expect(span).not.toBeNull();
    const from = transcript.events[span?.from ?? -1];
    expect(from?.kind === 'message' && (from.message as { method?: string }).method).toBe('tools/call');
    expect(transcript.events[span?.to ?? -1]?.kind).toBe('terminal');
  });
});
