import {
  BAND_GAP_MAX,
  BAND_GAP_MIN,
  BAND_GAP_PER_DOUBLING,
  BANDS_TOP_Y,
  CHIP_GAP_X,
  CHIP_H,
  DOT_PX,
  ROW_PITCH,
  SIDE_CLEAR_X,
  SLIM_BAND_H,
} from './model';

/**
 * The race view's rows: one band per virtual instant, as short as what happened then allows. A wire
 * that settles in the band it was sent in (zero latency) ends on its own row, so it is drawn level.
 * Pure: the worker and the Compare tab both call it, through layoutDiagram and sharedAxis.
 */

/** What one event puts in its band. */
export type BandItem =
  /** A chip or dot on `lane`, `width` × `height`. */
  | { kind: 'local'; lane: string; width: number; height: number; groupMax: number; word: boolean }
  /** Nothing drawn (a receipt without a word): it sits on the band's first row. */
  | { kind: 'quiet' }
  /** A wire from lane position `from` to `to`. */
  | { kind: 'wire'; from: number; to: number }
  /** The event that settles the wire sent by event `sentBy` (its arrival or loss), on lane position `at`. */
  | {
      kind: 'settle';
      sentBy: number;
      at: number;
      item: { lane: string; width: number; height: number; groupMax: number; word: boolean } | null;
    };

export interface BandEvent {
  atMs: number;
  /** The lane position of the event's lane (its actor's), for which side of the lane its wires leave or land. */
  lanePosition: number;
  item: BandItem;
}

export interface Band {
  atMs: number;
  top: number;
  height: number;
  /** The centre of its first row. */
  centre: number;
  /** The first event of the band. */
  first: number;
  /** Room kept above the band, past its time gap, for wire labels of the bands just before (see layoutDiagram). */
  lead: number;
}

export interface BandPlan {
  bands: Band[];
  /** Each event's y (centre of its chip, dot or wire row). */
  rowY: number[];
  /** Each local item's x offset from its lane's line. */
  dx: number[];
  /** Each event's band top. */
  bandTop: number[];
  /** Where a wire lands on the event that settles it (its arrival or loss): its row, or the band's first row when its chip stands below the arrowhead. */
  landY: number[];
  /** How far each lane's items reach left and right of its line, in any band. */
  reach: Map<string, { left: number; right: number }>;
}

export function bandGap(deltaMs: number): number {
  if (deltaMs <= 0) return 0;
  return Math.min(BAND_GAP_MAX, BAND_GAP_MIN + BAND_GAP_PER_DOUBLING * Math.log2(1 + deltaMs));
}

/** The band heights and the room kept above each (what a shared axis needs), by instant. */
export function bandHeights(
  events: readonly BandEvent[],
  leads?: ReadonlyMap<number, number>,
): Map<number, { height: number; lead: number }> {
  const plan = planBands(events, undefined, leads);
  return new Map(plan.bands.map((band) => [band.atMs, { height: band.height, lead: band.lead }]));
}

type LocalBox = { lane: string; width: number; height: number; groupMax: number; word: boolean };

/**
 * Lays the bands out from the top; `bandY` (a shared axis) puts an instant's band where every
 * diagram beside it puts that instant, and `leads` keeps room above an instant's band (for wire labels
 * that would otherwise meet those just above). Inside a band every item is on a row of ROW_PITCH: a lane's
 * chips and dots side by side from the first row (wrapped to the next rows past the lane's width),
 * and each wire on the first row free of the band's other wires on the lanes it spans. A lane's
 * chips stand on the side of its line no wire of the band leaves or lands on, so an arrowhead is
 * never under a chip; a line that leaves from under a chip breaks there (chips are drawn over wires).
 *
 * `shapes` (shapeBands of the same events) already knows what is inside each band: the bands are then
 * only stood one below another and their rows placed from their tops (see replayBand).
 */
export function planBands(
  events: readonly BandEvent[],
  bandY?: ReadonlyMap<number, number>,
  leads?: ReadonlyMap<number, number>,
  shapes?: BandShapes,
): BandPlan {
  if (shapes !== undefined && bandY === undefined && (leads === undefined || leads.size === 0)) {
    // The plan the shapes were found by, in arrays of its own.
    const { plain } = shapes;
    return {
      bands: plain.bands.map((band) => ({ ...band })),
      rowY: plain.rowY.slice(),
      dx: plain.dx,
      bandTop: plain.bandTop.slice(),
      landY: plain.landY.slice(),
      reach: new Map(plain.reach),
    };
  }
  return planWith(events, bandY, leads, shapes, undefined);
}

/**
 * What is inside each band of a run, wherever the band stands: its first row's height, its rows, each
 * lane's lines of items and the row each wire, settling and quiet event takes. Planning the bands
 * again (other leads, another axis) with these only places them: see planBands.
 */
export interface BandShapes {
  bands: readonly BandShape[];
  /** Each event's row, as rowY takes it from its band's top: 0 (a lane's item), AT_ROW (the row in `row`), AS_SENDER (the row of the event in `row`). */
  how: Int8Array;
  row: Int32Array;
  /** Where a wire lands on each event: LAND_OWN_ROW (its row) or LAND_FIRST_ROW (the band's first row). */
  land: Int8Array;
  dx: readonly number[];
  reach: ReadonlyMap<string, { left: number; right: number }>;
  /** The plan the shapes were found by: the bands stood from the top with no leads and no axis. */
  plain: BandPlan;
}

/** One band's shape: its events [start, end), its first row's and whole height, the time gap above it, and each lane's lines of items. */
interface BandShape {
  atMs: number;
  start: number;
  end: number;
  firstRowH: number;
  height: number;
  gap: number;
  lanes: LaneShape[];
}

/** A lane's items in one band: the row its lines start on, each line's items and height, and the rows they take. */
interface LaneShape {
  offset: number;
  taken: number;
  lines: Array<{ items: number[]; height: number }>;
}

/** BandShapes.how: 0 is a lane's item (placed with its line), and: */
const AT_ROW = 1;
const AS_SENDER = 2;
const LAND_OWN_ROW = 0;
const LAND_FIRST_ROW = 1;

/** The shapes of a run's bands (for planBands), found by planning them once. */
export function shapeBands(events: readonly BandEvent[]): BandShapes {
  const count = events.length;
  const record: ShapeRecord = {
    bands: [],
    how: new Int8Array(count),
    row: new Int32Array(count),
    land: new Int8Array(count),
  };
  const plain = planWith(events, undefined, undefined, undefined, record);
  return { ...record, dx: plain.dx, reach: plain.reach, plain };
}

/** What planning the bands notes of their shapes as it goes (see BandShapes). */
interface ShapeRecord {
  bands: BandShape[];
  how: Int8Array;
  row: Int32Array;
  land: Int8Array;
}

/** planBands, each band placed from its shape where `shapes` has it, else planned (and, `record`, its shape noted there). */
function planWith(
  events: readonly BandEvent[],
  bandY: ReadonlyMap<number, number> | undefined,
  leads: ReadonlyMap<number, number> | undefined,
  shapes: BandShapes | undefined,
  record: ShapeRecord | undefined,
): BandPlan {
  const count = events.length;
  const plan: BandPlan = {
    bands: [],
    rowY: new Array<number>(count).fill(0),
    dx: shapes === undefined ? new Array<number>(count).fill(0) : (shapes.dx as number[]),
    bandTop: new Array<number>(count).fill(0),
    landY: new Array<number>(count).fill(NaN),
    reach: shapes === undefined ? new Map<string, { left: number; right: number }>() : new Map(shapes.reach),
  };
  // Made when a band is first planned (a pass that only places bands from their shapes needs none).
  let marks: LaneMarks | undefined;
  let start = 0;
  while (start < count) {
    const atMs = (events[start] as BandEvent).atMs;
    const shape = shapes?.bands[plan.bands.length];
    let end = start;
    if (shape !== undefined) end = shape.end;
    else while (end < count && (events[end] as BandEvent).atMs === atMs) end++;
    const before = plan.bands[plan.bands.length - 1];
    const lead = leads?.get(atMs) ?? 0;
    // The first band's lead keeps its labels clear of the lane headers' band above it.
    const top =
      bandY?.get(atMs) ??
      (before === undefined
        ? BANDS_TOP_Y + lead
        : before.top + before.height + (shape?.gap ?? bandGap(atMs - before.atMs)) + lead);
    const placed =
      shape !== undefined && replayBand(shapes as BandShapes, shape, top, plan)
        ? shape
        : planBand(events, start, end, top, plan, before, record, (marks ??= laneMarks(events)));
    plan.bands.push({
      atMs,
      top,
      height: placed.height,
      centre: rowCentre(top, placed.firstRowH, 0),
      first: start,
      lead,
    });
    start = end;
  }
  for (let i = 0; i < count; i++) if (Number.isNaN(plan.landY[i])) plan.landY[i] = plan.rowY[i] as number;
  return plan;
}

/** Plans the band of events [start, end) at `top` (noting its shape in `record`): its first row's height and its height. */
function planBand(
  events: readonly BandEvent[],
  start: number,
  end: number,
  top: number,
  plan: BandPlan,
  before: Band | undefined,
  record: ShapeRecord | undefined,
  marks: LaneMarks,
): { firstRowH: number; height: number } {
  const firstRowH = slimBand(events, start, end) ? SLIM_BAND_H : CHIP_H;
  const band: BandRange = { events, start, end, top, firstRowH };
  for (const list of [marks.sides, marks.arrivals, marks.itemSide, marks.itemRows, marks.below, marks.nextRow])
    list.fill(0);
  wireSides(band, plan.bandTop, marks);
  const lanes: LaneShape[] = [];
  const localRows = placeLocals(band, laneLines(band), marks, plan, lanes);
  const rows = placeWires(band, marks, localRows, plan.rowY, record);
  settleRows(band, marks, plan, record);
  const height = firstRowH + (rows - 1) * ROW_PITCH;
  const atMs = (events[start] as BandEvent).atMs;
  const gap = before === undefined ? 0 : bandGap(atMs - before.atMs);
  record?.bands.push({ atMs, start, end, firstRowH, height, gap, lanes });
  return { firstRowH, height };
}

/**
 * Places a band planned before (its shape) at `top`, with the arithmetic planBand does, so every row is
 * the number planning it there gives; false (nothing to keep) if a lane's rows would come out otherwise.
 */
function replayBand(shapes: BandShapes, shape: BandShape, top: number, plan: BandPlan): boolean {
  const { rowY, bandTop, landY } = plan;
  const { how, row, land } = shapes;
  const { start, end, firstRowH } = shape;
  for (let i = start; i < end; i++) bandTop[i] = top;
  // Index loops: a cold run (the worker's) makes no iterator per lane, line and item.
  for (let l = 0; l < shape.lanes.length; l++) {
    const lane = shape.lanes[l] as LaneShape;
    let y = top + lane.offset * ROW_PITCH;
    for (let n = 0; n < lane.lines.length; n++) {
      const line = lane.lines[n] as LaneShape['lines'][number];
      const centre = y + Math.max(firstRowH, line.height) / 2;
      for (let k = 0; k < line.items.length; k++) rowY[line.items[k] as number] = centre;
      y += Math.max(CHIP_H, line.height) + ROW_PITCH - CHIP_H;
    }
    if (rowsTaken(y, top) !== lane.taken) return false;
  }
  for (let i = start; i < end; i++) if (how[i] === AT_ROW) rowY[i] = rowCentre(top, firstRowH, row[i] as number);
  for (let i = start; i < end; i++) if (how[i] === AS_SENDER) rowY[i] = rowY[row[i] as number] as number;
  for (let i = start; i < end; i++)
    landY[i] = land[i] === LAND_FIRST_ROW ? rowCentre(top, firstRowH, 0) : (rowY[i] as number);
  return true;
}

/** One band being planned: its events [start, end), its top and its first row's height. */
interface BandRange {
  events: readonly BandEvent[];
  start: number;
  end: number;
  top: number;
  firstRowH: number;
}

/** Whether event i sends a wire in the band (is one of its events, and a wire). */
const sentHere = (band: BandRange, i: number): boolean =>
  i >= band.start && i < band.end && (band.events[i] as BandEvent).item.kind === 'wire';

/** Sides of a lane's line, as bits: a wire leaves or lands on its left (toward a lower position), on its right. */
const LEFT = 1;
const RIGHT = 2;

/**
 * What planning one band notes per lane position, in arrays reused from band to band (emptied to 0 for
 * each): the sides its wires leave or land on, and those where a wire sent earlier lands (LEFT | RIGHT
 * bits); the side its items stand on and the rows that hold a word (0: none); whether its words stand a
 * row below the first (1); the first row free of its wires.
 */
interface LaneMarks {
  sides: number[];
  arrivals: number[];
  itemSide: number[];
  itemRows: number[];
  below: number[];
  nextRow: number[];
}

/** Empty lane marks for the lane positions the events name. */
function laneMarks(events: readonly BandEvent[]): LaneMarks {
  let last = 0;
  for (let i = 0; i < events.length; i++) {
    const { lanePosition, item } = events[i] as BandEvent;
    last = Math.max(last, lanePosition);
    if (item.kind === 'wire') last = Math.max(last, item.from, item.to);
    else if (item.kind === 'settle') last = Math.max(last, item.at);
  }
  const zeros = () => new Array<number>(last + 1).fill(0);
  return {
    sides: zeros(),
    arrivals: zeros(),
    itemSide: zeros(),
    itemRows: zeros(),
    below: zeros(),
    nextRow: zeros(),
  };
}

const rowCentre = (top: number, firstRowH: number, row: number) => top + firstRowH / 2 + row * ROW_PITCH;

/** How many rows a lane's lines take in a band at `top`, their last line ending above y. */
const rowsTaken = (y: number, top: number) =>
  Math.max(1, Math.ceil((y - top - (ROW_PITCH - CHIP_H)) / ROW_PITCH - 0.01));

/** What event i puts on its lane in this band: its chip or dot, or (a wire settled in the band it was sent in) nothing. */
function localOf(band: BandRange, i: number): LocalBox | null {
  const item = (band.events[i] as BandEvent).item;
  if (item.kind === 'local') return item;
  if (item.kind === 'settle' && !sentHere(band, item.sentBy)) return item.item;
  return null;
}

/**
 * A band holding only dots (no word, no wire sent from it) is a dot's height: a long race's
 * bookkeeping instants (a receipt, a checkpoint) then take little of the pane.
 */
function slimBand(events: readonly BandEvent[], start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const item = (events[i] as BandEvent).item;
    const box = item.kind === 'local' ? item : item.kind === 'settle' ? item.item : null;
    if (item.kind === 'wire' || (box !== null && (box.word || box.height > DOT_PX))) return false;
  }
  return true;
}

/** The side of `lane`'s line toward the lane `toward` (LEFT or RIGHT; none, 0, on the lane itself). */
const sideToward = (lane: number, toward: number): number => (toward === lane ? 0 : toward > lane ? RIGHT : LEFT);

/**
 * Which sides of each lane a wire of this band leaves or lands on (marks.sides), and which sides a wire
 * sent in an earlier band lands on (marks.arrivals: its arrowhead is there); records each event's band top.
 */
function wireSides(band: BandRange, bandTop: number[], marks: LaneMarks): void {
  const { events } = band;
  const { sides, arrivals } = marks;
  for (let i = band.start; i < band.end; i++) {
    const item = (events[i] as BandEvent).item;
    bandTop[i] = band.top;
    if (item.kind === 'wire') sides[item.from] = (sides[item.from] as number) | sideToward(item.from, item.to);
    else if (item.kind === 'settle') {
      const sender = events[item.sentBy] as BandEvent;
      if (sender.item.kind === 'wire') {
        const side = sideToward(item.at, sender.item.from);
        sides[item.at] = (sides[item.at] as number) | side;
        if (!sentHere(band, item.sentBy)) arrivals[item.at] = (arrivals[item.at] as number) | side;
      }
    }
  }
}

type LaneLines = Map<
  string,
  { position: number; words: number; lines: Array<{ items: number[]; width: number; height: number }> }
>;

/** Each lane's items in lines (wrapped past the lane's width), and how many lines hold a word. */
function laneLines(band: BandRange): LaneLines {
  const lines: LaneLines = new Map();
  for (let i = band.start; i < band.end; i++) {
    const local = localOf(band, i);
    if (local === null) continue;
    let lane = lines.get(local.lane);
    if (lane === undefined)
      lines.set(local.lane, (lane = { position: (band.events[i] as BandEvent).lanePosition, words: 0, lines: [] }));
    if (local.word)
      lane.words =
        lane.lines.length +
        (lane.lines.length > 0 && lane.lines[lane.lines.length - 1]!.width + CHIP_GAP_X + local.width <= local.groupMax
          ? 0
          : 1);
    const last = lane.lines[lane.lines.length - 1];
    if (last !== undefined && last.width + CHIP_GAP_X + local.width <= local.groupMax) {
      last.items.push(i);
      last.width += CHIP_GAP_X + local.width;
      last.height = Math.max(last.height, local.height);
    } else lane.lines.push({ items: [i], width: local.width, height: local.height });
  }
  return lines;
}

/**
 * Each lane's items in lines from the first row, on the side of its line no wire uses: their x offsets
 * and rows; per lane position (in `marks`), the side they stand on and the rows they take, and whether
 * its words stand a row below the band's first row (where the wires arriving on that side land).
 * Returns the rows the band takes so far. Each lane's lines go into `shapes`.
 */
function placeLocals(band: BandRange, lines: LaneLines, marks: LaneMarks, plan: BandPlan, shapes: LaneShape[]): number {
  let rows = 1;
  for (const [id, lane] of lines) {
    const used = marks.sides[lane.position] as number;
    // Right of the line when only the left is used, left of it when only the right is, else centred;
    // the first lane's always right of it (left of it are the time column and the deadline bars).
    const side = lane.position === 0 ? 1 : used === LEFT ? 1 : used === RIGHT ? -1 : 0;
    // A wire arriving on the side the words stand on (the first lane's right, or both sides) lands on
    // the first row and the words start on the next: no arrowhead ends under a chip.
    const landing = marks.arrivals[lane.position] as number;
    const offset =
      lane.words > 0 && landing !== 0 && (side === 0 || (landing & (side > 0 ? RIGHT : LEFT)) !== 0) ? 1 : 0;
    if (offset > 0) marks.below[lane.position] = 1;
    let y = band.top + offset * ROW_PITCH;
    const laneReach = plan.reach.get(id) ?? { left: 0, right: 0 };
    plan.reach.set(id, laneReach);
    for (const line of lane.lines) {
      let x = side === 0 ? -line.width / 2 : side > 0 ? SIDE_CLEAR_X : -SIDE_CLEAR_X - line.width;
      laneReach.left = Math.max(laneReach.left, -x);
      laneReach.right = Math.max(laneReach.right, x + line.width);
      for (const i of line.items) {
        const local = localOf(band, i) as LocalBox;
        plan.dx[i] = x + local.width / 2;
        plan.rowY[i] = y + Math.max(band.firstRowH, line.height) / 2;
        x += local.width + CHIP_GAP_X;
      }
      y += Math.max(CHIP_H, line.height) + ROW_PITCH - CHIP_H;
    }
    const taken = rowsTaken(y, band.top);
    shapes.push({ offset, taken, lines: lane.lines });
    // Dots may sit on a wire's line; only rows holding a word are in a wire's way.
    marks.itemSide[lane.position] = side;
    marks.itemRows[lane.position] = Math.min(taken, offset + lane.words);
    rows = Math.max(rows, taken);
  }
  return rows;
}

/**
 * Wires: each on the first row free of the band's other wires on the lanes it spans, and below the
 * items it would pass through (a lane's items on the side it leaves toward, or between). The rows the band takes.
 */
function placeWires(
  band: BandRange,
  marks: LaneMarks,
  rowsSoFar: number,
  rowY: number[],
  record: ShapeRecord | undefined,
): number {
  let rows = rowsSoFar;
  const { itemSide, itemRows, nextRow } = marks;
  for (let i = band.start; i < band.end; i++) {
    const item = (band.events[i] as BandEvent).item;
    if (item.kind !== 'wire') continue;
    const low = Math.min(item.from, item.to);
    const high = Math.max(item.from, item.to);
    const toward = item.to > item.from ? 1 : -1;
    let row = 0;
    for (let lane = low; lane <= high; lane++) {
      row = Math.max(row, nextRow[lane] as number);
      const itemsRows = itemRows[lane] as number;
      const inTheWay =
        itemsRows > 0 && lane !== item.to && (lane !== item.from || itemSide[lane] === 0 || itemSide[lane] === toward);
      if (inTheWay) row = Math.max(row, itemsRows);
    }
    for (let lane = low; lane <= high; lane++) nextRow[lane] = row + 1;
    rows = Math.max(rows, row + 1);
    rowY[i] = rowCentre(band.top, band.firstRowH, row);
    if (record !== undefined) {
      record.how[i] = AT_ROW;
      record.row[i] = row;
    }
  }
  return rows;
}

/** The rows of what is neither an item nor a wire, and where each settled wire lands (noted in `record`). */
function settleRows(band: BandRange, { below }: LaneMarks, plan: BandPlan, record: ShapeRecord | undefined): void {
  const { rowY, landY } = plan;
  for (let i = band.start; i < band.end; i++) {
    const item = (band.events[i] as BandEvent).item;
    if (item.kind === 'settle' && sentHere(band, item.sentBy)) {
      rowY[i] = rowY[item.sentBy] as number;
      if (record !== undefined) {
        record.how[i] = AS_SENDER;
        record.row[i] = item.sentBy;
      }
    } else if (localOf(band, i) === null && item.kind !== 'wire') {
      rowY[i] = rowCentre(band.top, band.firstRowH, 0);
      if (record !== undefined) record.how[i] = AT_ROW;
    }
    if (item.kind !== 'settle') continue;
    const first = !sentHere(band, item.sentBy) && below[item.at] === 1;
    landY[i] = first ? rowCentre(band.top, band.firstRowH, 0) : (rowY[i] as number);
    if (record !== undefined) record.land[i] = first ? LAND_FIRST_ROW : LAND_OWN_ROW;
  }
}

/** y of any virtual time on a plan: an instant's local row, else between the bands around it, else a little past the last. */
export function bandYAt(bands: readonly Band[], atMs: number): number {
  if (bands.length === 0) return BANDS_TOP_Y;
  const low = bandAtOrAfter(bands, atMs);
  const at = bands[low] as Band;
  if (at.atMs === atMs || (low === 0 && atMs <= at.atMs)) return at.centre;
  if (at.atMs < atMs) return at.top + at.height + bandGap(atMs - at.atMs);
  const before = bands[low - 1] as Band;
  const from = before.top + before.height;
  return from + (at.top - from) * ((atMs - before.atMs) / (at.atMs - before.atMs));
}

/** The first band at or after an instant (the last band if none): the band bandYAt reads that instant's y from, with the one before it. */
export function bandAtOrAfter(bands: readonly Band[], atMs: number): number {
  let low = 0;
  let high = bands.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((bands[mid] as Band).atMs < atMs) low = mid + 1;
    else high = mid;
  }
  return low;
}
