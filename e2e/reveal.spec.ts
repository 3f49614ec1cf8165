// The classroom's moment: at the deciding event of a Predict round the answer, whether the guess was
// right, why, and the round's score stand under the diagram, whole in view without scrolling at
// 1280×720 and 1440×900, normal and presenting, while the diagram keeps the deciding event in view;
// the step after answering is the deciding event in every race scenario (ledger-race-unsafe
// included: the duplicate at 9 ms, not the second INSERT at 7 ms); the round's score outlives the
// Scenario menu and a reload, and Reset score clears it.
import { expect, test, type Page } from '@playwright/test';
import { loadSqlJs } from '../src/cli/sqlite';
import { fillRaceText, locateRace, type RaceLocation, type RaceQuestion } from '../src/engine';
import { findScenario, runScenarioById } from '../src/scenarios/index';
import { formatMs } from '../src/ui/format';
import { LabPage } from './pages/LabPage';

const sql = await loadSqlJs();
function race(id: string, transport: 'stdio' | 'http') {
  const transcript = runScenarioById(id, {
    transport,
    ledger: findScenario(id).kind === 'ledger' ? { sql } : undefined,
  });
  const question = findScenario(id).race as RaceQuestion;
  const location = locateRace(question, transcript.events) as RaceLocation;
  expect(location).not.toBeNull();
  return { transcript, location, question };
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;

/** Each element whole inside the viewport and inside every ancestor that clips it: read without scrolling. */
async function clippedParts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements) => {
    const problems: string[] = [];
    for (const element of elements) {
      const box = element.getBoundingClientRect();
      const name = (element.textContent ?? '').trim().slice(0, 40);
      if (box.width === 0 || box.height === 0) problems.push(`"${name}" has no size`);
      if (box.top < 0 || box.left < 0 || box.bottom > window.innerHeight + 0.5 || box.right > window.innerWidth + 0.5)
        problems.push(
          `"${name}" leaves the viewport (${Math.round(box.top)}–${Math.round(box.bottom)} of ${window.innerHeight})`,
        );
      for (
        let parent = element.parentElement;
        parent !== null && parent !== document.body;
        parent = parent.parentElement
      ) {
        const style = getComputedStyle(parent);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = parent.getBoundingClientRect();
        if (
          box.top < clip.top - 0.5 ||
          box.bottom > clip.bottom + 0.5 ||
          box.left < clip.left - 0.5 ||
          box.right > clip.right + 0.5
        )
          problems.push(`"${name}" is cut by ${parent.className || parent.tagName}`);
      }
    }
    return problems;
  });
}

const STAGE: Array<{ id: string; transport: 'stdio' | 'http' }> = [
  { id: 'A', transport: 'stdio' },
  { id: 'B', transport: 'stdio' },
  { id: 'C', transport: 'http' },
  { id: 'D', transport: 'http' },
  { id: 'cancel-ignored', transport: 'stdio' },
  { id: 'ledger-race-unsafe', transport: 'http' },
];

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  for (const presenting of [false, true]) {
    test(`${viewport.width}×${viewport.height}${presenting ? ', presenting' : ''}: the reveal's answer, verdict, why and score are in view beside the deciding event`, async ({
      page,
    }) => {
      test.slow();
      await page.setViewportSize(viewport);
      const lab = new LabPage(page);
      for (const [n, { id, transport }] of STAGE.entries()) {
        const { transcript, location, question } = race(id, transport);
        await page.goto(`/?scenario=${id}&transport=${transport}&step=${location.point}&instructor=predict`);
        await lab.waitForRun(id, transport);
        await lab.waitForStep(location.point);
        await expect(page.locator('[data-predict="asking"]')).toBeVisible();
        await page.locator('body').focus();
        if (presenting) {
          await page.keyboard.press('p');
          await expect(page.locator('html')).toHaveAttribute('data-presentation', 'on');
        }
        // Alternate right and wrong guesses: the first answer, or the last.
        const pick = n % 2 === 0 ? 1 : question.answers.length;
        await page.keyboard.press(String(pick));
        await expect(
          page
            .locator('[data-predict="asking"]')
            .getByRole('radio')
            .nth(pick - 1),
        ).toBeChecked();
        await page.keyboard.press('ArrowRight');
        await lab.waitForStep(location.decidingIndex + 1);
        const card = page.locator('[data-predict="revealed"]');
        await expect(card).toBeVisible();
        const right = question.answers[pick - 1]?.value === location.answer;
        await expect(page.getByTestId('predict-verdict')).toHaveText(right ? /^Right\b/ : /^Not quite\b/);
        const winner = question.answers.find((answer) => answer.value === location.answer);
        const settings = transcript.settings as Record<string, unknown>;
        await expect(page.getByTestId('predict-winner')).toHaveText(fillRaceText(winner?.label ?? '', settings));
        await expect(page.getByTestId('predict-why')).toHaveText(`Why: ${fillRaceText(winner?.why ?? '', settings)}`);
        await expect(page.getByTestId('predict-score')).toContainText(/no answers yet|\d of \d right/);
        // Whole in view, nothing to scroll: the answer, the verdict, the why, the score and its reset.
        const parts = [
          '[data-testid="predict-winner"]',
          '[data-testid="predict-verdict"]',
          '[data-testid="predict-why"]',
          '[data-testid="predict-score"] .predict-tally',
          '.predict-reset',
        ];
        expect(await clippedParts(page, parts.join(', ')), `${id}`).toEqual([]);
        expect(
          await page.evaluate(
            () =>
              document.documentElement.scrollHeight <= window.innerHeight && document.documentElement.scrollTop === 0,
          ),
        ).toBe(true);
        // The card stands apart from the diagram's pane, and the deciding event (the current one) is inside the pane.
        const cardBox = await card.boundingBox();
        const pane = await page.locator('.lab-flow').boundingBox();
        const current = await page.locator('.lab-flow [aria-current]').first().boundingBox();
        expect(cardBox !== null && pane !== null && current !== null).toBe(true);
        if (cardBox === null || pane === null || current === null) return;
        expect(overlaps(cardBox, pane), `${id}: the card does not cover the diagram`).toBe(false);
        await expect
          .poll(async () => {
            const now = await page.locator('.lab-flow [aria-current]').first().boundingBox();
            return (
              now !== null &&
              now.y >= pane.y &&
              now.y + now.height <= pane.y + pane.height &&
              now.x + now.width > pane.x &&
              now.x < pane.x + pane.width
            );
          }, `${id}: the deciding event is in the diagram's pane`)
          .toBe(true);
        // The pane keeps a useful height beside the card.
        expect(pane.height, `${id}: the diagram's pane height`).toBeGreaterThanOrEqual(viewport.height * 0.35);
        await page.screenshot({ path: test.info().outputPath(`reveal-${id}.png`) });
      }
    });
  }
}

/** Every Predict scenario, both transports. */
const ALL = ['A', 'B', 'C', 'D', 'cancel-ignored', 'ledger-race-keyed', 'ledger-race-unsafe'].flatMap((id) =>
  (['stdio', 'http'] as const).map((transport) => ({ id, transport })),
);

test('after the guess, Step forward lands on the deciding event in every Predict scenario (ledger-race-unsafe at the duplicate, 9 ms)', async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 720 });
  const lab = new LabPage(page);
  for (const { id, transport } of ALL) {
    const { transcript, location } = race(id, transport);
    await page.goto(`/?scenario=${id}&transport=${transport}&step=${location.point}&instructor=predict`);
    await lab.waitForRun(id, transport);
    await lab.waitForStep(location.point);
    await expect(page.locator('[data-predict="asking"]')).toBeVisible();
    await page.locator('body').focus();
    await page.keyboard.press('1');
    await expect(page.locator('[data-predict="asking"]').getByRole('radio').first()).toBeChecked();
    await lab.stepForward.click();
    await lab.waitForStep(location.decidingIndex + 1);
    const deciding = transcript.events[location.decidingIndex];
    await expect(lab.announcer).toContainText(
      `Step ${location.decidingIndex + 1} of ${transcript.events.length}, ${formatMs(deciding?.atMs ?? -1)}:`,
    );
    const row = lab.timeline.getByRole('listitem').nth(location.decidingIndex);
    await expect(row).toHaveAttribute('data-race', 'deciding');
    await expect(row).toHaveClass(/is-current/);
    if (id === 'ledger-race-unsafe') {
      // The verdict is where the ledger says the second charge is a duplicate, not at the second INSERT.
      expect(deciding?.atMs).toBe(9);
      await expect(lab.announcer).toContainText('a duplicate');
      await expect(lab.announcer).not.toContainText('INSERT INTO ledger.effects');
    }
  }
});

test('the round over A–D keeps its score through the Scenario menu and a reload; Reset score clears it', async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 720 });
  const lab = new LabPage(page);
  await lab.open('?scenario=A&transport=stdio&step=0&instructor=predict');
  await lab.waitForRun('A', 'stdio');
  const score = page.getByTestId('predict-score');
  // Guesses: A right, B wrong, C right, D right.
  const plan = [
    { id: 'A', right: true },
    { id: 'B', right: false },
    { id: 'C', right: true },
    { id: 'D', right: true },
  ];
  let rights = 0;
  for (const [n, { id, right }] of plan.entries()) {
    const transport = findScenario(id).defaultTransport ?? 'stdio';
    const { location, question } = race(id, transport);
    if (n > 0) await lab.pickScenario(id);
    await lab.waitForRun(id, transport);
    await page.locator('body').focus();
    await page.keyboard.press('Home');
    await lab.waitForStep(0);
    await page.keyboard.press('End');
    await lab.waitForStep(location.point);
    const index = question.answers.findIndex((answer) => (answer.value === location.answer) === right);
    await page.keyboard.press(String(index + 1));
    await expect(page.locator('[data-predict="asking"]').getByRole('radio').nth(index)).toBeChecked();
    await page.keyboard.press('ArrowRight');
    await lab.waitForStep(location.decidingIndex + 1);
    rights += right ? 1 : 0;
    await expect(page.locator('[data-predict="revealed"]')).toHaveAttribute('data-verdict', right ? 'right' : 'wrong');
    await expect(score).toContainText(`${rights} of ${n + 1} right`);
    expect(await clippedParts(page, '[data-testid="predict-score"] .predict-tally')).toEqual([]);
  }
  await expect(score).toContainText('3 of 4 right');
  await expect(score).toContainText('round complete');
  // A reload keeps the round (the page opens the same link, at the reveal of D).
  await page.reload();
  await lab.waitForRun('D', findScenario('D').defaultTransport ?? 'stdio');
  await expect(page.getByTestId('predict-score')).toContainText('3 of 4 right');
  await page.getByRole('button', { name: 'Reset score' }).click();
  await expect(page.getByTestId('predict-score')).toContainText('no answers yet');
  await page.reload();
  await lab.waitForRun('D', findScenario('D').defaultTransport ?? 'stdio');
  await expect(page.getByTestId('predict-score')).toContainText('no answers yet');
});
