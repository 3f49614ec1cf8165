// The run overview, Presentation at 1280×720 and steady motion: the strip above the pane shows the
// whole run with the visible window and the race window on it, moves the view by click, drag and keys,
// and is one Tab stop with an accessible name; Presentation gives the diagram three quarters of the
// height, 1.5 times the normal view's text and the current instant with the four before it; playing at
// 32 steps/s pans by less than a third of the pane per frame; the pane never moves as the sentence wraps.
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './pages/LabPage';
import { HEADER_CLEAR_SHARE } from '../src/diagram/geometry/headerBand';

test.use({ viewport: { width: 1280, height: 720 } });

/** The viewport's transform (pan y and zoom) and the pane's box. */
async function view(page: Page) {
  return page.locator('.lab-flow').evaluate((pane) => {
    const transform = new DOMMatrixReadOnly(
      getComputedStyle(pane.querySelector('.react-flow__viewport') as Element).transform,
    );
    const box = pane.getBoundingClientRect();
    return { y: transform.f, zoom: transform.a, top: box.top, height: box.height, bottom: box.bottom };
  });
}

test('the run overview: the window and the race window on it, click, drag and keys move the view, one Tab stop', async ({
  page,
}, testInfo) => {
  const lab = new LabPage(page);
  // A long run: far taller than the pane, so the window is a part of the strip.
  await lab.open('?scenario=herd');
  await lab.waitForRun('herd', 'http');
  const strip = page.getByRole('slider', { name: 'Run overview' });
  await expect(strip).toBeVisible();
  // One Tab stop: the strip itself, nothing focusable inside it.
  await expect(strip).toHaveAttribute('tabindex', '0');
  expect(await strip.locator('[tabindex], a, button, input').count()).toBe(0);
  const box = await strip.boundingBox();
  if (box === null) throw new Error('no strip');
  const windowOf = async () => ({
    x: Number(await strip.getAttribute('data-window-x')),
    width: Number(await strip.getAttribute('data-window-width')),
  });
  // At the end of the run the window is at the strip's right end, and narrower than the strip: at most
  // HEADER_CLEAR_SHARE of the pane (the window's width on the strip) short of it, the room the view may
  // take so that the lane headers' band cuts no text (diagram/geometry/headerBand.ts).
  let win = await windowOf();
  expect(win.width).toBeLessThan(box.width / 2);
  expect(win.x + win.width).toBeGreaterThan(box.width - 3 - HEADER_CLEAR_SHARE * win.width);
  await expect(strip.locator('.dg-overview-race')).toHaveCount(1);
  await expect(strip).toHaveAttribute('aria-valuetext', /^showing \d/);

  // A click near the start moves the view there (the window follows), and the focus stays off the strip.
  await page.locator('#lab-replay').focus();
  await page.mouse.click(box.x + 4, box.y + box.height / 2);
  await expect.poll(async () => (await windowOf()).x).toBeLessThan(3);
  expect((await view(page)).y).toBeGreaterThan(-2);
  await expect(strip).not.toBeFocused();
  // A drag carries the window along.
  win = await windowOf();
  await page.mouse.move(box.x + win.x + win.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + win.x + win.width / 2 + 200, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await windowOf()).x).toBeGreaterThan(190);
  await expect(strip).not.toBeFocused();
  const file = testInfo.outputPath('overview-herd.png');
  await page.screenshot({ path: file });
  await testInfo.attach('overview-herd', { path: file, contentType: 'image/png' });

  // The keys: focused, Home goes to the start, PageDown a whole width on, ← back a quarter, End to the end.
  const stepBefore = await lab.step();
  await strip.focus();
  await page.keyboard.press('Home');
  await expect.poll(async () => (await windowOf()).x).toBeLessThan(1);
  win = await windowOf();
  await page.keyboard.press('PageDown');
  await expect.poll(async () => (await windowOf()).x).toBeGreaterThan(win.width - 3);
  const afterPage = await windowOf();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await windowOf()).x).toBeLessThan(afterPage.x - 1);
  await page.keyboard.press('End');
  await expect.poll(async () => (await windowOf()).x + (await windowOf()).width).toBeGreaterThan(box.width - 4);
  // The strip's keys are its own: the replay did not step.
  expect(await lab.step()).toBe(stepBefore);
  // Tab leaves it in one press.
  await page.keyboard.press('Tab');
  await expect(strip).not.toBeFocused();
});

/** How many instants so far have their band's time in the pane (vertically; only instants up to now are drawn), and whether the current one's is. */
async function instantsShown(page: Page) {
  return page.locator('.lab-flow').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    const times = [...pane.querySelectorAll<HTMLElement>('.dg-time')].map((time) => {
      const r = time.getBoundingClientRect();
      return {
        ms: Number(time.dataset.atMs),
        inside: r.top + r.height / 2 >= box.top && r.top + r.height / 2 <= box.bottom,
      };
    });
    const latest = Math.max(...times.map((time) => time.ms));
    return {
      currentInside: times.some((time) => time.ms === latest && time.inside),
      inside: times.filter((time) => time.inside).length,
    };
  });
}

/**
 * The median size on screen (px) of the diagram's text in view: every piece of text drawn inside the
 * pane (chips, wire labels, times, lane headers), its font size times the zoom when it is drawn in the
 * React Flow viewport, counted once per text run that lies in the pane's box.
 */
const medianTextPx = (page: Page) =>
  page.locator('.lab-flow').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    const viewport = pane.querySelector('.react-flow__viewport') as Element;
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    const sizes: number[] = [];
    const walker = document.createTreeWalker(pane, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const element = node.parentElement;
      if (element === null || (node.textContent ?? '').trim() === '') continue;
      const r = element.getBoundingClientRect();
      if (
        r.width <= 1 ||
        r.height <= 1 ||
        r.bottom <= box.top ||
        r.top >= box.bottom ||
        r.right <= box.left ||
        r.left >= box.right
      )
        continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      sizes.push(parseFloat(style.fontSize) * (viewport.contains(element) ? zoom : 1));
    }
    sizes.sort((a, b) => a - b);
    return sizes[Math.floor(sizes.length / 2)] ?? NaN;
  });

/** The lane headers that run past a side of the pane. */
const lanesOutside = (page: Page) =>
  page.locator('.lab-flow').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    return [...pane.querySelectorAll('.dg-lane-header')]
      .filter((header) => {
        const r = header.getBoundingClientRect();
        return r.left < box.left - 0.5 || r.right > box.right + 0.5;
      })
      .map((header) => header.textContent ?? '');
  });

test('Presentation at 1280×720: the diagram pane takes three quarters of the height, 1.5 times the normal median text, the current instant and the four before it', async ({
  page,
}, testInfo) => {
  test.slow();
  const lab = new LabPage(page);
  for (const [id, transport] of [
    ['A', 'stdio'],
    ['B', 'stdio'],
    ['C', 'http'],
    ['D', 'http'],
  ] as const) {
    await lab.open(`?scenario=${id}&transport=${transport}`);
    await lab.waitForRun(id, transport);
    await expect.poll(() => medianTextPx(page)).toBeGreaterThan(0);
    const normal = await medianTextPx(page);
    await page.goto(`/?scenario=${id}&transport=${transport}&step=0&instructor=presentation`);
    await lab.waitForRun(id, transport);
    await expect(page.locator('html')).toHaveAttribute('data-presentation', 'on');
    // The pane itself (the React Flow area the diagram draws in), not its section with the head above it.
    const region = await page.locator('.lab-flow .react-flow').boundingBox();
    expect((region?.height ?? 0) / 720, `${id}: the diagram pane's share of the height`).toBeGreaterThanOrEqual(0.75);
    const total = await lab.eventCount();
    let instants = 0;
    let lastMs = -1;
    for (let step = 1; step <= total; step++) {
      await page.keyboard.press('ArrowRight');
      await lab.waitForStep(step);
      const atMs = Number((await page.locator('.lab-position-time').textContent())?.replace(/[^\d.]/g, ''));
      if (atMs !== lastMs) instants += 1;
      lastMs = atMs;
      // Every lane stays in view at the fitted zoom: no lane's header runs past a side of the pane.
      expect(await lanesOutside(page), `${id} step ${step}: lanes cut at a side of the pane`).toEqual([]);
      const want = Math.min(5, instants);
      await expect
        .poll(
          async () => {
            const shown = await instantsShown(page);
            return shown.currentInside ? shown.inside : 0;
          },
          `${id} step ${step}: the current instant and the ${want - 1} before it`,
        )
        .toBeGreaterThanOrEqual(want);
    }
    const presenting = await medianTextPx(page);
    console.log(
      `Presentation ${id} on ${transport}: region ${JSON.stringify(region)}, text ${presenting.toFixed(2)} px against ${normal.toFixed(2)} px (${(presenting / normal).toFixed(3)}×)`,
    );
    expect(presenting / normal, `${id}: the median text against the normal view's`).toBeGreaterThanOrEqual(1.499);
    const file = testInfo.outputPath(`presentation-${id}.png`);
    await page.screenshot({ path: file });
    await testInfo.attach(`presentation-${id}`, { path: file, contentType: 'image/png' });
  }
});

for (const size of [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1600, height: 900 },
  { width: 1920, height: 1080 },
  { width: 2560, height: 1440 },
]) {
  test(`Presentation at ${size.width}×${size.height}: the diagram pane takes three quarters of the height and 1.5 times the normal median text`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const lab = new LabPage(page);
    await lab.open('?scenario=B&transport=stdio');
    await lab.waitForRun('B', 'stdio');
    await expect.poll(() => medianTextPx(page)).toBeGreaterThan(0);
    const normal = await medianTextPx(page);
    await page.goto('/?scenario=B&transport=stdio&instructor=presentation');
    await lab.waitForRun('B', 'stdio');
    await expect(page.locator('html')).toHaveAttribute('data-presentation', 'on');
    const region = await page.locator('.lab-flow .react-flow').boundingBox();
    expect((region?.height ?? 0) / size.height, "the diagram pane's share of the height").toBeGreaterThanOrEqual(0.75);
    await expect
      .poll(async () => (await medianTextPx(page)) / normal, "the median text against the normal view's")
      .toBeGreaterThanOrEqual(1.499);
    expect(await lanesOutside(page)).toEqual([]);
    // The overview and the view tools, wherever they stand, are whole in the viewport and cover none of the facts.
    const facts = await page.locator('.lab-facts-cell').boundingBox();
    for (const part of [
      page.getByRole('slider', { name: 'Run overview' }),
      page.getByRole('toolbar', { name: 'Diagram view' }),
    ]) {
      const box = await part.boundingBox();
      expect(box).not.toBeNull();
      if (box === null || facts === null) return;
      expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height).toBe(
        true,
      );
      expect(box.y + box.height <= facts.y + 0.5 || box.y >= facts.y + facts.height - 0.5).toBe(true);
    }
  });
}

/** Plays the run at `speed` from step 0 and samples the pane's pan every animation frame until the end. */
async function panPerFrame(
  page: Page,
  lab: LabPage,
): Promise<{ biggest: number; travelled: number; frames: number; paneHeight: number }> {
  await lab.speed.selectOption('32');
  await page.locator('#lab-replay').focus();
  const sampling = page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const viewport = document.querySelector('.lab-flow .react-flow__viewport') as Element;
        const main = document.querySelector('main') as Element;
        const ys: number[] = [];
        let still = 0;
        const frame = () => {
          ys.push(new DOMMatrixReadOnly(getComputedStyle(viewport).transform).f);
          const ended = main.getAttribute('data-step') === main.getAttribute('data-events');
          still = ended ? still + 1 : 0;
          if (still > 30 || ys.length > 3000) resolve(ys);
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
  await lab.play.click();
  const ys = await sampling;
  let biggest = 0;
  let travelled = 0;
  for (let i = 1; i < ys.length; i++) {
    const move = Math.abs((ys[i] as number) - (ys[i - 1] as number));
    biggest = Math.max(biggest, move);
    travelled += move;
  }
  return { biggest, travelled, frames: ys.length, paneHeight: (await view(page)).height };
}

test('playing at 32 steps/s pans smoothly: no frame moves the view a third of the pane', async ({ page }) => {
  test.slow();
  const lab = new LabPage(page);
  // Zoomed in, C is taller than the pane: following it pans.
  await lab.open('?scenario=C&transport=http&step=0');
  await lab.waitForRun('C', 'http');
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await page.waitForTimeout(400);
  const zoomed = await panPerFrame(page, lab);
  console.log(`32 steps/s, zoomed in: ${JSON.stringify(zoomed)}`);
  expect(zoomed.travelled, 'the view followed the run').toBeGreaterThan(zoomed.paneHeight / 3);
  expect(zoomed.biggest).toBeLessThanOrEqual(zoomed.paneHeight / 3);

  // Presenting: the same.
  await page.goto('/?scenario=C&transport=http&step=0&instructor=presentation');
  await lab.waitForRun('C', 'http');
  await page.waitForTimeout(400);
  const presenting = await panPerFrame(page, lab);
  console.log(`32 steps/s, presenting: ${JSON.stringify(presenting)}`);
  expect(presenting.travelled, 'the view followed the run').toBeGreaterThan(0);
  expect(presenting.biggest).toBeLessThanOrEqual(presenting.paneHeight / 3);
});

test('the pane never moves when the step sentence wraps, in the normal view and presenting', async ({ page }) => {
  test.slow();
  const lab = new LabPage(page);
  for (const query of [
    '?scenario=B&transport=stdio&step=0',
    '?scenario=C&transport=http&step=0&instructor=presentation',
  ]) {
    await page.goto(`/${query}`);
    await lab.waitForRun(query.includes('=B') ? 'B' : 'C', query.includes('stdio') ? 'stdio' : 'http');
    const total = await lab.eventCount();
    const tops = new Set<number>();
    const lines = new Set<number>();
    for (let step = 1; step <= total; step++) {
      await page.keyboard.press('ArrowRight');
      await lab.waitForStep(step);
      const box = await page.locator('.lab-flow').boundingBox();
      tops.add(Math.round(box?.y ?? 0));
      // The lines the sentence's text takes, whether or not all of them show.
      lines.add(
        await lab.announcer.evaluate((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        }),
      );
    }
    // The sentence took one line and two (it wraps), and the pane stayed where it was.
    expect([...lines].length, `${query}: the sentence wraps at some step`).toBeGreaterThan(1);
    expect([...tops], query).toHaveLength(1);
  }
});

test('presenting, a step sentence longer than its two lines is whole in its tooltip', async ({ page }) => {
  const lab = new LabPage(page);
  // A ledger race's SQL step: the statement, its arguments and its answer run past two lines at Presentation's size.
  await page.goto('/?scenario=ledger-race-keyed&transport=http&step=11&instructor=presentation');
  await lab.waitForRun('ledger-race-keyed', 'http');
  await lab.waitForStep(11);
  await expect(lab.announcer).toContainText('INSERT INTO ledger.effects');
  const shown = await lab.announcer.evaluate((element) => ({
    cut: element.scrollHeight > element.clientHeight + 1,
    text: element.textContent,
  }));
  expect(shown.cut, 'the sentence is cut at two lines').toBe(true);
  await expect(lab.announcer).toHaveAttribute('title', shown.text ?? '');
  expect(shown.text).toMatch(/\(the business effect\)$/);
  // The tooltip follows the step.
  await page.keyboard.press('ArrowRight');
  await lab.waitForStep(12);
  await expect(lab.announcer).toHaveAttribute('title', (await lab.announcer.textContent()) ?? '');
  await expect(lab.announcer).not.toHaveAttribute('title', shown.text ?? '');
});

for (const transport of ['stdio', 'http'] as const) {
  test(`presenting at 1280×720, B's views-diverge sentence on ${transport} reads whole in the playbar's two lines`, async ({
    page,
  }) => {
    // The step a room is asked about: cut with an ellipsis, the part that says the client discards the response is lost.
    await page.setViewportSize({ width: 1280, height: 720 });
    const lab = new LabPage(page);
    const step = transport === 'stdio' ? 16 : 18;
    await page.goto(`/?scenario=B&transport=${transport}&step=${step}&instructor=presentation`);
    await lab.waitForRun('B', transport);
    await lab.waitForStep(step);
    await expect(lab.announcer).toContainText('VIEWS DIVERGE');
    const cut = await lab.announcer.evaluate(
      (element) => element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1,
    );
    expect(cut, 'the views-diverge sentence is cut').toBe(false);
    await expect(lab.announcer).toContainText('discards the response');
  });
}
