// Proves the race view at 1280×720: at the end of A, B and D on both transports the request's label
// and the terminal event are both inside the pane at zoom 1 with no diagram text under 14 px; and in
// B on stdio no step sentence before the abandon step says "ignored" (nothing before it happens).
// Screenshots are attached as artifacts.
import { expect, test } from '@playwright/test';
import { LabPage, type TransportValue } from './pages/LabPage';

test.use({ viewport: { width: 1280, height: 720 } });

/** What the pane shows at the end: where the request's label and the terminal mark are, and the smallest text drawn in it. */
async function endView(page: import('@playwright/test').Page) {
  return page.locator('.lab-flow').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    const inside = (element: Element | null) => {
      const r = element?.getBoundingClientRect();
      return r !== undefined && r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    };
    const request = [...pane.querySelectorAll('.dg-wire-label')].find((label) => label.textContent?.startsWith('tools/call')) ?? null;
    const terminal = pane.querySelector('[data-event-kind="terminal"]');
    let smallest = Infinity;
    for (const text of pane.querySelectorAll('.dg-marker-text, .dg-wire-label, .dg-time, .dg-lane-header')) {
      const r = text.getBoundingClientRect();
      if (r.bottom < box.top || r.top > box.bottom || r.width === 0) continue;
      const zoom = text.closest('.react-flow__viewport') === null ? 1 : new DOMMatrixReadOnly(getComputedStyle(pane.querySelector('.react-flow__viewport') as Element).transform).a;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * zoom);
    }
    return { request: inside(request), terminal: inside(terminal), smallest };
  });
}

test('A, B and D at 1280×720: the request and the terminal event are both in the pane at the end, no text under 14 px', async ({ page }, testInfo) => {
  test.slow();
  const lab = new LabPage(page);
  for (const id of ['A', 'B', 'D']) {
    for (const transport of ['stdio', 'http'] as TransportValue[]) {
      await lab.open(`?scenario=${id}&transport=${transport}`);
      await lab.waitForRun(id, transport);
      await expect.poll(async () => (await endView(page)).request && (await endView(page)).terminal, `${id} on ${transport}`).toBe(true);
      expect((await endView(page)).smallest, `${id} on ${transport}`).toBeGreaterThanOrEqual(13.99);
      const file = testInfo.outputPath(`race-${id}-${transport}.png`);
      await page.screenshot({ path: file });
      await testInfo.attach(`race-${id}-${transport}`, { path: file, contentType: 'image/png' });
    }
  }
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
