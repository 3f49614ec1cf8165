import { MARKER_H, type Lane, type Marker, type Wire } from './model';
import { textWidthPx } from './text';
import { LABEL_RAISE, TEXT_HALO_PX, textBottom, textTop } from './headerBand';

// ── wire labels beside markers ─────────────────────────────────────────────────────────────────────

/** A wire's label (15 px bold) sits 9 px above its line, its fate word (14 px, spaced capitals) 21 px below: the rows they take around labelY. */
const LABEL_ABOVE = 28;
const LABEL_BELOW = 28;
/** Its fate word's baseline under its line when it stands under the label (the label's baseline is LABEL_RAISE above it). */
export const TAG_BELOW = 21;
/** The label's halo (a 6 px stroke) and the room kept between a label and a marker. */
export const LABEL_PAD_X = 8;
let fateWidth: number | undefined;
/** The widest fate word ("IN FLIGHT"), spaced capitals (a function: the page, which lays nothing out, need not compute it; computed once). */
export const fateWidthPx = (): number => (fateWidth ??= Math.ceil(textWidthPx('IN FLIGHT', 14, true) * 1.15));

/** A text's box on the diagram: the em box the browser gives it, with its halo. */
export interface TextBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** A line of text's box, centred on x, from its baseline and font size (ascent and descent of the sans-serif, the 3 px halo). */
function textBox(x: number, baseline: number, width: number, fontPx: number): TextBox {
  const halo = TEXT_HALO_PX;
  return {
    left: x - width / 2 - halo,
    right: x + width / 2 + halo,
    top: textTop(baseline, fontPx) - halo,
    bottom: textBottom(baseline, fontPx) + halo,
  };
}

/**
 * The last step at which a wire shows a fate word (a wire is drawn from the step after it is sent): in
 * flight until the step of its fate, then "LOST" or "IGNORED" to the end (Infinity); null if it never shows one.
 */
export function tagShownUntil(wire: Wire): number | null {
  if (wire.kind === 'stream-close') return null;
  if (wire.fate === 'lost' || wire.fate === 'ignored') return Infinity;
  return wire.resolvedAt > wire.index ? wire.resolvedAt : null;
}

/** Whether `wire`'s fate word and `other`'s label are ever on screen at once (`other`'s label shows from the step after it is sent, to the end). */
export const tagMeetsLabelOf = (wire: Wire, other: Wire): boolean => (tagShownUntil(wire) ?? -Infinity) > other.index;

/** Where a wire's label and its fate word ("IN FLIGHT", "LOST", "IGNORED"; the widest) are drawn: the view draws them at these baselines. */
export function wireTextBoxes(wire: Wire): { label: TextBox; tag: TextBox | null } {
  return {
    label: textBox(wire.labelX, wire.labelY - LABEL_RAISE, textWidthPx(wire.label, 15, true), 15),
    tag: tagShownUntil(wire) !== null ? textBox(wire.tagX, wire.tagY, fateWidthPx(), 14) : null,
  };
}

export const boxesMeet = (a: TextBox, b: TextBox): boolean =>
  Math.min(a.right, b.right) > Math.max(a.left, b.left) && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);

/** Room kept between a label and its fate word when the word stands beside it. */
const TAG_GAP_X = 10;
/** How far apart the places tried along a line are. */
const LABEL_STEP_PX = 6;
/** Height of a row of the grid that finds the boxes near a place. */
const GRID_PX = 64;

/** Width of a column of the grid: a place's search visits the columns of its gap, not every lane's. */
const GRID_COLUMN_PX = 128;

export type GridEntry<T> = { box: TextBox; what: T; owner: unknown };

/** A row's or column's slot in the grid's arrays: 0, 1, 2, … at 0, −1, 1, −2, … (arrays, not maps: no hashing per look-up). */
const slotOf = (cell: number): number => (cell >= 0 ? 2 * cell : -2 * cell - 1);
/** The row or column in a slot (slotOf undone). */
const cellOf = (slot: number): number => (slot % 2 === 0 ? slot / 2 : -(slot + 1) / 2);

/**
 * Boxes found by the cells of the diagram they reach into (rows GRID_PX high, columns GRID_COLUMN_PX
 * wide): what a label could cover, looked up without a pass over the run or over the other lanes. Each
 * box may have an owner (a wire): `removeOwner` takes that owner's boxes out of the cells they were
 * added to and no others, so lifting a label costs the cells it spans, not the run.
 */
export class BoxGrid<T> {
  /** Each cell's boxes, by its row's slot, then its column's. */
  private readonly rows: Array<Array<Array<GridEntry<T>> | undefined> | undefined> = [];
  /** The cells each owner's boxes were added to: row, column, row, column, … */
  private readonly cellsOf = new Map<unknown, number[]>();
  add(box: TextBox, what: T, owner?: unknown): void {
    const entry = { box, what, owner };
    let taken: number[] | undefined;
    if (owner !== undefined) {
      taken = this.cellsOf.get(owner);
      if (taken === undefined) this.cellsOf.set(owner, (taken = []));
    }
    const lastRow = Math.floor(box.bottom / GRID_PX);
    const firstColumn = Math.floor(box.left / GRID_COLUMN_PX);
    const lastColumn = Math.floor(box.right / GRID_COLUMN_PX);
    for (let row = Math.floor(box.top / GRID_PX); row <= lastRow; row++) {
      const rowSlot = slotOf(row);
      let columns = this.rows[rowSlot];
      if (columns === undefined) this.rows[rowSlot] = columns = [];
      for (let column = firstColumn; column <= lastColumn; column++) {
        const slot = slotOf(column);
        const list = columns[slot];
        if (list === undefined) columns[slot] = [entry];
        else list.push(entry);
        // A cell noted twice (an owner's two boxes in it) is emptied of them the first time.
        taken?.push(row, column);
      }
    }
  }
  removeOwner(owner: unknown): void {
    const taken = this.cellsOf.get(owner);
    if (taken === undefined) return;
    for (let i = 0; i < taken.length; i += 2) {
      const list = this.rows[slotOf(taken[i] as number)]?.[slotOf(taken[i + 1] as number)];
      if (list === undefined) continue;
      // The others' boxes kept in their order, in the same list.
      let kept = 0;
      for (const entry of list) if (entry.owner !== owner) list[kept++] = entry;
      list.length = kept;
    }
    this.cellsOf.delete(owner);
  }
  /**
   * The lists of boxes in the cells that [top, bottom] × [left, right] reaches into, written into `out`
   * from its start (callers loop over them with no function called per box); returns how many.
   */
  cellLists(top: number, bottom: number, left: number, right: number, out: Array<Array<GridEntry<T>>>): number {
    let count = 0;
    const firstColumn = Math.floor(left / GRID_COLUMN_PX);
    const lastColumn = Math.floor(right / GRID_COLUMN_PX);
    const lastRow = Math.floor(bottom / GRID_PX);
    for (let row = Math.floor(top / GRID_PX); row <= lastRow; row++) {
      const columns = this.rows[slotOf(row)];
      if (columns === undefined) continue;
      if (lastColumn - firstColumn + 1 > columns.length) {
        // Wider than the row holds (or unbounded): each column it holds, if in the range.
        for (let slot = 0; slot < columns.length; slot++) {
          const list = columns[slot];
          const column = cellOf(slot);
          if (list !== undefined && column >= firstColumn && column <= lastColumn) out[count++] = list;
        }
      } else
        for (let column = firstColumn; column <= lastColumn; column++) {
          const list = columns[slotOf(column)];
          if (list !== undefined) out[count++] = list;
        }
    }
    return count;
  }
  private readonly scratch: Array<Array<GridEntry<T>>> = [];
  /** Each list of boxes in the cells that [top, bottom] × [left, right] reaches into. */
  private cells(top: number, bottom: number, left: number, right: number, visit: (list: Array<GridEntry<T>>) => void) {
    // Its own list of cells: a visit may look the grid up again.
    const lists: Array<Array<GridEntry<T>>> = [];
    const count = this.cellLists(top, bottom, left, right, lists);
    for (let k = 0; k < count; k++) visit(lists[k] as Array<GridEntry<T>>);
  }
  /**
   * Each box in the cells that [top, bottom] × [left, right] reaches into (a box reaching into several
   * of them is visited once for each): every box that reaches into that rectangle, and maybe others near it.
   */
  within(
    top: number,
    bottom: number,
    visit: (box: TextBox, what: T) => void,
    left = -Infinity,
    right = Infinity,
  ): void {
    this.cells(top, bottom, left, right, (list) => {
      for (const entry of list) visit(entry.box, entry.what);
    });
  }
  some(box: TextBox, meets: (what: T) => boolean): boolean {
    const lists = this.scratch;
    const count = this.cellLists(box.top, box.bottom, box.left, box.right, lists);
    for (let k = 0; k < count; k++)
      for (const entry of lists[k] as Array<GridEntry<T>>)
        if (boxesMeet(entry.box, box) && meets(entry.what)) return true;
    return false;
  }
}

/**
 * Whether a wire's line passes through the box [left, right] × [top, bottom] (the line clipped to the box
 * leaves a piece of it): its four edges clipped in turn, with no object made (the placer asks this often).
 */
function segmentCrosses(wire: Wire, left: number, right: number, top: number, bottom: number): boolean {
  const dx = wire.x2 - wire.x1;
  const dy = wire.y2 - wire.y1;
  let enter = 0;
  let leave = 1;
  for (let edge = 0; edge < 4; edge++) {
    const p = edge === 0 ? -dx : edge === 1 ? dx : edge === 2 ? -dy : dy;
    const q =
      edge === 0 ? wire.x1 - left : edge === 1 ? right - wire.x1 : edge === 2 ? wire.y1 - top : bottom - wire.y1;
    if (p === 0) {
      if (q <= 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) enter = Math.max(enter, r);
    else leave = Math.min(leave, r);
    if (enter >= leave) return false;
  }
  return true;
}

/** The y of a wire's line at x (a function of the wire, not a closure made per spot). */
const yOn = (wire: Wire, x: number): number =>
  wire.x2 === wire.x1 ? (wire.y1 + wire.y2) / 2 : wire.y1 + ((wire.y2 - wire.y1) * (x - wire.x1)) / (wire.x2 - wire.x1);

/** A wire's label with what its places are tried in: the gap's lanes, its width among markers, its line. */
interface Spot {
  wire: Wire;
  /** The wire's position in the wires. */
  position: number;
  left: number;
  right: number;
  width: number;
  /** Where the markers alone put it. */
  x: number;
  labelWidth: number;
  tagged: boolean;
  /** What the placed grid holds for its label and for its fate word. */
  asLabel: Placed;
  asTag: Placed;
  /** Its label's place while it is put (null: not put yet). */
  put: Place | null;
}
/** What the placed grid holds for a wire's label (tag false) or fate word: the wire, and its spot. */
type Placed = { wire: Wire; tag: boolean; spot: Spot };
type Side = 'below' | 'right' | 'left';
/** Where a label is put: its centre's x on its line, and the side of it its fate word stands on. */
type Place = { readonly at: number; readonly side: Side };

/**
 * What one placement of a run's labels did, in the order it did it, so that the next placement of the
 * same run (laid out again with more room above some band) can take up every label it placed before
 * anything that changed: each label put (where) or taken off (null), by its wire's position in the
 * wires; where in that log each wire's placement began; and how low each wire's placement looked (the
 * lowest end of every line it searched along, its own and that of any label it moved).
 */
export interface PlacementLog {
  readonly steps: Array<readonly [number, Place | null]>;
  readonly began: number[];
  readonly lowest: number[];
}

/** How far below the lowest end of the lines it searched along anything a placement looks at may reach (LABEL_BELOW and a halo, rounded up). */
export const LOOKS_BELOW_PX = 64;

/** A spot's label at x (on its line at y), and its block: the rows a label and a fate word under it take, as wide as the wider of the two. */
function labelBlockAt(spot: Spot, at: number, y: number): { label: TextBox; block: TextBox } {
  return {
    label: textBox(at, y - LABEL_RAISE, spot.labelWidth, 15),
    block: {
      left: at - (spot.width / 2 - LABEL_PAD_X),
      right: at + (spot.width / 2 - LABEL_PAD_X),
      top: y - LABEL_ABOVE,
      bottom: y + LABEL_BELOW,
    },
  };
}

/** Each lane's markers in row order, and half the tallest marker's height: how far any marker's box reaches from its row. */
function markersByLane(markers: readonly Marker[]): { byLane: Map<string, Marker[]>; reach: number } {
  const byLane = new Map<string, Marker[]>();
  let reach = MARKER_H / 2;
  for (const marker of markers) {
    reach = Math.max(reach, marker.height / 2);
    const list = byLane.get(marker.lane);
    if (list === undefined) byLane.set(marker.lane, [marker]);
    else list.push(marker);
  }
  return { byLane, reach };
}

/** Every marker's box, by the rows it reaches into. */
function markerGrid(markers: readonly Marker[]): BoxGrid<null> {
  const grid = new BoxGrid<null>();
  for (const marker of markers)
    grid.add(
      {
        left: marker.x - marker.width / 2,
        right: marker.x + marker.width / 2,
        top: marker.y - marker.height / 2,
        bottom: marker.y + marker.height / 2,
      },
      null,
    );
  return grid;
}

/** Every wire's line, by the rows it spans: a label keeps its text off the other wires' lines where it can. */
function lineRowsOf(wires: readonly Wire[]): Map<number, Wire[]> {
  const lineRows = new Map<number, Wire[]>();
  for (const wire of wires) {
    const last = Math.floor(Math.max(wire.y1, wire.y2) / GRID_PX);
    for (let row = Math.floor(Math.min(wire.y1, wire.y2) / GRID_PX); row <= last; row++) {
      const list = lineRows.get(row);
      if (list === undefined) lineRows.set(row, [wire]);
      else list.push(wire);
    }
  }
  return lineRows;
}

/**
 * Moves each wire's label along its line, within the gap next to its sender, so that it clears the
 * markers beside it on the two lanes of that gap: centred in the gap when there is room, else pushed
 * away from the marker that would cover it, over the other lane's line if no marker is there. Only
 * where markers stand on both sides of a gap too narrow for the label is it centred between them.
 *
 * Then it keeps clear of the labels placed before it: a label and a fate word that are on screen at
 * the same step never meet, nor do two labels. From that place it tries others along its line, first
 * with its fate word under it, then beside it (right, then left); where none is clear of both the
 * markers and the other labels, it stays where the markers put it.
 */
export function placeLabels(
  wires: Wire[],
  markers: Marker[],
  lanes: Lane[],
  before?: { log: PlacementLog; keep: number },
): PlacementLog {
  const placer = new LabelPlacer(wires, markers, lanes);
  // The labels of the first `keep` wires are where the placement before put them at that point (see labelLeads).
  const first = before === undefined ? 0 : placer.replay(before.log, before.keep);
  for (let k = first; k < wires.length; k++) placer.placeWire(k);
  return placer.log;
}

/** Where no wire's label has moved: its fate word under it. */
export function unplacedTags(wires: readonly Wire[]): void {
  for (const wire of wires) {
    wire.tagX = wire.labelX;
    wire.tagY = wire.labelY + TAG_BELOW;
  }
}

/** Whether a spot's label centred at x is wholly inside its gap. */
const insideGap = (spot: Spot, x: number): boolean =>
  x - spot.labelWidth / 2 >= spot.left && x + spot.labelWidth / 2 <= spot.right;

/** The sides a fate word is tried on, in order. */
const SIDES: readonly Side[] = ['below', 'right', 'left'];
/** Not yet asked, in a search's scratch. */
const UNKNOWN = -1;

/**
 * What a search knows of each of its places: by the place's index in its order (see
 * LabelPlacer.orderPlaces), or by its step along the line (the place at spot.x + j·LABEL_STEP_PX at j
 * minus the lowest j, "by step").
 */
class SearchScratch {
  readonly at: Float64Array;
  /** Each place's step. */
  readonly step: Int32Array;
  /** The places over a lane's line and their steps, while orderPlaces puts them after those inside the gap. */
  readonly overAt: Float64Array;
  readonly overStep: Int32Array;
  /** The places where the label is clear of the markers and the placed texts (labelClearAt), in order. */
  readonly open: Int32Array;
  /** By step: the place's x and y on the line, its label's box, and whether that box is clear. */
  readonly stepAt: Float64Array;
  readonly stepY: Float64Array;
  readonly labelLeft: Float64Array;
  readonly labelRight: Float64Array;
  readonly labelTop: Float64Array;
  readonly labelBottom: Float64Array;
  readonly stepClear: Uint8Array;
  /** By index in `open`: off the other wires' lines (offLinesAt): 1, 0, or UNKNOWN. */
  readonly offLines: Int8Array;
  /** By index k in `open`: the fate word clear on side SIDES[s] (tagClearAt), at s·(how many are open) + k: 1, 0, or UNKNOWN. */
  readonly tagClear: Int8Array;
  constructor(readonly size: number) {
    this.at = new Float64Array(size);
    this.step = new Int32Array(size);
    this.overAt = new Float64Array(size);
    this.overStep = new Int32Array(size);
    this.open = new Int32Array(size);
    this.stepAt = new Float64Array(size);
    this.stepY = new Float64Array(size);
    this.labelLeft = new Float64Array(size);
    this.labelRight = new Float64Array(size);
    this.labelTop = new Float64Array(size);
    this.labelBottom = new Float64Array(size);
    this.stepClear = new Uint8Array(size);
    this.offLines = new Int8Array(size);
    this.tagClear = new Int8Array(3 * size);
  }
}

/** The placer's state: the markers, the lines and what is placed so far, each indexed by the rows it reaches into. */
class LabelPlacer {
  private readonly byLane: Map<string, Marker[]>;
  private readonly reach: number;
  private readonly laneAt: Map<string, number>;
  private readonly fateWidth = fateWidthPx();
  private readonly markerBoxes: BoxGrid<null>;
  private readonly lineRows: Map<number, Wire[]>;
  /** What is placed so far: each wire's label and fate word, with the wire (to know the steps it shows at). */
  private readonly placed = new BoxGrid<Placed>();
  readonly log: PlacementLog = { steps: [], began: [], lowest: [] };
  /** The lowest end of the lines searched along since the current wire's placement began. */
  private looked = -Infinity;

  constructor(
    private readonly wires: Wire[],
    markers: readonly Marker[],
    private readonly lanes: readonly Lane[],
  ) {
    ({ byLane: this.byLane, reach: this.reach } = markersByLane(markers));
    this.laneAt = new Map(lanes.map((lane, i) => [lane.id, i]));
    this.markerBoxes = markerGrid(markers);
    this.lineRows = lineRowsOf(wires);
    unplacedTags(wires);
  }

  /** How far right of `lane`'s line and how far left of it the markers on it whose boxes reach into [top, bottom] extend (markers are in row order). */
  private extentNear(lane: Lane, top: number, bottom: number): { right: number; left: number } {
    const list = this.byLane.get(lane.id) ?? [];
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((list[mid] as Marker).y + this.reach < top) low = mid + 1;
      else high = mid;
    }
    let right = 0;
    let left = 0;
    for (let i = low; i < list.length; i++) {
      const marker = list[i] as Marker;
      if (marker.y - this.reach > bottom) break;
      if (marker.y + marker.height / 2 >= top && marker.y - marker.height / 2 <= bottom) {
        right = Math.max(right, marker.x + marker.width / 2 - lane.x);
        left = Math.max(left, lane.x - (marker.x - marker.width / 2));
      }
    }
    return { right, left };
  }

  /** Whether another wire's line runs through a text whose box (with its halo) is [boxLeft, boxRight] × [boxTop, boxBottom]. */
  private crossedByLine(spot: Spot, boxLeft: number, boxRight: number, boxTop: number, boxBottom: number): boolean {
    // The text itself, inside its halo: a line under the halo is already broken by it.
    const left = boxLeft + 3;
    const right = boxRight - 3;
    const top = boxTop + 3;
    const bottom = boxBottom - 3;
    for (let row = Math.floor(top / GRID_PX); row <= Math.floor(bottom / GRID_PX); row++) {
      const wires = this.lineRows.get(row);
      if (wires !== undefined)
        for (const wire of wires) if (wire !== spot.wire && segmentCrosses(wire, left, right, top, bottom)) return true;
    }
    return false;
  }

  private tagXOf(spot: Spot, at: number, side: Side): number {
    return side === 'below'
      ? at
      : at + (side === 'right' ? 1 : -1) * (spot.labelWidth / 2 + TAG_GAP_X + this.fateWidth / 2);
  }

  private static tagYOf(y: number, side: Side): number {
    return side === 'below' ? y + TAG_BELOW : y - LABEL_RAISE;
  }

  /** The boxes of a spot's label and fate word at x, the word `side` of the label. */
  private boxesAt(spot: Spot, at: number, side: Side): { y: number; label: TextBox; tag: TextBox | null } {
    const y = yOn(spot.wire, at);
    return {
      y,
      label: textBox(at, y - LABEL_RAISE, spot.labelWidth, 15),
      tag: spot.tagged ? textBox(this.tagXOf(spot, at, side), LabelPlacer.tagYOf(y, side), this.fateWidth, 14) : null,
    };
  }

  /**
   * Whether a spot's label at x is clear of the markers (its block too: the rows a label and a fate word
   * under it take, as wide as the wider of the two) and of the placed texts it would be on screen with:
   * the part of clearAt that does not depend on where the fate word stands.
   */
  private labelClearAt(spot: Spot, at: number): boolean {
    const y = yOn(spot.wire, at);
    const { label, block } = labelBlockAt(spot, at, y);
    if (this.markerBoxes.some(block, () => true) || this.markerBoxes.some(label, () => true)) return false;
    return !this.placed.some(label, (other) => (other.tag ? tagMeetsLabelOf(other.wire, spot.wire) : true));
  }

  private readonly markerLists: Array<Array<GridEntry<null>>> = [];
  private readonly placedLists: Array<Array<GridEntry<Placed>>> = [];
  /** A search's places and what is known of each, reused from one search to the next (grown when a gap needs more). */
  private scratch = new SearchScratch(0);

  /** How many steps left of the markers' place a search's places reach: its lowest j is minus this (set by orderPlaces). */
  private stepsLeft = 0;

  /**
   * Fills the scratch with a spot's places, in the order a search tries them: its line's points
   * LABEL_STEP_PX apart, nearest the markers' place first (left, then right), those that keep the
   * label wholly inside the gap before those over a lane's line. Returns how many there are. A place
   * is x − d or x + d (d a whole number of steps), each side's places running out where the gap ends:
   * so they are one run of steps, from stepsLeft left of x to the last right of it.
   */
  private orderPlaces(spot: Spot): number {
    const { x, left, right } = spot;
    let stepsLeft = 0;
    let stepsRight = 0;
    for (let d = LABEL_STEP_PX; x - d > left || x + d < right; d += LABEL_STEP_PX) {
      if (x - d > left) stepsLeft = d / LABEL_STEP_PX;
      if (x + d < right) stepsRight = d / LABEL_STEP_PX;
    }
    const n = stepsLeft + stepsRight + 1;
    if (this.scratch.size < n) this.scratch = new SearchScratch(2 * n);
    this.stepsLeft = stepsLeft;
    const { at, step, overAt, overStep } = this.scratch;
    const most = Math.max(stepsLeft, stepsRight);
    // insideGap, written out: the places inside go in as they come, those over a lane's line after them.
    const half = spot.labelWidth / 2;
    let k = 0;
    let over = 0;
    for (let m = 0; m <= most; m++) {
      // The place m steps left (x itself at m = 0), then m steps right, as the tries go.
      if (m <= stepsLeft) {
        const place = x - m * LABEL_STEP_PX;
        if (place - half >= left && place + half <= right) {
          at[k] = place;
          step[k++] = stepsLeft - m;
        } else {
          overAt[over] = place;
          overStep[over++] = stepsLeft - m;
        }
      }
      if (m > 0 && m <= stepsRight) {
        const place = x + m * LABEL_STEP_PX;
        if (place - half >= left && place + half <= right) {
          at[k] = place;
          step[k++] = stepsLeft + m;
        } else {
          overAt[over] = place;
          overStep[over++] = stepsLeft + m;
        }
      }
    }
    for (let o = 0; o < over; o++) {
      at[k] = overAt[o] as number;
      step[k++] = overStep[o] as number;
    }
    return n;
  }

  /**
   * labelClearAt at each of a spot's `n` places (the scratch's, from orderPlaces), in one sweep: the
   * places where it holds go into the scratch's `open`, in order, and how many is returned. The markers and placed texts in the rows the places reach are gathered
   * once; each is tested exactly as labelClearAt tests it (boxesMeet against the label and its block)
   * but only at the places whose boxes could reach it: those where the box holding both, widened by a
   * pixel, meets it along x and along the line's y. So a search costs its places plus what stands near
   * its gap, not the places times what each place's box finds, and each answer is labelClearAt's. The
   * label's and block's sides at each place are computed once, as textBox and labelBlockAt compute
   * them, and no object is made per test.
   */
  private labelsClearAlong(spot: Spot, n: number): number {
    const { step, open, stepAt, stepY, stepClear, labelLeft, labelRight, labelTop, labelBottom } = this.scratch;
    if (n === 0) return 0;
    const { wire } = spot;
    const halfLabel = spot.labelWidth / 2;
    const halfBlock = spot.width / 2 - LABEL_PAD_X;
    // The places by step: the one at i is x + (i − stepsLeft)·LABEL_STEP_PX, as orderPlaces made it.
    const jLow = -this.stepsLeft;
    const jHigh = jLow + n - 1;
    const { x1, y1, x2, y2 } = wire;
    for (let i = 0; i < n; i++) {
      const at = spot.x + (i + jLow) * LABEL_STEP_PX;
      // yOn(spot.wire, at), written out.
      const y = x2 === x1 ? (y1 + y2) / 2 : y1 + ((y2 - y1) * (at - x1)) / (x2 - x1);
      stepAt[i] = at;
      stepY[i] = y;
      stepClear[i] = 1;
      // textBox(at, y - LABEL_RAISE, spot.labelWidth, 15), side by side.
      const baseline = y - LABEL_RAISE;
      labelLeft[i] = at - halfLabel - TEXT_HALO_PX;
      labelRight[i] = at + halfLabel + TEXT_HALO_PX;
      labelTop[i] = textTop(baseline, 15) - TEXT_HALO_PX;
      labelBottom[i] = textBottom(baseline, 15) + TEXT_HALO_PX;
    }
    // x and y move one way along the line: their extremes are at its two ends.
    const xLow = stepAt[0] as number;
    const xHigh = stepAt[n - 1] as number;
    const yLow = Math.min(stepY[0] as number, stepY[n - 1] as number);
    const yHigh = Math.max(stepY[0] as number, stepY[n - 1] as number);
    // The box holding a place's label and its block, about (at, y): the block spans LABEL_ABOVE..LABEL_BELOW, which holds the label's rows.
    const halfX = Math.max(halfLabel + 3, halfBlock) + 1;
    const above = LABEL_ABOVE + 1;
    const below = LABEL_BELOW + 1;
    const level = x2 === x1 || y2 === y1;
    const sweep = this.sweep;
    sweep.x = spot.x;
    sweep.jLow = jLow;
    sweep.jHigh = jHigh;
    sweep.halfX = halfX;
    sweep.halfBlock = halfBlock;
    sweep.above = above;
    sweep.below = below;
    sweep.level = level;
    sweep.slope = level ? 0 : (y2 - y1) / (x2 - x1);
    sweep.x1 = x1;
    sweep.y1 = y1;
    const top = yLow - LABEL_ABOVE - 1;
    const bottom = yHigh + LABEL_BELOW + 1;
    // Only boxes within the places' reach along x can meet one: a box further out leaves test's range of places empty.
    const left = xLow - halfX - 3 * LABEL_STEP_PX;
    const right = xHigh + halfX + 3 * LABEL_STEP_PX;
    const markerLists = this.markerLists;
    const markerCount = this.markerBoxes.cellLists(top, bottom, left, right, markerLists);
    for (let l = 0; l < markerCount; l++)
      for (const entry of markerLists[l] as Array<GridEntry<null>>) this.clearOfAlong(entry.box, true);
    const placedLists = this.placedLists;
    const placedCount = this.placed.cellLists(top, bottom, left, right, placedLists);
    for (let l = 0; l < placedCount; l++)
      for (const { box, what: other } of placedLists[l] as Array<GridEntry<Placed>>)
        if (other.tag ? tagMeetsLabelOf(other.wire, wire) : true) this.clearOfAlong(box, false);
    let c = 0;
    for (let k = 0; k < n; k++) if (stepClear[step[k] as number] === 1) open[c++] = k;
    return c;
  }

  /** What labelsClearAlong's sweep knows of its line and places, for clearOfAlong (one object, reused). */
  private readonly sweep = {
    x: 0,
    jLow: 0,
    jHigh: 0,
    halfX: 0,
    halfBlock: 0,
    above: 0,
    below: 0,
    level: false,
    slope: 0,
    x1: 0,
    y1: 0,
  };

  /** labelsClearAlong's test of one box (a marker's, or a placed text's): the places of the sweep whose label (a marker: or block) it meets are not clear. */
  private clearOfAlong(box: TextBox, marker: boolean): void {
    const { stepAt, stepY, stepClear, labelLeft, labelRight, labelTop, labelBottom } = this.scratch;
    const { x, jLow, jHigh, halfX, halfBlock, above, below, level, slope, x1, y1 } = this.sweep;
    // The places whose holding box meets `box` along x, then along the line's y.
    let from = box.left - halfX;
    let to = box.right + halfX;
    const low = box.top - below;
    const high = box.bottom + above;
    if (level) {
      const y = stepY[0] as number;
      if (y < low || y > high) return;
    } else {
      const a = x1 + (low - y1) / slope;
      const b = x1 + (high - y1) / slope;
      from = Math.max(from, Math.min(a, b) - 1);
      to = Math.min(to, Math.max(a, b) + 1);
    }
    const first = Math.max(jLow, Math.ceil((from - x) / LABEL_STEP_PX) - 1) - jLow;
    const last = Math.min(jHigh, Math.floor((to - x) / LABEL_STEP_PX) + 1) - jLow;
    for (let i = first; i <= last; i++) {
      if (stepClear[i] === 0) continue;
      // boxesMeet(box, label), then (a marker) boxesMeet(box, block), as labelBlockAt places them.
      if (
        Math.min(box.right, labelRight[i] as number) > Math.max(box.left, labelLeft[i] as number) &&
        Math.min(box.bottom, labelBottom[i] as number) > Math.max(box.top, labelTop[i] as number)
      )
        stepClear[i] = 0;
      else if (marker) {
        const at = stepAt[i] as number;
        const y = stepY[i] as number;
        if (
          Math.min(box.right, at + halfBlock) > Math.max(box.left, at - halfBlock) &&
          Math.min(box.bottom, y + LABEL_BELOW) > Math.max(box.top, y - LABEL_ABOVE)
        )
          stepClear[i] = 0;
      }
    }
  }

  /** Whether a spot's fate word, `side` of its label at x, is clear of the markers and of the placed labels it would be on screen with (a spot with none is). */
  private tagClearAt(spot: Spot, at: number, side: Side): boolean {
    if (!spot.tagged) return true;
    // Its box, as boxesAt gives it (textBox written out), found with no object made.
    const x = this.tagXOf(spot, at, side);
    const baseline = LabelPlacer.tagYOf(yOn(spot.wire, at), side);
    const left = x - this.fateWidth / 2 - TEXT_HALO_PX;
    const right = x + this.fateWidth / 2 + TEXT_HALO_PX;
    const top = textTop(baseline, 14) - TEXT_HALO_PX;
    const bottom = textBottom(baseline, 14) + TEXT_HALO_PX;
    // boxesMeet(box, tag) for each box near it: a marker, or a placed label on screen with the word.
    const markerLists = this.markerLists;
    const markerCount = this.markerBoxes.cellLists(top, bottom, left, right, markerLists);
    for (let l = 0; l < markerCount; l++)
      for (const { box } of markerLists[l] as Array<GridEntry<null>>)
        if (
          Math.min(box.right, right) > Math.max(box.left, left) &&
          Math.min(box.bottom, bottom) > Math.max(box.top, top)
        )
          return false;
    const placedLists = this.placedLists;
    const placedCount = this.placed.cellLists(top, bottom, left, right, placedLists);
    for (let l = 0; l < placedCount; l++)
      for (const { box, what: other } of placedLists[l] as Array<GridEntry<Placed>>)
        if (
          Math.min(box.right, right) > Math.max(box.left, left) &&
          Math.min(box.bottom, bottom) > Math.max(box.top, top) &&
          !other.tag &&
          tagMeetsLabelOf(spot.wire, other.wire)
        )
          return false;
    return true;
  }

  /** Whether no other wire's line runs through a spot's label text at x. */
  private offLinesAt(spot: Spot, at: number): boolean {
    // textBox(at, yOn(spot.wire, at) - LABEL_RAISE, spot.labelWidth, 15), written out.
    const baseline = yOn(spot.wire, at) - LABEL_RAISE;
    return !this.crossedByLine(
      spot,
      at - spot.labelWidth / 2 - TEXT_HALO_PX,
      at + spot.labelWidth / 2 + TEXT_HALO_PX,
      textTop(baseline, 15) - TEXT_HALO_PX,
      textBottom(baseline, 15) + TEXT_HALO_PX,
    );
  }

  /** Whether the label at x, its fate word `side` of it, is clear of the markers and of what is placed (and, `offLines`, of the other wires' lines). */
  private clearAt(spot: Spot, at: number, side: Side, offLines = true): boolean {
    return this.labelClearAt(spot, at) && this.tagClearAt(spot, at, side) && (!offLines || this.offLinesAt(spot, at));
  }

  /** The placed labels a spot's label or fate word at x (the word under it) would meet (on screen at the same step). */
  private blockers(spot: Spot, at: number): Spot[] {
    const { label, tag } = this.boxesAt(spot, at, 'below');
    const found = new Set<Spot>();
    this.placed.some(label, (other) => {
      if (other.tag ? tagMeetsLabelOf(other.wire, spot.wire) : true) found.add(other.spot);
      return false;
    });
    if (tag !== null)
      this.placed.some(tag, (other) => {
        if (!other.tag && tagMeetsLabelOf(spot.wire, other.wire)) found.add(other.spot);
        return false;
      });
    return [...found];
  }

  /** Places along the line in the gap, nearest the markers' place first (the label's centre stays between the two lanes), the fate word under the label, then beside it. */
  private search(spot: Spot): Place | null {
    this.looked = Math.max(this.looked, spot.wire.y1, spot.wire.y2);
    // A label wholly inside the gap first; over a lane's line (where no marker is) only if nothing inside is clear.
    const n = this.orderPlaces(spot);
    // Off the other lines first; where no place is, a line may run under the label (its halo breaks it).
    // This is clearAt asked of each place in that order, with each of its parts asked once per place
    // (the label's for all places in one sweep, the fate word's once per place and side) and the rest
    // only when the parts before it hold: the answer is clearAt's.
    // Only the places where the label is clear are asked more, in order (`open`, by their index there).
    const c = this.labelsClearAlong(spot, n);
    const { at: places, open, offLines, tagClear } = this.scratch;
    offLines.fill(UNKNOWN, 0, c);
    tagClear.fill(UNKNOWN, 0, 3 * c);
    const sides = spot.tagged ? 3 : 1;
    for (let pass = 0; pass < 2; pass++) {
      const linesCount = pass === 0;
      for (let s = 0; s < sides; s++) {
        const side = SIDES[s] as Side;
        for (let k = 0; k < c; k++) {
          const at = places[open[k] as number] as number;
          if (linesCount) {
            if (offLines[k] === UNKNOWN) offLines[k] = this.offLinesAt(spot, at) ? 1 : 0;
            if (offLines[k] === 0) continue;
          }
          if (tagClear[s * c + k] === UNKNOWN) tagClear[s * c + k] = this.tagClearAt(spot, at, side) ? 1 : 0;
          if (tagClear[s * c + k] === 1) return { at, side };
        }
      }
    }
    return null;
  }

  /** Places the label of the wire at position k (its spot first), noting what it did in the log. */
  placeWire(k: number): void {
    const wire = this.wireAt(k);
    const spot = this.spotOf(wire, k);
    this.log.began[k] = this.log.steps.length;
    this.looked = Math.max(wire.y1, wire.y2);
    if (spot !== null) this.place(spot);
    this.log.lowest[k] = this.looked;
  }

  private wireAt(k: number): Wire {
    return this.wires[k] as Wire;
  }

  /**
   * Puts the labels of the first `keep` wires where `before` had them when it began to place the next
   * one (each wire's spot first, as placeLabels finds it), and takes up its log to that point. Their
   * lines and everything near them must be as they were. Returns `keep`.
   */
  replay(before: PlacementLog, keep: number): number {
    const spots: Array<Spot | null> = [];
    for (let k = 0; k < keep; k++) {
      spots.push(this.spotOf(this.wireAt(k), k));
      this.log.began[k] = before.began[k] as number;
      this.log.lowest[k] = before.lowest[k] as number;
    }
    const end = keep < before.began.length ? (before.began[keep] as number) : before.steps.length;
    for (let i = 0; i < end; i++) {
      const [k, place] = before.steps[i] as readonly [number, Place | null];
      const spot = spots[k] as Spot;
      if (place === null) this.lift(spot);
      else this.put(spot, place);
    }
    return keep;
  }

  private drop(spot: Spot): void {
    this.log.steps.push([spot.position, spot.put]);
    // wireTextBoxes(spot.wire), with the widths its spot already has.
    const { wire } = spot;
    this.placed.add(textBox(wire.labelX, wire.labelY - LABEL_RAISE, spot.labelWidth, 15), spot.asLabel, wire);
    if (spot.tagged) this.placed.add(textBox(wire.tagX, wire.tagY, this.fateWidth, 14), spot.asTag, wire);
  }

  private lift(spot: Spot): void {
    this.log.steps.push([spot.position, null]);
    this.placed.removeOwner(spot.wire);
  }

  private put(spot: Spot, place: Place): void {
    const { at, side } = place;
    spot.put = place;
    spot.wire.labelX = at;
    spot.wire.labelY = yOn(spot.wire, at);
    spot.wire.tagX = this.tagXOf(spot, at, side);
    spot.wire.tagY = LabelPlacer.tagYOf(spot.wire.labelY, side);
    this.drop(spot);
  }

  /** The spot of the wire at `position` in the gap next to its sender, its label moved where the markers beside it leave room (null: a wire with no gap). */
  spotOf(wire: Wire, position: number): Spot | null {
    const from = this.laneAt.get(wire.from);
    const to = this.laneAt.get(wire.to);
    if (from === undefined || to === undefined || from === to) return null;
    const next = this.lanes[from + (to > from ? 1 : -1)];
    const sender = this.lanes[from];
    if (next === undefined || sender === undefined) return null;
    // Which of the two is left, with no array made per wire.
    const senderLeft = sender.x < next.x;
    const left = senderLeft ? sender : next;
    const right = senderLeft ? next : sender;
    const labelWidth = textWidthPx(wire.label, 15, true);
    const width = Math.max(labelWidth, this.fateWidth) + 2 * LABEL_PAD_X;
    const x = this.amongMarkers(wire, left, right, width);
    wire.labelX = x;
    wire.labelY = yOn(wire, x);
    const asLabel = { wire, tag: false } as Placed;
    const asTag = { wire, tag: true } as Placed;
    const spot: Spot = {
      wire,
      position,
      left: left.x,
      right: right.x,
      width,
      x,
      labelWidth,
      tagged: tagShownUntil(wire) !== null,
      asLabel,
      asTag,
      put: null,
    };
    asLabel.spot = asTag.spot = spot;
    return spot;
  }

  /** Where the markers on the gap's two lanes leave a label `width` wide, from the wire's label's x along its line. */
  private amongMarkers(wire: Wire, left: Lane, right: Lane, width: number): number {
    let x = wire.labelX;
    // Moving along a sloped line changes the rows the label takes: settle in a few passes.
    for (let pass = 0; pass < 3; pass++) {
      const y = yOn(wire, x);
      const leftHalf = this.extentNear(left, y - LABEL_ABOVE, y + LABEL_BELOW).right;
      const rightHalf = this.extentNear(right, y - LABEL_ABOVE, y + LABEL_BELOW).left;
      const room = { from: left.x + leftHalf, to: right.x - rightHalf };
      let settled: number;
      if (room.to - room.from >= width) settled = Math.min(Math.max(x, room.from + width / 2), room.to - width / 2);
      // Too narrow: the label may pass over a lane's line where no marker is, not over a marker.
      else if (rightHalf === 0) settled = room.from + width / 2;
      else if (leftHalf === 0) settled = room.to - width / 2;
      else settled = (room.from + room.to) / 2;
      if (Math.abs(settled - x) < 0.5) break;
      x = settled;
    }
    return x;
  }

  /** Places a spot's label: where the markers put it if that is clear, else the first clear place along its line, else by moving the one label in its way. */
  place(spot: Spot): void {
    const { x } = spot;
    // Inside the gap, x is the first place the search tries, and it asks of it what clearAt asks.
    if (!insideGap(spot, x) && this.clearAt(spot, x, 'below')) return this.put(spot, { at: x, side: 'below' });
    const found = this.search(spot);
    if (found !== null) return this.put(spot, found);
    // No place is clear: move the one earlier label in the way, if it has another place, so that this one takes its own.
    const inWay = this.blockers(spot, x);
    if (inWay.length === 1 && this.swap(spot, inWay[0] as Spot)) return;
    this.put(spot, { at: x, side: 'below' });
  }

  /** Lifts `other`, places `spot`, then places `other` again elsewhere; if either finds no place, `other` goes back and false is returned. */
  private swap(spot: Spot, other: Spot): boolean {
    const { x } = spot;
    const was = { labelX: other.wire.labelX, labelY: other.wire.labelY, tagX: other.wire.tagX, tagY: other.wire.tagY };
    const wasPut = other.put;
    this.looked = Math.max(this.looked, other.wire.y1, other.wire.y2);
    this.lift(other);
    const mine =
      !insideGap(spot, x) && this.clearAt(spot, x, 'below') ? ({ at: x, side: 'below' } as const) : this.search(spot);
    if (mine !== null) {
      this.put(spot, mine);
      const theirs = this.search(other);
      if (theirs !== null) {
        this.put(other, theirs);
        return true;
      }
      this.lift(spot);
    }
    Object.assign(other.wire, was);
    other.put = wasPut;
    this.drop(other);
    return false;
  }
}
