import { expect, type Locator, type Page } from '@playwright/test';

// Page object for the lab page: finds the controls by their accessible names and reads the
// recorded facts, the timeline and the replay position the way a user sees them.

export type TransportValue = 'stdio' | 'http';

export const TRANSPORT_LABELS: Record<TransportValue, string> = { stdio: 'stdio', http: 'Streamable HTTP' };

export interface Facts {
  terminalState: string;
  finalResponse: string;
  cancellationSignal: string;
  clientIgnores: string;
  clientOutcome: string;
}

export const FACT_HEADERS = [
  'Terminal state',
  'Final response',
  'Cancellation signal',
  'Client ignores',
  'Client outcome',
] as const;

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
  /** Playback (its accessible names are a contract). */
  readonly stepForward: Locator;
  readonly stepBack: Locator;
  readonly play: Locator;
  readonly pause: Locator;
  readonly reset: Locator;
  readonly speed: Locator;
  readonly scrubber: Locator;
  /** The aria-live sentence for the current step. */
  readonly announcer: Locator;
  /** What the page says about a link it could not use. */
  readonly notice: Locator;
  readonly settings: Locator;
  readonly shortcutsButton: Locator;
  readonly shortcutsDialog: Locator;
  readonly busy: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole('main');
    this.heading = page.getByRole('heading', { level: 1, name: 'MCP Reliability Lab' });
    this.scenario = page.getByRole('combobox', { name: 'Scenario', exact: true });
    this.transportGroup = page.getByRole('group', { name: 'Transport' });
    this.seed = page.getByRole('spinbutton', { name: 'Seed' });
    this.runButton = page.getByRole('button', { name: 'Run', exact: true });
    this.facts = page.getByRole('table', { name: 'Recorded facts' });
    this.timeline = page.getByRole('list', { name: 'Timeline' });
    this.alert = page.getByRole('alert');
    const playback = page.getByRole('region', { name: 'Playback' });
    this.stepForward = playback.getByRole('button', { name: 'Step forward', exact: true });
    this.stepBack = playback.getByRole('button', { name: 'Step back', exact: true });
    this.play = playback.getByRole('button', { name: 'Play', exact: true });
    this.pause = playback.getByRole('button', { name: 'Pause', exact: true });
    this.reset = playback.getByRole('button', { name: 'Reset', exact: true });
    this.speed = playback.getByRole('combobox', { name: 'Speed' });
    this.scrubber = playback.getByRole('slider', { name: 'Virtual time' });
    this.announcer = page.locator('.lab-now[aria-live]');
    this.notice = page
      .getByRole('status')
      .filter({ has: page.getByRole('heading', { name: 'This link had values the lab could not use' }) });
    this.settings = page.locator('details.lab-settings');
    this.shortcutsButton = playback.getByRole('button', { name: 'Keyboard shortcuts' });
    this.shortcutsDialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    this.busy = page.locator('.lab-busy');
  }

  transportRadio(transport: TransportValue): Locator {
    return this.transportGroup.getByRole('radio', { name: TRANSPORT_LABELS[transport], exact: true });
  }

  /** Opens the lab, optionally with a link's query (`?scenario=C&step=4`). */
  async open(query = ''): Promise<void> {
    await this.page.goto(`/${query}`);
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
    // The diagram's code loads apart from the page's first script: a run is shown once its diagram replaced the placeholder.
    await expect(this.page.locator('.lab-diagram[data-loading]')).toHaveCount(0);
  }

  /** Waits until the replay shows exactly `step` events. */
  async waitForStep(step: number): Promise<void> {
    await expect(this.main).toHaveAttribute('data-step', String(step));
  }

  /**
   * Goes to the end of the run (End), as a user does to see a run's facts at once: a first visit
   * opens at step 0, a link at its step (or at the end when it names none).
   */
  async toEnd(): Promise<void> {
    await expect(this.main).toHaveAttribute('data-status', 'done');
    await this.page.keyboard.press('End');
    await expect(this.main).toHaveAttribute('data-step', String(await this.eventCount()));
  }

  /** Steps with the buttons, one event at a time, to `target`. */
  async setStepTo(target: number): Promise<void> {
    let step = await this.step();
    while (step !== target) {
      const forward = step < target;
      await (forward ? this.stepForward : this.stepBack).click();
      step += forward ? 1 : -1;
      await this.waitForStep(step);
    }
  }

  async step(): Promise<number> {
    return Number(await this.main.getAttribute('data-step'));
  }

  async eventCount(): Promise<number> {
    return Number(await this.main.getAttribute('data-events'));
  }

  /** A setting's input in the Settings panel (opened if needed), by the setting's name. */
  async setting(name: string): Promise<Locator> {
    if ((await this.settings.getAttribute('open')) === null) await this.settings.locator('summary').click();
    return this.settings.getByLabel(name, { exact: true });
  }

  async factHeaders(): Promise<string[]> {
    return (await this.facts.getByRole('columnheader').allTextContents()).map((text) => text.trim());
  }

  async readFacts(): Promise<Facts> {
    const rows = this.facts.locator('tbody').getByRole('row');
    await expect(rows).toHaveCount(1);
    const cells = (await rows.first().getByRole('cell').allTextContents()).map((text) => text.trim());
    expect(cells).toHaveLength(5);
    const [terminalState = '', finalResponse = '', cancellationSignal = '', clientIgnores = '', clientOutcome = ''] =
      cells;
    return { terminalState, finalResponse, cancellationSignal, clientIgnores, clientOutcome };
  }

  async timelineLines(): Promise<string[]> {
    return (await this.timeline.getByRole('listitem').allTextContents()).map((text) => text.trim());
  }
}
