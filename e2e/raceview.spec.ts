// Proves the race view whole on screen: at 1280×720, 1440×900 and 1920×1080 every mark of A to D on both
// transports is in the pane at zoom 1 or more, from the first instant on, with no text under 14 px; at the end of A, B and D on both transports the request's label
// and the terminal event are both inside the pane at zoom 1 with no diagram text under 14 px; and in
// B on stdio no step sentence before the abandon step says "ignored" (nothing before it happens).
// Screenshots are attached as artifacts.
import { expect, test } from '@playwright/test';
import { Diagram } from './pages/Diagram';
import { LabPage, type TransportValue } from './pages/LabPage';

test.use({ viewport: { width: 1280, height: 720 } });

/** What the pane shows at the end: where the request's label and the terminal mark are, and the smallest text drawn in it. */
async function endView(page: import('@playwright/test').Page) {
  return page.locator('.lab-flow').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    const inside = (element: Element | null) => {
      const r = element?.getBoundingClientRect();
      return (
        r !== undefined &&
        r.width > 0 &&
        r.left >= box.left - 1 &&
        r.right <= box.right + 1 &&
        r.top >= box.top - 1 &&
        r.bottom <= box.bottom + 1
      );
    };
    const request =
      [...pane.querySelectorAll('.dg-wire-label')].find((label) => label.textContent?.startsWith('tools/call')) ?? null;
    const terminal = pane.querySelector('[data-event-kind="terminal"]');
    let smallest = Infinity;
    for (const text of pane.querySelectorAll('.dg-marker-text, .dg-wire-label, .dg-time, .dg-lane-header')) {
      const r = text.getBoundingClientRect();
      if (r.bottom < box.top || r.top > box.bottom || r.width === 0) continue;
      const zoom =
        text.closest('.react-flow__viewport') === null
          ? 1
          : new DOMMatrixReadOnly(getComputedStyle(pane.querySelector('.react-flow__viewport') as Element).transform).a;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * zoom);
    }
    return { request: inside(request), terminal: inside(terminal), smallest };
  });
}

test('A, B and D at 1280×720: the request and the terminal event are both in the pane at the end, no text under 14 px', async ({
  page,
}, testInfo) => {
  test.slow();
  const lab = new LabPage(page);
  for (const id of ['A', 'B', 'D']) {
    for (const transport of ['stdio', 'http'] as TransportValue[]) {
      await lab.open(`?scenario=${id}&transport=${transport}`);
      await lab.waitForRun(id, transport);
      await expect
        .poll(async () => (await endView(page)).request && (await endView(page)).terminal, `${id} on ${transport}`)
        .toBe(true);
      expect((await endView(page)).smallest, `${id} on ${transport}`).toBeGreaterThanOrEqual(13.99);
      const file = testInfo.outputPath(`race-${id}-${transport}.png`);
      await page.screenshot({ path: file });
      await testInfo.attach(`race-${id}-${transport}`, { path: file, contentType: 'image/png' });
    }
  }
});

/** Every drawn mark of the diagram against the pane at the end: whether all are inside it, the zoom, the diagram's height and the smallest text. */
async function wholeView(page: import('@playwright/test').Page) {
  return page.locator('.lab-flow').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    const viewport = pane.querySelector('.react-flow__viewport');
    const transform =
      viewport === null ? new DOMMatrixReadOnly() : new DOMMatrixReadOnly(getComputedStyle(viewport).transform);
    const zoom = transform.a;
    // Culled marks are not in the page: the first instant's time label proves the top is drawn too.
    const firstTime = [...pane.querySelectorAll('.dg-time')].find((time) => time.textContent?.trim() === '0 ms');
    const firstBox = firstTime?.getBoundingClientRect();
    const topShown = firstBox !== undefined && firstBox.width > 0 && firstBox.top >= box.top - 1;
    let top = Infinity;
    let bottom = -Infinity;
    let left = Infinity;
    let right = -Infinity;
    const outside: string[] = [];
    for (const mark of pane.querySelectorAll('.dg-marker, .dg-wire-label, .dg-lane-header')) {
      const r = mark.getBoundingClientRect();
      if (r.width === 0) continue;
      top = Math.min(top, r.top);
      bottom = Math.max(bottom, r.bottom);
      left = Math.min(left, r.left);
      right = Math.max(right, r.right);
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
        outside.push(mark.textContent ?? mark.className);
    }
    let smallest = Infinity;
    for (const text of pane.querySelectorAll('.dg-marker-text, .dg-wire-label, .dg-time, .dg-lane-header')) {
      const r = text.getBoundingClientRect();
      if (r.width === 0) continue;
      const scale = text.closest('.react-flow__viewport') === null ? 1 : zoom;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * scale);
    }
    return {
      outside,
      topShown,
      scrolledY: Math.round(transform.f),
      zoom,
      paneW: Math.round(box.width),
      paneH: Math.round(box.height),
      drawnW: Math.round(right - left),
      drawnH: Math.round(bottom - top),
      smallest,
    };
  });
}

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
  [1920, 1080],
] as const) {
  test.describe(`at ${width}×${height}`, () => {
    test.use({ viewport: { width, height } });
    test(`A to D on both transports, seed 1: every mark in the pane at zoom 1, no text under 14 px`, async ({
      page,
    }, testInfo) => {
      test.slow();
      const lab = new LabPage(page);
      await lab.open('?scenario=A&transport=stdio');
      await lab.waitForRun('A', 'stdio');
      for (const id of ['A', 'B', 'C', 'D']) {
        await lab.pickScenario(id);
        for (const transport of ['stdio', 'http'] as TransportValue[]) {
          await lab.pickTransport(transport);
          await lab.waitForRun(id, transport);
          await expect.poll(async () => (await wholeView(page)).outside, `${id} on ${transport}`).toEqual([]);
          const view = await wholeView(page);
          testInfo.annotations.push({
            type: 'measured',
            description: `${width}x${height} ${id} ${transport}: ${JSON.stringify(view)}`,
          });
          console.log(`${width}x${height} ${id} ${transport}: ${JSON.stringify(view)}`);
          expect(view.topShown, `${id} on ${transport}: the first instant is in the pane`).toBe(true);
          expect(view.scrolledY, `${id} on ${transport}: not scrolled`).toBeGreaterThanOrEqual(-1);
          expect(view.zoom, `${id} on ${transport}`).toBeGreaterThanOrEqual(0.999);
          expect(view.smallest, `${id} on ${transport}`).toBeGreaterThanOrEqual(13.99);
          if (width === 1280) {
            const file = testInfo.outputPath(`whole-${id}-${transport}.png`);
            await page.screenshot({ path: file });
            await testInfo.attach(`whole-${id}-${transport}`, { path: file, contentType: 'image/png' });
          }
        }
      }
    });
  });
}

test('Fit View at 1280×720 never draws text under 12 px: A fits whole, herd (too long to fit legibly) as much as the pane holds around the current event', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const lab = new LabPage(page);
  const diagram = new Diagram(page);
  await lab.open('?scenario=A&transport=stdio');
  await lab.waitForRun('A', 'stdio');
  await diagram.fitView.click();
  await expect.poll(async () => (await wholeView(page)).zoom).toBeLessThan(1);
  const a = await wholeView(page);
  expect(a.outside).toEqual([]);
  expect(a.smallest).toBeGreaterThanOrEqual(11.99);
  await lab.pickScenario('herd');
  await lab.waitForRun('herd', 'http');
  await diagram.fitView.click();
  // The legible floor: 12 px for the 14 px chips, times and labels.
  await expect.poll(async () => (await wholeView(page)).zoom).toBeCloseTo(12 / 14, 3);
  const herd = await wholeView(page);
  console.log(`Fit View: A ${JSON.stringify(a)}; herd ${JSON.stringify(herd)}`);
  expect(herd.smallest).toBeGreaterThanOrEqual(11.99);
  // The current event's line (the view is at the end) is in the pane.
  const visible = await page.locator('.lab-flow').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    const now = pane.querySelector('.dg-now');
    const r = now?.getBoundingClientRect();
    return r === undefined ? null : r.top >= box.top && r.bottom <= box.bottom;
  });
  expect(visible).toBe(true);
  const file = testInfo.outputPath('fit-view-herd.png');
  await page.screenshot({ path: file });
  await testInfo.attach('fit-view-herd', { path: file, contentType: 'image/png' });
});

test('B on stdio: no step sentence before the abandon step says "ignored"', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=B&transport=stdio&step=0');
  await lab.waitForRun('B', 'stdio');
  const total = await lab.eventCount();
  let abandoned = false;
  for (let step = 1; step <= total && !abandoned; step++) {
    await lab.stepForward.click();
    await lab.waitForStep(step);
    const sentence = (await lab.announcer.textContent()) ?? '';
    abandoned = sentence.includes('abandoned');
    if (!abandoned) expect(sentence, `step ${step}`).not.toContain('ignored');
  }
  expect(abandoned).toBe(true);
});
