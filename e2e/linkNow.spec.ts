// The link names the step the page shows from the moment it shows it: a reload or a copy of the address
// right after a step (or after an ordering opens at its step) reopens that step, not the run's end.
import { expect, test } from '@playwright/test';
import { ExplorePanel } from './pages/ExplorePanel';
import { LabPage } from './pages/LabPage';

test.describe('the link', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('names the step the moment it lands: Step forward, Step back and the keys, read in the same task', async ({
    page,
  }) => {
    const lab = new LabPage(page);
    await lab.open('?scenario=C&transport=stdio&step=4');
    await lab.waitForRun('C', 'stdio');
    await lab.waitForStep(4);
    await expect(page).toHaveURL(/[?&]step=4(&|$)/);
    // Each press is followed, in the same task, by a read of the address: no timer has run in between.
    const steps = await page.evaluate(() => {
      const press = (name: string) =>
        [...document.querySelectorAll<HTMLButtonElement>('section[aria-label="Playback"] button')]
          .find((button) => button.textContent?.trim() === name)
          ?.click();
      const key = (name: string) =>
        document.body.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }));
      const read = () => new URLSearchParams(location.search).get('step');
      const seen: Array<string | null> = [];
      for (const move of [
        () => press('Step forward'),
        () => press('Step forward'),
        () => press('Step back'),
        () => key('ArrowRight'),
        () => key('ArrowRight'),
        () => key('ArrowLeft'),
      ]) {
        move();
        seen.push(read());
      }
      return seen;
    });
    expect(steps).toEqual(['5', '6', '5', '6', '7', '6']);
    await lab.waitForStep(6);
  });

  test('names the opened ordering and its step the moment the page shows them', async ({ page }) => {
    const lab = new LabPage(page);
    const explorer = new ExplorePanel(page);
    await lab.open('?scenario=ledger-race-unsafe');
    await lab.waitForRun('ledger-race-unsafe', 'http');
    await explorer.run();
    // Whenever the page shows a step of a finished run, the link it has then names that step.
    await page.evaluate(() => {
      const main = document.querySelector('main');
      const w = window as unknown as { shownWithLink: string[] };
      w.shownWithLink = [];
      if (main === null) return;
      new MutationObserver(() => {
        if (main.dataset.status !== 'done') return;
        const link = new URLSearchParams(location.search);
        w.shownWithLink.push(`${main.dataset.step ?? ''}/${main.dataset.events ?? ''} ${link.get('step') ?? 'end'}`);
      }).observe(main, { attributes: true, attributeFilter: ['data-step', 'data-status', 'data-events'] });
    });
    await explorer.shortest.first().click();
    await lab.waitForStep(17);
    const shown = await page.evaluate(() => (window as unknown as { shownWithLink: string[] }).shownWithLink);
    expect(shown.length, 'the page showed the ordering').toBeGreaterThan(0);
    expect(shown.at(-1)).toBe('17/20 17');
    expect(shown.filter((entry) => entry.startsWith('17/')).every((entry) => entry.endsWith(' 17'))).toBe(true);
  });
});
