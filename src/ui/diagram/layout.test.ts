import { describe, expect, it } from 'vitest';
import { raceFactSteps } from '../../worker/facts';
import { runRaceById, runScenarioById } from '../../scenarios/index';
import { factsRowAt, PENDING, stepSentence } from '../format';
import { buildFlow, flowAt } from './flow';
import { ARROW_LENGTH, ARROW_SPREAD, messagesShown, type DiagramLayout } from '../../diagram/geometry/model';
import { layoutDiagram, sharedAxis } from '../../diagram/geometry/layout';
import { textWidthPx } from '../../diagram/geometry/text';
import { wordEvents, type Transcript } from '../../engine';

/** The layout of a run with the engine's wording, as the worker sends it. */
const lay = (t: Transcript, scale?: 'ordinal' | 'linear') => layoutDiagram(t, wordEvents(t.events), scale);

// The sequence diagram's model, without React: one row per event with time flowing down, one wire
// per message from the sender when sent to the receiver when it arrives (so latency slopes it and
// crossing messages cross), deadline bars that restart on progress while the maximum never moves,
// and the view at step k is exactly the first k events of the one layout, whichever way you got there.

const race = (id: string, transport?: 'stdio' | 'http', settings?: Record<string, unknown>) =>
  runRaceById(id, { transport, settings }) as unknown as Transcript;

/** Whether segments (a1→a2) and (b1→b2) properly intersect. */
function cross(
  a: { x1: number; y1: number; x2: number; y2: number },
  b: { x1: number; y1: number; x2: number; y2: number },
): boolean {
  const side = (x1: number, y1: number, x2: number, y2: number, px: number, py: number) =>
    Math.sign((x2 - x1) * (py - y1) - (y2 - y1) * (px - x1));
  return (
    side(a.x1, a.y1, a.x2, a.y2, b.x1, b.y1) * side(a.x1, a.y1, a.x2, a.y2, b.x2, b.y2) < 0 &&
    side(b.x1, b.y1, b.x2, b.y2, a.x1, a.y1) * side(b.x1, b.y1, b.x2, b.y2, a.x2, a.y2) < 0
  );
}

describe('diagram layout', () => {
  it.each(['A', 'B', 'C', 'D'])(
    '%s: on Linear time, one row per event going down, one wire per message between the right lanes',
    (id) => {
      const transcript = race(id);
      const layout = lay(transcript, 'linear');
      expect(layout.rowY).toHaveLength(transcript.events.length);
      for (let i = 1; i < layout.rowY.length; i++) expect(layout.rowY[i]).toBeGreaterThan(layout.rowY[i - 1] as number);
      expect(layout.lanes.map((lane) => lane.id)).toEqual(['client', 'server', 'worker']);
      const laneX = new Map(layout.lanes.map((lane) => [lane.id, lane.x]));
      const messages = transcript.events.filter((event) => event.kind === 'message');
      const wires = layout.wires.filter((wire) => wire.kind === 'message');
      expect(wires.map((wire) => wire.seq)).toEqual(messages.map((event) => event.seq));
      for (const [i, wire] of wires.entries()) {
        const event = messages[i] as Extract<Transcript['events'][number], { kind: 'message' }>;
        expect([wire.x1, wire.x2]).toEqual([laneX.get(event.from), laneX.get(event.to)]);
        expect(wire.y1).toBe(layout.rowY[wire.index]);
        // Latency slopes it: it lands lower than it left, at its delivery's row.
        expect(wire.y2).toBeGreaterThan(wire.y1);
        const delivered = transcript.events.findIndex(
          (later) => later.kind === 'delivered' && later.messageSeq === event.seq,
        );
        if (delivered >= 0) expect(wire.y2).toBe(layout.rowY[delivered]);
      }
      expect(layout.messageIndexes).toEqual(wires.map((wire) => wire.index));
    },
  );

  it.each([
    ['A', 'stdio'],
    ['B', 'stdio'],
    ['C', 'stdio'],
    ['D', 'http'],
  ] as const)('%s: each wire label (and its fate word) sits on its line and clear of every marker', (id, transport) => {
    const layout = lay(race(id, transport));
    for (const wire of layout.wires) {
      // On its line, between the sender's lane and the next one.
      if (wire.x1 !== wire.x2)
        expect(wire.labelY).toBeCloseTo(
          wire.y1 + ((wire.y2 - wire.y1) * (wire.labelX - wire.x1)) / (wire.x2 - wire.x1),
          6,
        );
      const half = Math.max(textWidthPx(wire.label, 15, true), textWidthPx('IN FLIGHT', 14, true)) / 2;
      for (const marker of layout.markers) {
        const x =
          Math.min(wire.labelX + half, marker.x + marker.width / 2) -
          Math.max(wire.labelX - half, marker.x - marker.width / 2);
        const y =
          Math.min(wire.labelY + 25, marker.y + marker.height / 2) -
          Math.max(wire.labelY - 25, marker.y - marker.height / 2);
        expect(x > 0 && y > 0, `${id}: "${wire.label}" and "${marker.text}"`).toBe(false);
      }
    }
  });

  it('B: the late response and the cancellation are in flight at once, so their lines cross', () => {
    const layout = lay(race('B'));
    const response = layout.wires.find((wire) => wire.label === 'response #41');
    const cancel = layout.wires.find((wire) => wire.label.startsWith('notifications/cancelled'));
    expect(response?.fate).toBe('ignored');
    expect(cancel?.fate).toBe('ignored');
    expect(cross(response as never, cancel as never)).toBe(true);
    // A delivered message and the one after it do not cross.
    const [call, progress] = layout.wires;
    expect(cross(call as never, progress as never)).toBe(false);
  });

  it('C: each progress restarts the idle bar; the maximum bar is one stretch that ends when it fires', () => {
    const transcript = race('C');
    const layout = lay(transcript);
    const idle = layout.bars.filter((bar) => bar.deadline === 'idle');
    const max = layout.bars.filter((bar) => bar.deadline === 'max');
    const resets = transcript.events.filter(
      (event) => event.kind === 'deadline' && event.deadline === 'idle' && event.action === 'reset',
    );
    expect(idle).toHaveLength(1 + resets.length);
    expect(idle.slice(0, -1).every((bar) => bar.endAction === 'reset')).toBe(true);
    expect(idle.at(-1)?.endAction).toBe('disarmed');
    // Each restart begins where the previous stretch ended, with a later due time.
    for (let i = 1; i < idle.length; i++) {
      expect(idle[i]?.y1).toBe(idle[i - 1]?.yEnd);
      expect(idle[i]?.dueAtMs).toBeGreaterThan(idle[i - 1]?.dueAtMs as number);
    }
    expect(max).toHaveLength(1);
    expect(max[0]).toMatchObject({ dueAtMs: 2000, endAction: 'fired' });
  });

  it('D: closing the stream is drawn as a line from the client to where the server sees the disconnect', () => {
    const layout = lay(race('D', 'http'));
    const close = layout.wires.find((wire) => wire.kind === 'stream-close');
    expect(close).toMatchObject({ from: 'client', to: 'server', fate: 'closed', sentAtMs: 150, arrivesAtMs: 155 });
    expect(lay(race('D', 'stdio')).wires.some((wire) => wire.kind === 'stream-close')).toBe(false);
  });

  it('gives lanes to the proxy and to each SQLite connection where a scenario has them', () => {
    expect(lay(runScenarioById('proxy-buffering') as unknown as Transcript).lanes.map((lane) => lane.id)).toEqual([
      'client',
      'proxy',
      'server',
      'worker',
    ]);
  });
});

describe('the diagram at a step', () => {
  it('shows exactly the first k events: edges grow one message at a time, and stepping back and forth gives the same view', () => {
    const transcript = race('A');
    const flow = buildFlow(lay(transcript));
    const total = transcript.events.length;
    for (let step = 0; step <= total; step++) {
      const view = flowAt(flow, step, null);
      const sent = transcript.events.slice(0, step).filter((event) => event.kind === 'message').length;
      expect(view.edges).toHaveLength(sent);
      expect(messagesShown(flow.layout, step)).toBe(sent);
      const shownAt = new Map([
        ...flow.layout.markers.map((marker) => [marker.id, marker.index] as const),
        ...flow.layout.wires.map((wire) => [`${wire.id}-box`, wire.index] as const),
      ]);
      expect(view.nodes.every((node) => (shownAt.get(node.id) as number) < step)).toBe(true);
      // Every marker and wire of the first k events is there (the whole diagram is asked for).
      expect(view.nodes).toHaveLength([...shownAt.values()].filter((index) => index < step).length);
    }
    const forward = flowAt(flow, 12, null);
    flowAt(flow, 3, null);
    expect(flowAt(flow, 12, null)).toEqual(forward);
  });

  it('a message is in flight until the replay reaches its delivery, then shows its fate', () => {
    const transcript = race('B');
    const flow = buildFlow(lay(transcript));
    const response = flow.layout.wires.find((wire) => wire.label === 'response #41');
    if (response === undefined) throw new Error('B has a response');
    const status = (step: number) =>
      flowAt(flow, step, null).edges.find((edge) => edge.id === response.id)?.data?.status;
    expect(status(response.index)).toBeUndefined();
    expect(status(response.index + 1)).toBe('in-flight');
    expect(status(response.resolvedAt)).toBe('in-flight');
    expect(status(response.resolvedAt + 1)).toBe('ignored');
  });

  it('keeps its objects between steps, so React Flow only reworks what changed', () => {
    const flow = buildFlow(lay(race('C', 'stdio', { progressEveryMs: 2 })));
    expect(flow.layout.wires.filter((wire) => wire.kind === 'message')).toHaveLength(1001);
    const end = flow.layout.rowY.length;
    const a = flowAt(flow, end, null);
    const b = flowAt(flow, end - 1, null);
    const unchanged = b.edges.filter((edge, i) => edge === a.edges[i]).length;
    expect(unchanged).toBeGreaterThan(b.edges.length - 3);
  });
});

describe('recorded facts as the replay reaches them', () => {
  it('A: pending until each fact’s event, then the values the engine recorded', () => {
    const transcript = race('A');
    const reached = raceFactSteps(transcript);
    expect(factsRowAt(transcript, reached, 0)).toEqual({
      terminalState: PENDING,
      finalResponse: PENDING,
      cancellationSignal: PENDING,
      clientIgnores: PENDING,
    });
    const cancelAt = transcript.events.findIndex(
      (event) =>
        event.kind === 'message' && 'method' in event.message && event.message.method === 'notifications/cancelled',
    );
    expect(factsRowAt(transcript, reached, cancelAt + 1)).toMatchObject({
      terminalState: PENDING,
      cancellationSignal: 'notifications/cancelled',
    });
    expect(factsRowAt(transcript, reached, transcript.events.length)).toEqual({
      terminalState: 'cancelled',
      finalResponse: 'no',
      cancellationSignal: 'notifications/cancelled',
      clientIgnores: 'nothing',
    });
  });

  it('C: the ignored progress shows once it reaches the client', () => {
    const transcript = race('C');
    const reached = raceFactSteps(transcript);
    const at = reached?.clientIgnores[0] as number;
    expect(factsRowAt(transcript, reached, at)?.clientIgnores).toBe(PENDING);
    expect(factsRowAt(transcript, reached, at + 1)?.clientIgnores).toBe('progress 5/13');
  });

  it('announces each step with its time and what happened', () => {
    const transcript = race('A');
    expect(stepSentence(transcript, 0, wordEvents(transcript.events))).toMatch(
      /^Step 0 of 20: nothing has happened yet/,
    );
    expect(stepSentence(transcript, 2, wordEvents(transcript.events))).toBe(
      'Step 2 of 20, 0 ms: client → server: tools/call #41 on stdio, arrives 5 ms',
    );
  });
});

describe('a shared virtual-time axis (the Compare tab)', () => {
  it('draws the same instant at the same height in both diagrams, and time still runs down each', () => {
    const runs = [runRaceById('C'), runRaceById('C', { settings: { latencyMs: 10 } })].map((t) => ({
      transcript: t as unknown as Transcript,
      wording: wordEvents(t.events),
    }));
    const axis = sharedAxis(runs);
    const [a, b] = runs.map((run) => layoutDiagram(run.transcript, run.wording, 'ordinal', axis)) as [
      DiagramLayout,
      DiagramLayout,
    ];
    // The race view: one band per instant, its time written level with the band's first row.
    const firstRowAt = (layout: DiagramLayout, _t: Transcript) =>
      new Map(layout.times.map((time) => [time.atMs, time.y]));
    const rowsA = firstRowAt(a, runs[0]!.transcript);
    const rowsB = firstRowAt(b, runs[1]!.transcript);
    const common = [...rowsA.keys()].filter((atMs) => rowsB.has(atMs));
    expect(common.length).toBeGreaterThan(3);
    // Centres may differ by a marker's extra room only (a two-line marker sits lower in its band).
    for (const atMs of common)
      expect(Math.abs((rowsA.get(atMs) as number) - (rowsB.get(atMs) as number))).toBeLessThanOrEqual((52 - 30) / 2);
    for (const layout of [a, b])
      for (let i = 1; i < layout.times.length; i += 1)
        expect(layout.times[i]?.y as number).toBeGreaterThan(layout.times[i - 1]?.y as number);
    // Model C gives up at 2000 ms; with 10 ms of latency it is the same instant: same height.
    expect(rowsA.get(2_000)).toBeDefined();
    expect(Math.abs((rowsA.get(2_000) as number) - (rowsB.get(2_000) as number))).toBeLessThanOrEqual(11);
  });
});

describe('the race view (one band per virtual instant)', () => {
  it.each(['A', 'B', 'C', 'D'])(
    '%s: every instant has one band, and every event of it is drawn inside its band',
    (id) => {
      const transcript = race(id);
      const layout = lay(transcript);
      const instants = [...new Set(transcript.events.map((event) => event.atMs))];
      expect(layout.times.map((time) => time.atMs)).toEqual(instants);
      for (let i = 1; i < layout.times.length; i++)
        expect(layout.times[i]?.y as number).toBeGreaterThan(layout.times[i - 1]?.y as number);
      // Bookkeeping never takes a row of its own: fewer rows than events.
      const rows = new Set(layout.rowY.map((y) => Math.round(y)));
      expect(rows.size).toBeLessThan(transcript.events.length);
      transcript.events.forEach((event, i) => {
        const band = layout.times.findIndex((time) => time.atMs === event.atMs);
        const next = layout.times[band + 1];
        expect(layout.rowY[i] as number).toBeGreaterThanOrEqual((layout.times[band]?.y as number) - 12);
        if (next !== undefined) expect(layout.rowY[i] as number).toBeLessThan(next.y);
      });
    },
  );

  it.each([
    ['A', 'stdio'],
    ['A', 'http'],
    ['B', 'stdio'],
    ['B', 'http'],
    ['C', 'stdio'],
    ['C', 'http'],
    ['D', 'stdio'],
    ['D', 'http'],
  ] as const)('%s on %s: no arrowhead ends under a chip (chips are drawn over the wires)', (id, transport) => {
    const layout = lay(race(id, transport));
    const chips = layout.markers.filter((marker) => marker.look === 'chip');
    for (const wire of layout.wires) {
      // The arrowhead's triangle, as WireEdgeView draws it: the tip and two points back along the line.
      const angle = Math.atan2(wire.y2 - wire.y1, wire.x2 - wire.x1);
      const points = [0, ARROW_SPREAD, -ARROW_SPREAD].map((spread, k) =>
        k === 0
          ? [wire.x2, wire.y2]
          : [wire.x2 - ARROW_LENGTH * Math.cos(angle - spread), wire.y2 - ARROW_LENGTH * Math.sin(angle - spread)],
      ) as Array<[number, number]>;
      const head = {
        left: Math.min(...points.map((p) => p[0])),
        right: Math.max(...points.map((p) => p[0])),
        top: Math.min(...points.map((p) => p[1])),
        bottom: Math.max(...points.map((p) => p[1])),
      };
      for (const chip of chips) {
        const x = Math.min(head.right, chip.x + chip.width / 2) - Math.max(head.left, chip.x - chip.width / 2);
        const y = Math.min(head.bottom, chip.y + chip.height / 2) - Math.max(head.top, chip.y - chip.height / 2);
        expect(x > 0.5 && y > 0.5, `${id} on ${transport}: the head of "${wire.label}" under "${chip.text}"`).toBe(
          false,
        );
      }
    }
  });

  it('nothing before it happens: a wire in flight ends at the now-line, its fate shows only at its step', () => {
    const transcript = race('B');
    const flow = buildFlow(lay(transcript));
    let seen = 0;
    for (let step = 1; step <= transcript.events.length; step++) {
      const view = flowAt(flow, step, null);
      for (const edge of view.edges) {
        const data = edge.data;
        if (data === undefined) continue;
        if (data.status === 'in-flight') {
          seen += 1;
          expect(data.y2, `step ${step}: ${data.label}`).toBeLessThanOrEqual(view.nowY + 0.001);
          if (data.y2 > data.y1) expect(data.y2).toBeCloseTo(view.nowY, 6);
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});
