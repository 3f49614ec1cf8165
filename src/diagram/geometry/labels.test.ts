import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario, TRANSPORTS, usesSqlite, wordEvents, type SqlModule } from '../../engine';
import { scenarios } from '../../scenarios/index';
import { layoutDiagram, meetingTexts, sharedAxis, wireTextBoxes, type TextBox } from './layout';
import type { Wire } from './model';
import { clearOfHeaders, HEADER_CLEAR_SHARE, TEXT_HALO_PX, textRows } from './headerBand';
import { HEADER_BAND_PX } from './model';

// The race view's wire labels and their fate words ("IN FLIGHT", "LOST", "IGNORED") read on their own:
// no fate word sits on another wire's label and no two labels touch. The layout places them once for the
// whole run (a step only cuts it): a label shows from the step after its wire is sent to the end, a fate
// word while its wire is in flight (and, lost or ignored, to the end), so checking each pair that is ever
// on screen at once covers every step.

let sql: SqlModule;
beforeAll(async () => {
  sql = await initSqlJs();
});

const cases = scenarios.flatMap((scenario) => TRANSPORTS.map((transport) => [scenario.id, transport] as const));

describe('wire labels and fate words', () => {
  const check = (id: string, transport: (typeof TRANSPORTS)[number], shared = false) => {
    const scenario = scenarios.find((one) => one.id === id);
    if (scenario === undefined) throw new Error(id);
    const run = (on: (typeof TRANSPORTS)[number]) =>
      runScenario(scenario, { transport: on, seed: 1, ledger: usesSqlite(scenario) ? { sql } : undefined });
    const transcript = run(transport);
    const wording = wordEvents(transcript.events);
    // The Compare tab lays a scenario's runs on its transports out on one axis: it keeps the room a band's labels need too.
    const axis = shared
      ? sharedAxis(
          TRANSPORTS.map((other) => (other === transport ? transcript : run(other))).map((one) => ({
            transcript: one,
            wording: wordEvents(one.events),
          })),
        )
      : undefined;
    const layout = layoutDiagram(transcript, wording, 'ordinal', axis);
    // meetingTexts skips a wire's own label and fate word (one block), two fate words (never on one line at
    // once) and a fate word and a label never on screen at the same step.
    const what = (text: { wire: Wire; label: boolean }) =>
      `${text.label ? 'label' : 'fate word of'} "${text.wire.label}"`;
    const meeting = meetingTexts(layout.wires).map(([a, b]) => `${what(a)} × ${what(b)}`);
    expect(meeting).toEqual([]);
  };
  it.each(cases)('%s on %s at seed 1: no fate word on a label, no two labels meet', (id, transport) =>
    check(id, transport),
  );
  // Bursts of level lines one instant after another (the buffer's replay, the end of a reconnect) need room between their bands.
  it.each([
    ['buffer-overload', 'stdio'],
    ['buffer-overload', 'http'],
    ['reconnect-listen', 'http'],
  ] as const)('%s on %s beside its other transport on one axis: no two labels meet', (id, transport) =>
    check(id, transport, true),
  );

  // The checks above rely on meetingTexts: it must report two labels laid on one another.
  it('meetingTexts reports two labels laid at one place', () => {
    const scenario = scenarios[0];
    if (scenario === undefined) throw new Error('no scenario');
    const transcript = runScenario(scenario, {
      transport: 'stdio',
      seed: 1,
      ledger: usesSqlite(scenario) ? { sql } : undefined,
    });
    const [first, second] = layoutDiagram(transcript, wordEvents(transcript.events)).wires;
    if (first === undefined || second === undefined) throw new Error('fewer than two wires');
    const moved = { ...second, labelX: first.labelX, labelY: first.labelY };
    expect(
      meetingTexts([first, moved]).some(([a, b]) => a.label && b.label && a.wire === first && b.wire === moved),
    ).toBe(true);
  });

  // A wire's line through another wire's label text (inside the halo) is not yet ruled out: where the
  // placer finds no place off every line, one runs under the label. These runs still have some; the
  // count may only fall (lower it here when it does).
  const LINES_UNDER_LABELS: Record<string, number> = {
    'C/stdio': 1,
    'listen-server-cancel/stdio': 2,
    'listen-server-cancel/http': 2,
    'ledger-new-id-retry/stdio': 1,
    'ledger-new-id-retry/http': 1,
    'ledger-keyed-retry/stdio': 1,
    'ledger-keyed-retry/http': 1,
    'ledger-key-mismatch/stdio': 1,
    'ledger-key-mismatch/http': 1,
    'ledger-race-keyed/stdio': 1,
    'ledger-race-keyed/http': 1,
    'ledger-race-unsafe/stdio': 2,
    'ledger-race-unsafe/http': 2,
    'inventory-key-binding/stdio': 1,
    'inventory-key-binding/http': 1,
    'inventory-retry/stdio': 1,
    'inventory-retry/http': 1,
    'inventory-changed-quantity/stdio': 1,
    'inventory-changed-quantity/http': 1,
    'inventory-reconcile/stdio': 1,
    'inventory-reconcile/http': 1,
    'inventory-subscription-drop/stdio': 1,
    'inventory-subscription-drop/http': 1,
    'inventory-race/stdio': 1,
    'inventory-race/http': 1,
    'reconnect-listen/stdio': 11,
    'reconnect-listen/http': 11,
  };
  it.each(cases)("%s on %s at seed 1: no more lines run through another wire's label than known", (id, transport) => {
    const scenario = scenarios.find((one) => one.id === id);
    if (scenario === undefined) throw new Error(id);
    const transcript = runScenario(scenario, {
      transport,
      seed: 1,
      ledger: usesSqlite(scenario) ? { sql } : undefined,
    });
    const layout = layoutDiagram(transcript, wordEvents(transcript.events));
    const crossings: string[] = [];
    for (const wire of layout.wires) {
      const halo = wireTextBoxes(wire).label;
      const text = { left: halo.left + 3, right: halo.right - 3, top: halo.top + 3, bottom: halo.bottom - 3 };
      for (const other of layout.wires)
        if (other !== wire && lineThrough(other, text))
          crossings.push(`line "${other.label}" through label "${wire.label}"`);
    }
    expect(crossings.length, crossings.join('\n')).toBeLessThanOrEqual(LINES_UNDER_LABELS[`${id}/${transport}`] ?? 0);
  });
});

/** Whether a wire's line has a piece inside a box: sampled along the line every half pixel. */
function lineThrough(wire: Wire, box: TextBox): boolean {
  const steps = Math.ceil(2 * Math.hypot(wire.x2 - wire.x1, wire.y2 - wire.y1)) + 1;
  for (let k = 0; k <= steps; k++) {
    const x = wire.x1 + ((wire.x2 - wire.x1) * k) / steps;
    const y = wire.y1 + ((wire.y2 - wire.y1) * k) / steps;
    if (x > box.left && x < box.right && y > box.top && y < box.bottom) return true;
  }
  return false;
}

// The lane headers' band (HEADER_BAND_PX on screen, opaque) is pinned to the top of the pane and the
// diagram scrolls under it. At the top nothing is laid out under it; scrolled, the views the lab moves to
// (Follow, through clearOfHeaders) leave no text cut by its lower edge: every text is whole below it or
// wholly behind it. The lab moves the view to a pan y in [lowest, 0] at zooms 1 to 1.25 (the normal
// view's fit); every such y is tried, in the panes of 1280×720 and 1440×900, so every step is covered.
describe("the lane headers' band", () => {
  const layoutOf = (id: string, transport: (typeof TRANSPORTS)[number]) => {
    const scenario = scenarios.find((one) => one.id === id);
    if (scenario === undefined) throw new Error(id);
    const transcript = runScenario(scenario, {
      transport,
      seed: 1,
      ledger: usesSqlite(scenario) ? { sql } : undefined,
    });
    return layoutDiagram(transcript, wordEvents(transcript.events));
  };
  /** The texts (label, fate word, marker) whose ink a layout puts above `y` (a label's halo is paper, like the band). */
  const textsAbove = (layout: ReturnType<typeof layoutDiagram>, y: number): string[] => [
    ...layout.wires.flatMap((wire) => {
      const { label, tag } = wireTextBoxes(wire);
      const ink = (box: TextBox) => box.top + TEXT_HALO_PX;
      return [
        ...(ink(label) < y ? [`label "${wire.label}" at ${ink(label).toFixed(1)}`] : []),
        ...(tag !== null && ink(tag) < y ? [`fate word of "${wire.label}" at ${ink(tag).toFixed(1)}`] : []),
      ];
    }),
    ...layout.markers.filter((marker) => marker.y - marker.height / 2 < y).map((marker) => `marker "${marker.text}"`),
  ];
  it.each(cases)('%s on %s at seed 1: no text is laid out under the band', (id, transport) => {
    const layout = layoutOf(id, transport);
    expect(textsAbove(layout, HEADER_BAND_PX)).toEqual([]);
    expect(textRows(layout)[0]).toBeGreaterThanOrEqual(HEADER_BAND_PX);
  });

  // The panes' heights at 1280×720 and 1440×900 (the diagram pane below the lane headers' band's top).
  const PANES = [
    ['1280×720', 474],
    ['1440×900', 652],
  ] as const;
  it.each(cases)("%s on %s at seed 1: no pan the lab moves to cuts a text at the band's edge", (id, transport) => {
    const layout = layoutOf(id, transport);
    const rows = textRows(layout);
    const cut: string[] = [];
    for (const [size, paneHeight] of PANES) {
      for (const zoom of [1, 1.1, 1.25]) {
        const lowest = Math.min(0, paneHeight - layout.height * zoom);
        for (let wanted = Math.floor(lowest); wanted <= 0; wanted++) {
          const y = clearOfHeaders(rows, Math.max(lowest, wanted), zoom, lowest, paneHeight * HEADER_CLEAR_SHARE);
          const edge = (HEADER_BAND_PX - y) / zoom;
          for (let k = 0; k < rows.length; k += 2) {
            if ((rows[k] as number) < edge - 0.01 && (rows[k + 1] as number) > edge + 0.01)
              cut.push(
                `${size} zoom ${zoom} pan ${wanted} → ${y.toFixed(1)}: text rows ${(rows[k] as number).toFixed(1)}–${(rows[k + 1] as number).toFixed(1)} cut at ${edge.toFixed(1)}`,
              );
          }
        }
      }
    }
    expect(cut.slice(0, 5), `${cut.length} cut`).toEqual([]);
  });
});
