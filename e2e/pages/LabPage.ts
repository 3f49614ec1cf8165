import { expect, type Locator, type Page } from '@playwright/test';

// Page object for the first page: finds the controls by their accessible names and reads the
// recorded facts and timeline the way a user sees them.

export type TransportValue = 'stdio' | 'http';

export const TRANSPORT_LABELS: Record<TransportValue, string> = { stdio: 'stdio', http: 'Streamable HTTP' };

export interface Facts {
  terminalState: string;
  finalResponse: string;
  cancellationSignal: string;
  clientIgnores: string;
}

export const FACT_HEADERS = ['Terminal state', 'Final response', 'Cancellation signal', 'Client ignores'] as const;

export class LabPage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly scenario: Locator;
  readonly transportGroup: Locator;
  readonly seed: Locator;
  readonly runButton: Locator;
  readonly facts: Locator;
  readonly timeline: Locator;
  readonly alert: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole('main');
    this.heading = page.getByRole('heading', { level: 1, name: 'MCP Reliability Lab' });
    this.scenario = page.getByRole('combobox', { name: 'Scenario' });
    this.transportGroup = page.getByRole('group', { name: 'Transport' });
    this.seed = page.getByRole('spinbutton', { name: 'Seed' });
    this.runButton = page.getByRole('button', { name: 'Run' });
    this.facts = page.getByRole('table', { name: 'Recorded facts' });
    this.timeline = page.getByRole('list', { name: 'Timeline' });
    this.alert = page.getByRole('alert');
  }

  transportRadio(transport: TransportValue): Locator {
    return this.transportGroup.getByRole('radio', { name: TRANSPORT_LABELS[transport], exact: true });
  }

  async open(): Promise<void> {
    await this.page.goto('/');
    await expect(this.heading).toBeVisible();
  }

  async pickScenario(id: string): Promise<void> {
    await this.scenario.selectOption(id);
  }

  async pickTransport(transport: TransportValue): Promise<void> {
    await this.transportRadio(transport).check();
  }

  async setSeed(seed: string): Promise<void> {
    await this.seed.fill(seed);
  }

  /** Waits until the page shows the finished run of exactly this scenario/transport (and seed). */
  async waitForRun(scenario: string, transport: TransportValue, seed = 1): Promise<void> {
    await expect(this.main).toHaveAttribute('data-status', 'done');
    await expect(this.main).toHaveAttribute('data-scenario', scenario);
    await expect(this.main).toHaveAttribute('data-transport', transport);
    await expect(this.main).toHaveAttribute('data-seed', String(seed));
  }

  async factHeaders(): Promise<string[]> {
    return (await this.facts.getByRole('columnheader').allTextContents()).map((text) => text.trim());
  }

  async readFacts(): Promise<Facts> {
    const rows = this.facts.locator('tbody').getByRole('row');
    await expect(rows).toHaveCount(1);
    const cells = (await rows.first().getByRole('cell').allTextContents()).map((text) => text.trim());
    expect(cells).toHaveLength(4);
    const [terminalState = '', finalResponse = '', cancellationSignal = '', clientIgnores = ''] = cells;
    return { terminalState, finalResponse, cancellationSignal, clientIgnores };
  }

  async timelineLines(): Promise<string[]> {
    return (await this.timeline.getByRole('listitem').allTextContents()).map((text) => text.trim());
  }
}
