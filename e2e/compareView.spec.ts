// Proves Compare fits a laptop: at 1280×720 and 1440×900, with two runs (the model and the SDK) and with
// three (model, SDK v1, SDK v2), every diagram is inside the window without scrolling, its lanes whole
// across its pane, no text in it under 12 px (lane headers, times, chips, labels), and nothing covers a
// lane header (no sticky control above it). Screenshots are attached as artifacts.
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { LabPage } from './pages/LabPage';

/** Every compared diagram as drawn: its pane's box, its zoom, its lane headers (whole inside the pane, and on top) and its smallest text. */
async function diagrams(page: Page) {
  return page.locator('.compare-diagrams .lab-flow').evaluateAll((panes) =>
    panes.map((pane) => {
      const box = pane.getBoundingClientRect();
      const viewport = pane.querySelector('.react-flow__viewport');
      const zoom = viewport === null ? 0 : new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
      const headers = [...pane.querySelectorAll('.dg-lane-header')].map((header) => {
        const r = header.getBoundingClientRect();
        // The headers let the pointer through to the pane; made hittable for a moment, the topmost element at their centre is them unless something covers them.
        const band = header.parentElement as HTMLElement;
        const before = band.style.pointerEvents;
        band.style.pointerEvents = 'auto';
        (header as HTMLElement).style.pointerEvents = 'auto';
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        band.style.pointerEvents = before;
        (header as HTMLElement).style.pointerEvents = '';
        return {
          text: header.textContent ?? '',
          inside:
            r.width > 0 &&
            r.left >= box.left - 1 &&
            r.right <= box.right + 1 &&
            r.top >= box.top - 1 &&
            r.bottom <= box.bottom + 1,
          onTop: hit !== null && header.contains(hit),
        };
      });
      let smallest = Infinity;
      let texts = 0;
      for (const text of pane.querySelectorAll(
        '.dg-marker-text, .dg-wire-label, .dg-wire-fate, .dg-time, .dg-lane-header',
      )) {
        const r = text.getBoundingClientRect();
        if (r.width === 0 || r.bottom < box.top || r.top > box.bottom || (text.textContent ?? '').trim() === '')
          continue;
        texts += 1;
        const scale = text.closest('.react-flow__viewport') === null ? 1 : zoom;
        smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * scale);
      }
      return {
        top: box.top,
        bottom: box.bottom,
        left: box.left,
        right: box.right,
        height: box.height,
        zoom,
        headers,
        smallest,
        texts,
      };
    }),
  );
}

/** The tab's scroll position and the window's size: "without scrolling" means the tab is at its top and each pane inside the window. */
async function scrolled(page: Page) {
  return page.evaluate(() => ({
    tab: document.querySelector('.lab-tabpanel')?.scrollTop ?? -1,
    page: document.documentElement.scrollTop,
    width: innerWidth,
    height: innerHeight,
  }));
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function expectLegible(page: Page, count: number, what: string): Promise<void> {
  // Each pane fitted and drawn: its lanes are on screen (the fit settles just after the pane does).
  await expect
    .poll(
      async () =>
        (await diagrams(page)).map((d) => d.headers.length > 0 && d.headers.every((h) => h.inside) && d.zoom > 0),
      what,
    )
    .toEqual(new Array<boolean>(count).fill(true));
  const window = await scrolled(page);
  expect(window.tab, `${what}: the tab is not scrolled`).toBe(0);
  expect(window.page, `${what}: the page is not scrolled`).toBe(0);
  const drawn = await diagrams(page);
  testInfo().annotations.push({
    type: 'measured',
    description: `${what}: ${JSON.stringify(drawn.map(({ top, bottom, height, zoom, smallest }) => ({ top, bottom, height, zoom, smallest })))}`,
  });
  drawn.forEach((d, index) => {
    const name = `${what}, diagram ${'ABC'[index]}`;
    expect(d.top, `${name}: starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(d.bottom, `${name}: ends inside the window`).toBeLessThanOrEqual(window.height);
    expect(d.left, `${name}: inside the window`).toBeGreaterThanOrEqual(0);
    expect(d.right, `${name}: inside the window`).toBeLessThanOrEqual(window.width);
    expect(d.height, `${name}: a pane, not a sliver`).toBeGreaterThanOrEqual(110);
    expect(d.zoom, `${name}: the zoom keeps 14 px text at 12 px or more`).toBeGreaterThanOrEqual(12 / 14 - 0.001);
    expect(d.texts, `${name}: text is drawn`).toBeGreaterThan(0);
    expect(d.smallest, `${name}: no text under 12 px`).toBeGreaterThanOrEqual(11.99);
    for (const header of d.headers)
      expect(header.onTop, `${name}: nothing covers the ${header.text} header`).toBe(true);
  });
}

const testInfo = () => test.info();

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
] as const) {
  test.describe(`Compare at ${width}×${height}`, () => {
    test.use({ viewport: { width, height } });

    test(`two runs: both diagrams in the window, lanes whole, text at least 12 px, headers uncovered`, async ({
      page,
    }, info) => {
      const lab = new LabPage(page);
      await lab.open('?scenario=C&tab=compare');
      await expect(page.getByRole('heading', { name: 'Run B: C:impl=ts-sdk', exact: true })).toBeVisible({
        timeout: 20_000,
      });
      await expectLegible(page, 2, `${width}x${height} two runs at the end`);
      await shot(page, info, `compare-two-${width}x${height}-end`);
      // At the first difference too, where both panes are full.
      await page
        .getByRole('region', { name: 'Compare playback' })
        .getByRole('button', { name: 'First difference', exact: true })
        .click();
      await expect(page.getByRole('region', { name: 'Compare playback' }).locator('output')).toHaveText('2000 ms');
      await expectLegible(page, 2, `${width}x${height} two runs at 2000 ms`);
      await shot(page, info, `compare-two-${width}x${height}-2000ms`);
    });

    test(`three runs: every diagram in the window, lanes whole, text at least 12 px, headers uncovered`, async ({
      page,
    }, info) => {
      const lab = new LabPage(page);
      await lab.open('?tab=compare&runA=C&runB=C:impl=ts-sdk&runC=C:impl=ts-sdk-v2');
      await expect(page.getByRole('heading', { name: 'Run C: C:impl=ts-sdk-v2', exact: true })).toBeVisible({
        timeout: 30_000,
      });
      await page
        .getByRole('region', { name: 'Compare playback' })
        .getByRole('button', { name: 'First difference', exact: true })
        .click();
      await expect(page.getByRole('region', { name: 'Compare playback' }).locator('output')).toHaveText('2000 ms');
      await expectLegible(page, 3, `${width}x${height} three runs at 2000 ms`);
      await shot(page, info, `compare-three-${width}x${height}-2000ms`);
    });
  });
}
