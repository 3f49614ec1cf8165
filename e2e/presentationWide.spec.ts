// Presentation from a laptop to a wide projector: at every size from 1280×720 to 2560×1440 the
// instructor's buttons and keyboard hint stand clear of the playback bar (its buttons, speed, slider,
// step counter, time and "?"), and every one of them is whole inside the viewport.
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './pages/LabPage';

type Box = { x: number; y: number; width: number; height: number };

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1600, height: 900 },
  { width: 1920, height: 1080 },
  { width: 2560, height: 1440 },
] as const;

function overlap(a: Box, b: Box): boolean {
  // Touching edges (a shared pixel row from rounding) is not covering.
  const epsilon = 0.5;
  return (
    a.x < b.x + b.width - epsilon &&
    b.x < a.x + a.width - epsilon &&
    a.y < b.y + b.height - epsilon &&
    b.y < a.y + a.height - epsilon
  );
}

/** The boxes of the visible elements each selector names, labelled. */
async function boxes(page: Page, selectors: Record<string, string>): Promise<Record<string, Box>> {
  const found: Record<string, Box> = {};
  for (const [name, selector] of Object.entries(selectors)) {
    const locator = page.locator(selector);
    const count = await locator.count();
    for (let index = 0; index < count; index++) {
      const element = locator.nth(index);
      if (!(await element.isVisible())) continue;
      const box = await element.boundingBox();
      if (box !== null) found[count > 1 ? `${name} ${index + 1}` : name] = box;
    }
  }
  return found;
}

const INSTRUCTOR = {
  'Presentation button': '.instructor-bar button:has-text("Presentation")',
  'Predict button': '.instructor-bar button:has-text("Predict")',
  'keyboard hint': '.instructor-keys',
};

const PLAYBAR = {
  'playback button': '.lab-playback-buttons > .lab-button',
  speed: '.lab-playbar .lab-speed select',
  'Virtual time slider': '.lab-playbar .lab-scrubber input',
  'step counter': '.lab-position-step',
  time: '.lab-position-time',
  '? button': '.lab-help-button',
  // Beside the hint, and under it the facts: neither is covered either.
  'step sentence': '.lab-playbar .lab-now',
  'outcome facts': '.lab-facts-cell',
};

for (const size of SIZES) {
  test.describe(`Presentation at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('the instructor bar stands clear of the playback bar, all inside the viewport', async ({ page }) => {
      const lab = new LabPage(page);
      // The heading steps aside in Presentation, so the page is opened without LabPage.open's wait for it.
      await page.goto('/?scenario=B&transport=stdio&instructor=presentation');
      await lab.waitForRun('B', 'stdio');
      await expect(page.locator('html')).toHaveAttribute('data-presentation', 'on');
      await expect(page.locator('.lab-position-step')).toHaveText('Step 22 / 22');

      const instructor = await boxes(page, INSTRUCTOR);
      const playbar = await boxes(page, PLAYBAR);
      expect(Object.keys(instructor)).toEqual(expect.arrayContaining(['Presentation button', 'Predict button']));
      expect(Object.keys(playbar)).toEqual(
        expect.arrayContaining(['Virtual time slider', 'step counter', 'time', '? button']),
      );
      // A projector this wide has the room for the hint.
      if (size.width >= 1920) expect(Object.keys(instructor)).toContain('keyboard hint');

      const covered: string[] = [];
      for (const [mine, a] of Object.entries(instructor)) {
        for (const [theirs, b] of Object.entries(playbar)) if (overlap(a, b)) covered.push(`${mine} covers ${theirs}`);
      }
      expect(
        covered,
        `instructor parts over playback parts; instructor ${JSON.stringify(instructor)} playbar ${JSON.stringify(playbar)}`,
      ).toEqual([]);

      const outside = Object.entries({ ...instructor, ...playbar })
        .filter(([, b]) => b.x < 0 || b.y < 0 || b.x + b.width > size.width + 0.5 || b.y + b.height > size.height + 0.5)
        .map(([name]) => name);
      expect(outside, 'parts not whole inside the viewport').toEqual([]);
    });
  });
}
