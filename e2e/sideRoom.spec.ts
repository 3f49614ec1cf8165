// What the side column held at 1280×720 reads whole without a hunt, measured as boxes against the
// window and the boxes that clip them (no pixels): Predict's card before the race point on a first
// visit, the scenario description's line beside a run's long facts at its end, and an exploration's
// results with the button that opens the shortest ordering breaking an invariant.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ExplorePanel } from './pages/ExplorePanel';
import { shown, whole, wholeOnTop } from './pages/geometry';
import { LabPage } from './pages/LabPage';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

async function shot(page: Page, name: string): Promise<void> {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('Predict on a first visit at step 0: the card that says where the replay stops reads whole, and stays whole stepping on', async ({
      page,
    }) => {
      const lab = new LabPage(page);
      await lab.open();
      await lab.waitForRun('A', 'stdio');
      await lab.waitForStep(0);
      await page.locator('body').focus();
      await page.keyboard.press('q');
      const card = page.locator('[data-predict="waiting"]');
      await expect(card).toBeVisible();
      await expect(card).toContainText('steps ahead');
      for (let step = 0; step <= 3; step++) {
        if (step > 0) {
          await page.keyboard.press('ArrowRight');
          await lab.waitForStep(step);
          await expect(card).toContainText(/\d+ steps? ahead/);
        }
        const box = await shown(card);
        expect(box.overflows, `step ${step}: the card's text overflows its box`).toBe(false);
        expect(whole(box), `step ${step}: the card whole in view (${JSON.stringify(box)})`).toBe(true);
        for (const part of await card.locator('p').all()) {
          const text = ((await part.textContent()) ?? '').slice(0, 40);
          expect(whole(await shown(part)), `step ${step}: "${text}" whole in view`).toBe(true);
        }
        expect(await wholeOnTop(card), `step ${step}: nothing over the card`).toBe(true);
        if (step === 0) await shot(page, `predict-step0-${size.width}`);
      }
    });

    test('Predict on a scenario without a race: the card that says where it works reads whole', async ({ page }) => {
      const lab = new LabPage(page);
      await lab.open('?scenario=buffer-overload&instructor=predict');
      await lab.waitForRun('buffer-overload', 'http');
      const card = page.locator('[data-predict="none"]');
      await expect(card).toContainText('Predict works on the race scenarios');
      const box = await shown(card);
      expect(box.overflows, "the card's text overflows its box").toBe(false);
      expect(whole(box), `the card whole in view (${JSON.stringify(box)})`).toBe(true);
      expect(await wholeOnTop(card), 'nothing over the card').toBe(true);
    });

    test("stepped to the end of B (a first visit, then the menu): the description's line reads whole in the side column without scrolling it", async ({
      page,
    }) => {
      const lab = new LabPage(page);
      await lab.open();
      await lab.waitForRun('A', 'stdio');
      await lab.pickScenario('B');
      await lab.waitForRun('B', 'stdio');
      await page.locator('body').focus();
      await page.keyboard.press('End');
      await lab.waitForStep(await lab.eventCount());
      const description = page.getByRole('region', { name: 'Scenario description' });
      const lines = [description.locator('.lab-topic'), description.locator('.lab-about > summary')];
      await expect(lines[1] as Locator).toHaveText('What happens in this scenario');
      const check = async (when: string) => {
        for (const line of lines) {
          const text = (await line.textContent()) ?? '';
          expect(whole(await shown(line)), `${when}: "${text}" whole in view`).toBe(true);
          expect(await wholeOnTop(line), `${when}: nothing over "${text}"`).toBe(true);
        }
      };
      await check('B at its end');
      await shot(page, `b-end-${size.width}`);
      // The same with Predict's answer on screen: guessed, revealed, then stepped to the end.
      await page.keyboard.press('q');
      await page.keyboard.press('Home');
      await lab.waitForStep(0);
      await page.keyboard.press('Space');
      await expect(page.locator('[data-predict="asking"]')).toBeVisible({ timeout: 20_000 });
      await page.keyboard.press('1');
      await page.keyboard.press('ArrowRight');
      await expect(page.locator('[data-predict="revealed"]')).toBeVisible();
      await page.keyboard.press('End');
      await lab.waitForStep(await lab.eventCount());
      await check('B at its end with the answer revealed');
      await shot(page, `b-end-revealed-${size.width}`);
    });

    test("after an exploration its results read in a room of their own, the shortest ordering's button in view, and the focus stays with the panel", async ({
      page,
    }) => {
      const lab = new LabPage(page);
      const explorer = new ExplorePanel(page);
      // The buffer dropping any oldest item: one broken invariant, its shortest ordering, eight endings.
      await lab.open(
        '?scenario=buffer-overload&transport=stdio&requests=2&progressPerRequest=4&capacity=2&producerEveryMs=30&consumerEveryMs=60&queue=drop-oldest-any',
      );
      await lab.waitForRun('buffer-overload', 'stdio');
      // By keyboard: Enter on Explore; the focus stays in the panel as it moves and the exploration ends.
      await explorer.explore.focus();
      await page.keyboard.press('Enter');
      await expect(explorer.summary).toBeVisible({ timeout: 30_000 });
      await expect(explorer.explore).toBeEnabled();
      const open = explorer.region.getByRole('button', {
        name: 'Open the shortest ordering that breaks final-never-dropped',
      });
      await expect(open).toBeVisible();
      await shot(page, `explored-${size.width}`);
      // In view as the exploration ended, nothing scrolled by the test: the summary, the shortest ordering and its button.
      for (const [what, part] of [
        ['the summary', explorer.summary],
        ['the shortest ordering', explorer.region.getByTestId('explore-shortest')],
        ['its button', open],
      ] as const) {
        expect(whole(await shown(part)), `${what} whole in view`).toBe(true);
        expect(await wholeOnTop(part), `nothing over ${what}`).toBe(true);
      }
      // The results are read in a room, not a well: what is seen of them is at least 150 px tall and 450 px wide.
      const result = await shown(explorer.region.locator('.lab-explore-result'));
      expect(result.seen.bottom - result.seen.top, 'the results in view: height').toBeGreaterThanOrEqual(150);
      expect(result.seen.right - result.seen.left, 'the results in view: width').toBeGreaterThanOrEqual(450);
      // The diagram keeps a third of the window beside the timeline.
      const pane = await page.locator('.lab-flow').boundingBox();
      expect((pane?.height ?? 0) / size.height).toBeGreaterThanOrEqual(1 / 3);
      // The whole page stays in the window; the timeline's current row too.
      expect(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight)).toBe(true);
      expect(whole(await shown(page.locator('.lab-dock li.is-current')))).toBe(true);

      expect(
        await explorer.region.evaluate((region) => region.contains(document.activeElement)),
        'the focus is in the panel, not lost to the page',
      ).toBe(true);

      // Opened, the ordering is in the diagram and the way back stays in view with the results.
      await open.click();
      await expect(explorer.current).toContainText('c0.c1.c1');
      await lab.waitForStep(24);
      for (const [what, part] of [
        ['the way back', explorer.backToSeeded],
        ['the button', open],
      ] as const) {
        expect(whole(await shown(part)), `${what} whole in view after opening`).toBe(true);
      }
      await shot(page, `explored-opened-${size.width}`);
    });
  });
}
