import { expect, type Locator, type Page } from '@playwright/test';

// Page object for the sequence diagram and the inspector: wires (edges) and markers are found by
// the data attributes the diagram puts on them (kind, seq, status, from, to), the pane by its
// counts of what the replay shows.

export type WireStatus = 'in-flight' | 'delivered' | 'ignored' | 'lost' | 'closed';

export interface WireView {
  seq: number;
  kind: string;
  status: string;
  from: string;
  to: string;
  label: string;
}

export class Diagram {
  readonly section: Locator;
  readonly pane: Locator;
  readonly inspector: Locator;
  readonly messageJson: Locator;
  readonly fitView: Locator;

  constructor(readonly page: Page) {
    this.section = page.getByRole('region', { name: 'Sequence diagram' });
    this.pane = this.section.locator('.lab-flow');
    this.inspector = page.getByRole('region', { name: 'Inspector' });
    this.messageJson = this.inspector.getByLabel('JSON-RPC message');
    this.fitView = this.section.getByRole('button', { name: 'Fit View' });
  }

  /** The pane's count of what the replay shows (all of it, drawn or culled). */
  async counts(): Promise<{
    step: number;
    messages: number;
    messagesTotal: number;
    inFlight: number;
    lanes: string[];
  }> {
    const data = await this.pane.evaluate((element: HTMLElement) => ({ ...element.dataset }));
    return {
      step: Number(data.step),
      messages: Number(data.messages),
      messagesTotal: Number(data.messagesTotal),
      inFlight: Number(data.inFlight),
      lanes: (data.lanes ?? '').split(' '),
    };
  }

  wire(seq: number): Locator {
    return this.pane.locator(`.react-flow__edge[data-seq="${seq}"]`);
  }

  wires(kind?: string): Locator {
    return this.pane.locator(kind === undefined ? '.react-flow__edge' : `.react-flow__edge[data-kind="${kind}"]`);
  }

  marker(seq: number): Locator {
    return this.pane.locator(`.react-flow__node[data-kind="marker"][data-seq="${seq}"]`);
  }

  currentMarker(): Locator {
    return this.pane.locator('.dg-marker[data-current="true"]');
  }

  /** The wires drawn now (those on screen), as their data attributes say. */
  async drawnWires(): Promise<WireView[]> {
    return this.pane.locator('.react-flow__edge').evaluateAll((edges) =>
      edges.map((edge) => ({
        seq: Number(edge.getAttribute('data-seq')),
        kind: edge.getAttribute('data-kind') ?? '',
        status: edge.getAttribute('data-status') ?? '',
        from: edge.getAttribute('data-from') ?? '',
        to: edge.getAttribute('data-to') ?? '',
        label: edge.getAttribute('data-label') ?? '',
      })),
    );
  }

  /** Clicks a wire on its line (the middle of a straight line is the middle of its box). */
  async pickWire(seq: number): Promise<void> {
    await this.wire(seq).locator('.dg-wire-hit').click();
  }

  /** Zooms out to the whole diagram (the Fit View control) and waits until the view settles. */
  async fitAll(): Promise<void> {
    const before = await this.transform();
    await this.fitView.click();
    await expect.poll(() => this.transform()).not.toBe(before);
    await this.settled();
  }

  private transform(): Promise<string> {
    return this.pane.locator('.react-flow__viewport').evaluate((element: HTMLElement) => element.style.transform);
  }

  /** Waits until the viewport stops moving (two reads in a row agree). */
  async settled(): Promise<void> {
    let last = await this.transform();
    await expect
      .poll(async () => {
        const now = await this.transform();
        const same = now === last;
        last = now;
        return same;
      })
      .toBe(true);
  }
}
