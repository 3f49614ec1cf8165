import { describe, expect, it } from 'vitest';
import { wordEvents, type Transcript } from '../../engine';
import { runRaceById, runScenarioById } from '../../scenarios/index';
import { finishLayout, layItems, layLanes, layoutDiagram, layRows, prepare, standItems } from './layout';
import { BoxGrid, placeLabels, unplacedTags, type GridEntry } from './labelPlacement';
import { planBands, shapeBands } from './bands';

// The layout's phases are pure functions of what the phases before them answer: prepare (what no
// position depends on), rows, lanes, items, the wire labels, and the finish. Each is checked here on its own.

const run = (id: string): Transcript => runRaceById(id, {}) as unknown as Transcript;

describe('the layout phases', () => {
  it.each(['A', 'B', 'C', 'D'])('%s: rows, lanes, items and the finish compose to the layout', (id) => {
    const transcript = run(id);
    const wording = wordEvents(transcript.events);
    for (const scale of ['ordinal', 'linear'] as const) {
      const prepared = prepare(transcript, wording, scale);
      const rows = layRows(prepared, undefined, undefined);
      const across = layLanes(prepared, rows);
      const items = layItems(prepared, rows, across);
      unplacedTags(items.wires);
      expect(finishLayout(prepared, rows, across, items)).toEqual(
        layoutDiagram(transcript, wording, scale, undefined, 'unplaced'),
      );
    }
  });

  it('prepare is not changed by laying out: every pass of the label leads can share it', () => {
    const transcript = run('C');
    const prepared = prepare(transcript, wordEvents(transcript.events), 'ordinal');
    const before = JSON.stringify(prepared);
    const rows = layRows(prepared, undefined, new Map([[prepared.bandEvents[3]?.atMs ?? 0, 40]]));
    layItems(prepared, rows, layLanes(prepared, rows));
    expect(JSON.stringify(prepared)).toBe(before);
  });

  it("a band's lead moves that band and every later one down by the lead, and nothing before it", () => {
    const transcript = run('B');
    const prepared = prepare(transcript, wordEvents(transcript.events), 'ordinal');
    const plain = layRows(prepared, undefined, undefined);
    const bands = plain.plan?.bands ?? [];
    expect(bands.length).toBeGreaterThan(3);
    const moved = bands[2] as (typeof bands)[number];
    const led = layRows(prepared, undefined, new Map([[moved.atMs, 17]]));
    plain.rowY.forEach((y, i) => expect(led.rowY[i]).toBeCloseTo(i < moved.first ? y : y + 17, 9));
  });

  it('bands planned from their shapes are the bands planned afresh, with leads, on a shared axis, and where a shape no longer fits', () => {
    const transcript = runScenarioById('C', {
      settings: { progressEveryMs: 1, workMs: 120, maxTimeoutMs: 100000, idleTimeoutMs: 100000 },
    });
    const { bandEvents } = prepare(transcript, wordEvents(transcript.events), 'ordinal');
    const shapes = shapeBands(bandEvents);
    const fresh = planBands(bandEvents);
    expect(planBands(bandEvents, undefined, undefined, shapes)).toEqual(fresh);
    // Leads of odd sizes on every third band, and every band on an axis of its own (bands far apart).
    const leads = new Map(fresh.bands.filter((_, k) => k % 3 === 1).map((band, k) => [band.atMs, 0.1 + k * 7.3]));
    expect(planBands(bandEvents, undefined, leads, shapes)).toEqual(planBands(bandEvents, undefined, leads));
    const axis = new Map(fresh.bands.map((band, k) => [band.atMs, 1000.7 + k * 333.3]));
    expect(planBands(bandEvents, axis, undefined, shapes)).toEqual(planBands(bandEvents, axis));
    // A shape whose lines no longer come out as it says (here: a lane's lines a row lower) is planned again.
    const band = shapes.bands.findIndex((shape) => shape.lanes.some((lane) => lane.lines.length > 0));
    const wrong = {
      ...shapes,
      bands: shapes.bands.map((shape, k) =>
        k === band ? { ...shape, lanes: shape.lanes.map((lane) => ({ ...lane, offset: lane.offset + 1 })) } : shape,
      ),
    };
    expect(band).toBeGreaterThanOrEqual(0);
    expect(planBands(bandEvents, undefined, leads, wrong)).toEqual(planBands(bandEvents, undefined, leads));
  });

  it('items stood on other rows are the items laid out there, labels placed before or not', () => {
    const transcript = runScenarioById('C', {
      settings: { progressEveryMs: 1, workMs: 120, maxTimeoutMs: 100000, idleTimeoutMs: 100000 },
    });
    const prepared = prepare(transcript, wordEvents(transcript.events), 'ordinal');
    const rows = layRows(prepared, undefined, undefined);
    const across = layLanes(prepared, rows);
    const bands = rows.plan?.bands ?? [];
    const leads = new Map(bands.filter((_, k) => k % 5 === 2).map((band, k) => [band.atMs, 3.7 + k]));
    const moved = layRows(prepared, undefined, leads);
    const items = layItems(prepared, rows, across);
    placeLabels(items.wires, items.markers, across.lanes);
    const stood = standItems(prepared, moved, across, items);
    expect(stood).toEqual(layItems(prepared, moved, across));
    expect(stood.wires.some((wire, k) => wire.y1 !== layItems(prepared, rows, across).wires[k]?.y1)).toBe(true);
    for (const scale of ['ordinal', 'linear'] as const) {
      const p = prepare(transcript, wordEvents(transcript.events), scale);
      const r = layRows(p, undefined, undefined);
      const a = layLanes(p, r);
      expect(standItems(p, r, a, layItems(p, r, a))).toEqual(layItems(p, r, a));
    }
  });

  it('lanes stand left to right in order, the width past the last', () => {
    const transcript = run('D');
    for (const scale of ['ordinal', 'linear'] as const) {
      const prepared = prepare(transcript, wordEvents(transcript.events), scale);
      const across = layLanes(prepared, layRows(prepared, undefined, undefined));
      expect(across.lanes.map((lane) => lane.id)).toEqual(prepared.order);
      for (let i = 1; i < across.lanes.length; i++)
        expect((across.lanes[i] as { x: number }).x).toBeGreaterThan((across.lanes[i - 1] as { x: number }).x);
      expect(across.width).toBeGreaterThan((across.lanes[across.lanes.length - 1] as { x: number }).x);
    }
  });
});

describe('placing labels again from where a placement left them', () => {
  // A dense run: bursts of progress lines, labels that find no clear place and move another (the log holds lifts).
  const transcript = runScenarioById('C', {
    settings: { progressEveryMs: 1, workMs: 120, maxTimeoutMs: 100000, idleTimeoutMs: 100000 },
  });
  const prepared = prepare(transcript, wordEvents(transcript.events), 'ordinal');
  const laidOut = () => {
    const rows = layRows(prepared, undefined, undefined);
    const across = layLanes(prepared, rows);
    return { items: layItems(prepared, rows, across), lanes: across.lanes };
  };

  it('keeping the first k labels as the log has them, then placing the rest, puts every label where one placement does', () => {
    const whole = laidOut();
    const log = placeLabels(whole.items.wires, whole.items.markers, whole.lanes);
    expect(log.steps.some(([, place]) => place === null)).toBe(true);
    const count = whole.items.wires.length;
    for (const keep of [0, 1, Math.floor(count / 3), Math.floor(count / 2), count - 1, count]) {
      const again = laidOut();
      placeLabels(again.items.wires, again.items.markers, again.lanes, { log, keep });
      expect(again.items.wires, `keeping ${keep} of ${count}`).toEqual(whole.items.wires);
    }
  });

  it('a placement taken up from a log it does not match is not the same placement (the check above can fail)', () => {
    const whole = laidOut();
    const log = placeLabels(whole.items.wires, whole.items.markers, whole.lanes);
    const count = whole.items.wires.length;
    // Every label put at its wire's first place, as if the log ended there.
    const wrong = { ...log, steps: log.steps.map(([k]) => [k, { at: 0, side: 'below' }] as const) };
    const again = laidOut();
    placeLabels(again.items.wires, again.items.markers, again.lanes, { log: wrong, keep: count });
    expect(again.items.wires).not.toEqual(whole.items.wires);
  });
});

describe('the box grid the label placer looks boxes up in', () => {
  const box = (top: number, bottom: number, left = 0, right = 10) => ({ top, bottom, left, right });

  it("removing an owner takes out its boxes from every row they reach into, and nobody else's", () => {
    const grid = new BoxGrid<string>();
    // 64 px rows: the first box reaches into rows 0 to 2, the second into row 1 only.
    grid.add(box(10, 150), 'a', 'owner-a');
    grid.add(box(70, 80), 'b', 'owner-b');
    grid.add(box(100, 110), 'a2', 'owner-a');
    const seen = (top: number, bottom: number) => {
      const found: string[] = [];
      grid.within(top, bottom, (_, what) => found.push(what));
      return found;
    };
    expect(seen(0, 200).sort()).toEqual(['a', 'a', 'a', 'a2', 'b']);
    expect(grid.some(box(140, 145), (what) => what === 'a')).toBe(true);
    grid.removeOwner('owner-a');
    expect(seen(0, 200)).toEqual(['b']);
    expect(grid.some(box(140, 145), () => true)).toBe(false);
    expect(grid.some(box(75, 76), (what) => what === 'b')).toBe(true);
  });

  it('finds and removes boxes left of and above the origin as it does the others, each in its own cells', () => {
    const grid = new BoxGrid<string>();
    // 128 px columns: -300..-10 reaches into columns -3 to -1; -100..-70 into row -2; 10..20 into column 0, row 0.
    grid.add(box(-100, -70, -300, -10), 'west', 'owner-w');
    grid.add(box(10, 20, 10, 20), 'east', 'owner-e');
    // Row 2, column 1: the mirror of row -2, column -1, which must not be taken for it.
    grid.add(box(130, 140, 150, 160), 'mirror', 'owner-m');
    const lists: Array<Array<GridEntry<string>>> = [];
    const whatIn = (top: number, bottom: number, left: number, right: number) =>
      lists
        .slice(0, grid.cellLists(top, bottom, left, right, lists))
        .flatMap((list) => list.map((entry) => entry.what))
        .sort();
    expect(whatIn(-90, -80, -200, -150)).toEqual(['west']);
    expect(whatIn(-90, -80, -100, -20)).toEqual(['west']);
    expect(whatIn(-90, 15, -200, 15)).toEqual(['east', 'west', 'west']);
    expect(whatIn(-90, -80, 0, 100)).toEqual([]);
    expect(grid.some(box(-90, -80, -20, -15), (what) => what === 'west')).toBe(true);
    expect(grid.some(box(-90, -80, 5, 8), () => true)).toBe(false);
    grid.removeOwner('owner-w');
    expect(whatIn(-200, 200, -Infinity, Infinity)).toEqual(['east', 'mirror']);
  });
});
