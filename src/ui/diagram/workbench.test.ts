import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { findScenario, runRaceById } from '../../scenarios/index';
import { BREAK_H } from '../../diagram/geometry/model';
import { layoutDiagram } from '../../diagram/geometry/layout';
import { textWidthPx } from '../../diagram/geometry/text';
import { runScenario, wordEvents, type SqlModule, type Transcript } from '../../engine';

/** The layout with the engine's wording, as the worker sends it. */
const lay = (t: Transcript, scale?: 'linear' | 'ordinal') => layoutDiagram(t, wordEvents(t.events), scale);

// The diagram's room for text: every marker is at least as wide as its text (estimated), markers on
// neighbouring lanes across a message gap never overlap, and Linear time puts rows at their time
// (pushed down only to make room) with long quiet gaps folded into a marked break.

const race = (id: string, settings?: Record<string, unknown>) => runRaceById(id, { settings }) as unknown as Transcript;

describe('diagram layout: room for every label', () => {
  it.each(['A', 'B', 'C', 'D'])(
    '%s: chips fit their words, nothing reaches into the deadline bars, and no two marks overlap',
    (id) => {
      const layout = lay(race(id));
      const barsRight = Math.max(...layout.bars.map((bar) => bar.x + 12));
      for (const marker of layout.markers) {
        if (marker.look === 'chip' && marker.lines === 1)
          expect(marker.width, marker.text).toBeGreaterThanOrEqual(textWidthPx(marker.text, 14) + 20);
        expect(marker.x - marker.width / 2).toBeGreaterThan(barsRight);
        expect(marker.x + marker.width / 2).toBeLessThanOrEqual(layout.width);
      }
      for (const [k, a] of layout.markers.entries()) {
        for (const b of layout.markers.slice(k + 1)) {
          const x = Math.min(a.x + a.width / 2, b.x + b.width / 2) - Math.max(a.x - a.width / 2, b.x - b.width / 2);
          const y = Math.min(a.y + a.height / 2, b.y + b.height / 2) - Math.max(a.y - a.height / 2, b.y - b.height / 2);
          expect(x > 0 && y > 0, `${id}: "${a.text}" and "${b.text}"`).toBe(false);
        }
      }
    },
  );
});

describe('diagram layout: a ledger race on a laptop', () => {
  let sql: SqlModule;
  beforeAll(async () => {
    sql = await loadSqlJs();
  });
  const ledger = (id: string) =>
    runScenario(findScenario(id), { transport: 'http', ledger: { sql } }) as unknown as Transcript;
  /** The diagram pane at 1280×720 is 962 px wide; the layout's right margin (30 px) is empty. */
  const PANE_AT_1280 = 962;

  it.each(['ledger-race-keyed', 'ledger-race-unsafe', 'inventory-race'])(
    '%s: its lanes fit the pane at 1280 px at zoom 1, each marker inside it',
    (id) => {
      const layout = lay(ledger(id));
      expect(layout.lanes.map((lane) => lane.id)).toEqual(
        expect.arrayContaining(['client', 'server', 'conn-1', 'conn-2']),
      );
      for (const marker of layout.markers)
        expect(marker.x + marker.width / 2, marker.text).toBeLessThanOrEqual(PANE_AT_1280);
      expect(layout.width - 30).toBeLessThanOrEqual(PANE_AT_1280);
    },
  );

  it('a long statement on a connection lane wraps at its names, and its box is tall enough for every line', () => {
    const layout = lay(ledger('ledger-race-unsafe'));
    const failed = layout.markers.find((marker) => marker.text.includes('SQLITE_CONSTRAINT_PRIMARYKEY'));
    expect(failed?.lane).toBe('conn-2');
    // "INSERT INTO ledger." / "idempotency_keys →" / "SQLITE_CONSTRAINT_" / "PRIMARYKEY": at least four
    // lines within the box's text width (220 less the padding; the estimate is generous, so it may count
    // one more), and the box is as tall as the lines it counted. The e2e workbench test checks the drawn text.
    expect(failed?.width).toBe(170);
    expect(failed?.lines).toBeGreaterThanOrEqual(4);
    // The race view's chip: 20 px for its first line, 18 px for each more.
    expect(failed?.height).toBe(20 + ((failed?.lines ?? 0) - 1) * 18);
  });
});

describe('diagram layout: linear time', () => {
  it('C: rows sit at their times; a progress gap and the 2000 ms maximum keep their proportions', () => {
    const transcript = race('C');
    const layout = lay(transcript, 'linear');
    expect(layout.scale).toBe('linear');
    for (let i = 1; i < layout.rowY.length; i++) expect(layout.rowY[i]).toBeGreaterThan(layout.rowY[i - 1] as number);
    const yOf = (atMs: number) => layout.rowY[transcript.events.findIndex((event) => event.atMs === atMs)] as number;
    // Two progress rounds of 400 ms each take the same height.
    expect(Math.abs(yOf(805) - yOf(405) - (yOf(1205) - yOf(805)))).toBeLessThan(2);
    const max = layout.bars.find((bar) => bar.deadline === 'max');
    expect(max).toBeDefined();
    const perMs = (yOf(805) - yOf(405)) / 400;
    expect(((max?.yDue ?? 0) - (max?.y1 ?? 0)) / perMs).toBeCloseTo(2000, -2);
  });

  it('a long quiet gap is folded into a break that says how long it was', () => {
    const transcript = race('C', { progressEveryMs: 5, maxTimeoutMs: 60_000, idleTimeoutMs: 60_000, workMs: 40_000 });
    const quiet = structuredClone(transcript);
    // Push the end of the run 30 s later: one long quiet gap before it.
    const half = Math.floor(quiet.events.length / 2);
    quiet.events = quiet.events.map((event, i) => (i >= half ? { ...event, atMs: event.atMs + 30_000 } : event));
    const layout = lay(quiet, 'linear');
    expect(layout.breaks.length).toBeGreaterThan(0);
    const fold = layout.breaks[0];
    expect(fold?.ms).toBeGreaterThanOrEqual(30_000);
    expect((layout.rowY[fold?.index ?? 0] as number) - (layout.rowY[(fold?.index ?? 1) - 1] as number)).toBeLessThan(
      BREAK_H + 3 * 36,
    );
    expect(lay(quiet).breaks).toEqual([]);
  });
});
