// The Exercises tab's "Shortest failing ordering" diagram: the lane headers' band (HEADER_BAND_PX on
// screen, opaque) is pinned over its pane as over the race view's, but a replay is fitted to its pane at
// zooms under 1 too (down to 12 px text: 6/7), where the layout's room above its first texts (36 flow px)
// is drawn shorter than the band. Every starter's failing orderings are laid out as the page
// lays them out, and every view the diagram follows them with (followedY, at every current event's y) is
// tried in the Exercises pane at 1280×720 and 1440×900: no text is cut by the band's lower edge, and at the
// diagram's top none is under the band (a label there would sit under a lane header, never to be read).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { loadSqlJs } from '../cli/sqlite';
import { wordEvents, type SqlModule } from '../engine';
import { layoutDiagram } from '../diagram/geometry/layout';
import { HEADER_BAND_PX } from '../diagram/geometry/model';
import { fitZoom, followedY, textRows, topPan } from '../diagram/geometry/headerBand';
import { replayCode } from './exercise.testkit';
import { grade } from './grade';
import { EXERCISES } from './registry';
import { loadQuickJs, sandboxSource } from './sandbox';
import type { FailingRun } from './types';

let qjs: QuickJSWASMModule;
let sql: SqlModule;
const failing: Array<[string, string, FailingRun]> = [];

beforeAll(async () => {
  qjs = await loadQuickJs();
  sql = await loadSqlJs();
  for (const def of EXERCISES) {
    const source = sandboxSource(qjs, def.starter, def.exports);
    try {
      for (const statement of grade(def, source, { ledger: { sql } }).statements)
        if (statement.failing !== undefined) failing.push([def.id, statement.id, statement.failing]);
    } finally {
      source.close();
    }
  }
}, 300_000);

afterAll(() => {
  failing.length = 0;
});

/** The Exercises tab's diagram pane inside its border (the band included) at 1280×720 and at 1440×900: the same. */
const PANE = { width: 839, height: 379 };
/**
 * Besides the fit in this pane, the zooms under 1 a fit gives a replay in any pane: from the least (text
 * at 12 px of 14) to 1, where the race view's own fits begin (labels.test.ts tries those).
 */
const ZOOMS = [6 / 7, 0.9, 0.95, 1];
/** Where a replay keeps the current event (Diagram's FOLLOW_AT). */
const FOLLOW_AT = 0.55;

describe("the failing orderings' diagrams and the lane headers' band", () => {
  it("every starter's failing ordering: no view the diagram follows it with cuts a text at the band's edge or leaves one under the band at the top", () => {
    expect(failing.map(([exercise]) => exercise)).toEqual(
      expect.arrayContaining(['coordinator', 'ledger', 'buffer', 'tasks']),
    );
    const wrong: string[] = [];
    for (const [exercise, statement, run] of failing) {
      const def = EXERCISES.find((one) => one.id === exercise);
      if (def === undefined) throw new Error(exercise);
      const { transcript } = replayCode(qjs, def, def.starter, run, { ledger: { sql } });
      if (transcript === null) continue;
      const layout = layoutDiagram(transcript, wordEvents(transcript.events), 'ordinal');
      const rows = textRows(layout);
      // The zoom the page fits the replay at, and the others a fit may give in another pane.
      const fit = fitZoom(PANE.width, PANE.height, layout.width, layout.height, 6 / 7, 1.25);
      // An ordering the fit shows whole (fitted to the pane's height, or shorter than the pane) stays whole, its
      // top in view, at every step.
      const byHeight = fit > 6 / 7 && fit < Math.min(1.25, PANE.width / layout.width);
      const whole = byHeight || topPan(fit) + fit * layout.height <= PANE.height;
      for (const zoom of [fit, ...ZOOMS]) {
        const pane = { paneHeight: PANE.height, height: layout.height, lockstep: false, followAt: FOLLOW_AT };
        for (let atY = 0; atY <= layout.height; atY += 1) {
          const y = followedY(rows, atY, zoom, pane);
          if (zoom === fit && whole && y !== topPan(zoom))
            wrong.push(
              `${exercise}/${statement} fitted whole at ${fit.toFixed(3)}, event at ${atY} → pan ${y.toFixed(1)}`,
            );
          const edge = (HEADER_BAND_PX - y) / zoom;
          // At the top (the pan not below 0), the diagram's first text is whole below the band.
          const at = `${exercise}/${statement} zoom ${zoom.toFixed(3)} event at ${atY} → pan ${y.toFixed(1)}`;
          if (y >= 0 && (rows[0] as number) < edge - 0.01)
            wrong.push(`${at}: the first text (${(rows[0] as number).toFixed(1)}) under the band (${edge.toFixed(1)})`);
          for (let k = 0; k < rows.length; k += 2)
            if ((rows[k] as number) < edge - 0.01 && (rows[k + 1] as number) > edge + 0.01)
              wrong.push(
                `${at}: text rows ${(rows[k] as number).toFixed(1)}–${(rows[k + 1] as number).toFixed(1)} cut at ${edge.toFixed(1)}`,
              );
        }
      }
    }
    expect(wrong.slice(0, 8), `${wrong.length} wrong`).toEqual([]);
  }, 300_000);
});
