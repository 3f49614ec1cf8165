// Predict as a lesson: every race scenario stops where both contenders are on screen, gives nothing
// away there (menu, description, step sentence, facts, timeline, diagram), and the reveal jumps to the
// deciding event with the facts filled in; the round over A–D keeps a score the instructor resets;
// in Presentation the card stands beside the diagram, never over it.
import { expect, test, type Page } from '@playwright/test';
import { loadSqlJs } from '../src/cli/sqlite';
import { fillRaceText, locateRace, type RaceLocation, type RaceQuestion } from '../src/engine';
import { findScenario, runScenarioById } from '../src/scenarios/index';
import { LabPage } from './pages/LabPage';

test.use({ viewport: { width: 1280, height: 720 } });

/**
 * Each race scenario with the words that would tell who wins before the reveal: its usual title's
 * give-aways, the deciding events' wording, and what the facts would say.
 */
const RACES: Array<{ id: string; transport: 'stdio' | 'http'; giveAway: string[] }> = [
  {
    id: 'A',
    transport: 'stdio',
    giveAway: ['suppressed', 'cancel-accepted', 'TERMINAL', 'accepts the cancellation', 'no response'],
  },
  {
    id: 'A',
    transport: 'http',
    giveAway: ['suppressed', 'cancel-accepted', 'TERMINAL', 'accepts the cancellation', 'no response'],
  },
  { id: 'B', transport: 'stdio', giveAway: ['arrives late', 'ignored', 'ignores it', 'diverge', 'discard'] },
  { id: 'B', transport: 'http', giveAway: ['arrives late', 'ignored', 'ignores it', 'diverge', 'discard'] },
  {
    id: 'C',
    transport: 'stdio',
    giveAway: ['then the maximum deadline', 'fired', 'TERMINAL', 'timeout-max', 'maximum timeout of'],
  },
  {
    id: 'C',
    transport: 'http',
    giveAway: ['then the maximum deadline', 'fired', 'TERMINAL', 'timeout-max', 'maximum timeout of'],
  },
  {
    id: 'D',
    transport: 'http',
    giveAway: [
      'Streamable HTTP: closing the stream is the cancellation',
      'cancel-accepted',
      'TERMINAL',
      'stopped',
      'observed the cancellation',
    ],
  },
  {
    id: 'D',
    transport: 'stdio',
    giveAway: [
      'Streamable HTTP: closing the stream is the cancellation',
      'cancel-accepted',
      'TERMINAL',
      'stopped',
      'observed the cancellation',
    ],
  },
  // The two earlier cancellations (malformed, unknown request) are ignored before the race: only #41's fate is the answer.
  {
    id: 'cancel-ignored',
    transport: 'stdio',
    giveAway: ['must ignore', 'cancellation of #41', 'ignored by server: the request already completed'],
  },
  // On Streamable HTTP the late cancellation is the close of #41's stream (no notification): its fate is the answer.
  {
    id: 'cancel-ignored',
    transport: 'http',
    giveAway: ['must ignore', 'ignored by server: the request already completed'],
  },
  {
    id: 'ledger-race-keyed',
    transport: 'http',
    giveAway: ['one execution', 'replayed', 'stored result', 'SQLITE_BUSY'],
  },
  { id: 'ledger-race-unsafe', transport: 'http', giveAway: ['charges twice', 'CONSTRAINT', 'check-then-act'] },
];

const sql = await loadSqlJs();
function race(id: string, transport: 'stdio' | 'http') {
  const transcript = runScenarioById(id, {
    transport,
    ledger: findScenario(id).kind === 'ledger' ? { sql } : undefined,
  });
  const location = locateRace(findScenario(id).race as RaceQuestion, transcript.events) as RaceLocation;
  expect(location).not.toBeNull();
  return { transcript, location };
}

/** Everything on the page that could tell the ending: the menu's race scenarios, the description, the sentence, the facts, the timeline, the diagram. */
async function shownText(page: Page): Promise<string> {
  const raceOptions = RACES.map(({ id }) => `option[value="${id}"]`).join(', ');
  const parts = await Promise.all([
    page.getByRole('combobox', { name: 'Scenario' }).locator(raceOptions).allTextContents(),
    page.locator('.lab-scenario').allTextContents(),
    page.locator('.lab-now[aria-live]').allTextContents(),
    page.locator('.lab-facts-cell').allTextContents(),
    page.getByRole('list', { name: 'Timeline' }).allTextContents(),
    page.locator('.lab-flow').allInnerTexts(),
    // What the diagram and the timeline say on hover and to assistive technology.
    page
      .locator(
        '.lab-flow [title], .lab-flow [aria-label], .lab-timeline-section [title], .lab-timeline-section [aria-label]',
      )
      .evaluateAll((marks) =>
        marks.map((mark) => `${mark.getAttribute('title') ?? ''} ${mark.getAttribute('aria-label') ?? ''}`),
      ),
  ]);
  return parts.flat().join('\n');
}

for (const { id, transport, giveAway } of RACES) {
  test(`${id} on ${transport}: Predict stops with both contenders shown, gives nothing away, and reveals at the deciding event`, async ({
    page,
  }) => {
    const { transcript, location } = race(id, transport);
    const lab = new LabPage(page);
    await lab.open(`?scenario=${id}&transport=${transport}&step=${location.point}&instructor=predict`);
    await lab.waitForRun(id, transport);
    await lab.waitForStep(location.point);
    const card = page.locator('[data-predict="asking"]');
    await expect(card).toBeVisible();
    // Both contenders are on screen: their events are rows of the timeline; the deciding one is not.
    await expect(lab.timeline.getByRole('listitem')).toHaveCount(location.point);
    for (const index of location.contenderIndexes) expect(index).toBeLessThan(location.point);
    expect(location.decidingIndex).toBeGreaterThanOrEqual(location.point);
    // The question names both contenders, offers 2–4 answers.
    const answers = card.getByRole('radio');
    expect(await answers.count()).toBeGreaterThanOrEqual(2);
    expect(await answers.count()).toBeLessThanOrEqual(4);
    const question = findScenario(id).race as RaceQuestion;
    for (const contender of question.contenders) await expect(card).toContainText(contender.label);
    // No spoiler anywhere, and the description waits for the reveal.
    const shown = await shownText(page);
    for (const word of giveAway) expect(shown, `"${word}" gives ${id} away at the race point`).not.toContain(word);
    // (The side column that holds it is out of sight while the question is asked.)
    await expect(page.locator('.lab-scenario[data-hidden-by="predict"]')).toHaveCount(1);
    await expect(page.locator('.lab-side')).toBeHidden();
    await expect(page.getByRole('combobox', { name: 'Scenario' }).locator('option:checked')).toHaveText(
      question.neutralTitle,
    );

    // A guess (the first answer), then → jumps to the deciding event.
    await page.keyboard.press('1');
    await expect(answers.first()).toBeChecked();
    await page.keyboard.press('ArrowRight');
    await lab.waitForStep(location.decidingIndex + 1);
    const revealed = page.locator('[data-predict="revealed"]');
    await expect(revealed).toBeVisible();
    const right = question.answers[0]?.value === location.answer;
    await expect(revealed).toHaveAttribute('data-verdict', right ? 'right' : 'wrong');
    const winner = question.answers.find((answer) => answer.value === location.answer);
    await expect(page.getByTestId('predict-winner')).toHaveText(
      fillRaceText(winner?.label ?? '', transcript.settings as Record<string, unknown>),
    );
    // The deciding event is highlighted where the timeline lists it, and picked for the inspector and the diagram.
    await expect(lab.timeline.locator('[data-race="deciding"]')).toHaveCount(1);
    await expect(lab.timeline.getByRole('listitem').nth(location.decidingIndex)).toHaveAttribute(
      'data-race',
      'deciding',
    );
    // The facts are filled in at that same moment.
    if (transcript.kind === 'request-race') {
      const outcome = transcript.outcome as { terminalState: string };
      const facts = await lab.readFacts();
      if (id === 'B' || id === 'cancel-ignored') expect(facts.clientIgnores).toContain('response #41');
      else expect(facts.terminalState).toBe(outcome.terminalState);
    }
    // The description is back.
    await expect(page.locator('.lab-scenario[data-hidden-by="predict"]')).toHaveCount(0);
    // The answer stays in its column: the column scrolls inside and never spills over the timeline docked below.
    const overflowing = await page
      .locator('.lab-side')
      .evaluate((column) => column.scrollHeight > column.clientHeight + 1);
    expect(overflowing, 'the side column holds its content (it scrolls inside, never spills over the dock)').toBe(
      false,
    );
  });
}

test('Play stops at the race point; the round over A–D keeps a score the instructor resets', async ({ page }) => {
  test.setTimeout(90_000);
  const lab = new LabPage(page);
  const a = race('A', 'stdio');
  await lab.open('?scenario=A&transport=stdio&step=0&instructor=predict');
  await lab.waitForRun('A', 'stdio');
  await expect(page.locator('[data-predict="waiting"]')).toBeVisible();
  await page.locator('body').focus();
  await page.keyboard.press('Space');
  await expect(page.locator('[data-predict="asking"]')).toBeVisible({ timeout: 20_000 });
  await lab.waitForStep(a.location.point);
  await page.waitForTimeout(600);
  await lab.waitForStep(a.location.point);
  // A mouse guess hands the keys back: → reveals.
  await page.getByRole('radio', { name: /^1 Cancelled/ }).check();
  await page.keyboard.press('ArrowRight');
  await lab.waitForStep(a.location.decidingIndex + 1);
  const score = page.getByTestId('predict-score');
  await expect(score).toContainText('1 of 1');

  const b = race('B', 'stdio');
  await lab.pickScenario('B');
  await lab.waitForRun('B', 'stdio');
  await page.locator('body').focus();
  await page.keyboard.press('Home');
  await lab.waitForStep(0);
  await page.keyboard.press('Space');
  await expect(page.locator('[data-predict="asking"]')).toBeVisible({ timeout: 20_000 });
  await lab.waitForStep(b.location.point);
  await page.keyboard.press('1'); // "Uses it": wrong in B
  await page.keyboard.press('ArrowRight');
  await lab.waitForStep(b.location.decidingIndex + 1);
  await expect(page.locator('[data-predict="revealed"]')).toHaveAttribute('data-verdict', 'wrong');
  await expect(score).toContainText('1 of 2');
  await expect(score).toContainText('2 of 4 answered');
  await score.getByRole('button', { name: 'Reset score' }).click();
  await expect(score).toContainText('no answers yet');
});

test('in Presentation the question and then the answer stand under the diagram, never over it, every answer in view', async ({
  page,
}) => {
  const lab = new LabPage(page);
  const { location } = race('A', 'stdio');
  await lab.open(`?scenario=A&transport=stdio&step=${location.point}&instructor=predict`);
  await lab.waitForRun('A', 'stdio');
  await page.locator('body').focus();
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-presentation', 'on');
  for (const phase of ['asking', 'revealed'] as const) {
    const card = page.locator(`[data-predict="${phase}"]`);
    await expect(card).toBeVisible();
    const box = await card.boundingBox();
    const flow = await page.locator('.lab-flow').boundingBox();
    expect(box).not.toBeNull();
    expect(flow).not.toBeNull();
    if (box === null || flow === null) return;
    const apart =
      box.x >= flow.x + flow.width - 1 ||
      box.x + box.width <= flow.x + 1 ||
      box.y >= flow.y + flow.height - 1 ||
      box.y + box.height <= flow.y + 1;
    expect(apart, `the ${phase} card does not cover the diagram`).toBe(true);
    if (phase === 'asking') {
      // The question's row under the diagram holds every answer and Reveal in view at the larger type too.
      expect(
        await clippedParts(page, '[data-predict="asking"] .predict-choice, [data-predict="asking"] .predict-reveal'),
      ).toEqual([]);
      await page.keyboard.press('1');
      await page.keyboard.press('ArrowRight');
      await lab.waitForStep(location.decidingIndex + 1);
    }
  }
});

test('a first visit says what is about to race (from the scenario settings) and what to press; Run, Play and Step forward say what they do', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.waitForRun('A', 'stdio');
  const card = page.getByTestId('intro-card');
  const settings = findScenario('A').settings as { workMs: number; cancelAtMs: number };
  await expect(card).toContainText(`${settings.workMs} ms`);
  await expect(card).toContainText(`cancels at ${settings.cancelAtMs} ms`);
  for (const name of ['Step forward', 'Play', 'Predict']) await expect(card).toContainText(name);
  await card.getByRole('button', { name: 'Start from step 0' }).click();
  await lab.waitForStep(0);
  await expect(card).toHaveCount(0);
  // A link is not a first visit.
  await lab.open('?scenario=A&step=3');
  await lab.waitForRun('A', 'stdio');
  await expect(page.getByTestId('intro-card')).toHaveCount(0);
  // Each says what it does, on hover (title) and to assistive technology (its accessible description).
  for (const button of [lab.runButton, lab.play, lab.stepForward]) {
    await expect(button).toHaveAttribute('title', /.{20,}/);
    await expect(button).toHaveAccessibleDescription(/.{20,}/);
  }
});

test('the focus ring has at least 3:1 contrast against the page around it', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?scenario=A&step=3');
  await lab.waitForRun('A', 'stdio');
  await lab.scenario.focus();
  await page.keyboard.press('Tab');
  const colours = await page.evaluate(() => {
    const focused = document.activeElement as HTMLElement;
    const style = getComputedStyle(focused);
    // What surrounds the ring: the nearest ancestor's opaque background (the canvas is white).
    let around = 'rgb(255, 255, 255)';
    for (let node = focused.parentElement; node !== null; node = node.parentElement) {
      const background = getComputedStyle(node).backgroundColor;
      if (background !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(background)) {
        around = background;
        break;
      }
    }
    return { ring: style.outlineColor, width: style.outlineWidth, page: around };
  });
  expect(parseFloat(colours.width)).toBeGreaterThanOrEqual(2);
  const luminance = (css: string) => {
    const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? [])
      .slice(0, 3)
      .map(Number)
      .map((v) => v / 255)
      .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [hi, lo] = [luminance(colours.ring), luminance(colours.page)].sort((a, b) => b - a);
  const ratio = ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
  expect(ratio, `ring ${colours.ring} on ${colours.page}`).toBeGreaterThanOrEqual(3);
});

/**
 * Whether each element lies whole inside the viewport and inside every ancestor that clips it (a box
 * that scrolls or hides its overflow): a projector audience sees it without anyone scrolling.
 */
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
          problems.push(
            `"${name}" is cut by ${parent.className || parent.tagName} (${Math.round(box.top)}–${Math.round(box.bottom)} inside ${Math.round(clip.top)}–${Math.round(clip.bottom)})`,
          );
      }
    }
    return problems;
  });
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });
    // A (two answers), C and the ignored cancellations (three each, C's the longest question).
    for (const id of ['A', 'C', 'cancel-ignored']) {
      test(`${id}: every answer and Reveal are in view without scrolling while asking, and the diagram keeps most of the height`, async ({
        page,
      }) => {
        const { location } = race(id, 'stdio');
        const lab = new LabPage(page);
        await lab.open(`?scenario=${id}&transport=stdio&step=${location.point}&instructor=predict`);
        await lab.waitForRun(id, 'stdio');
        await lab.waitForStep(location.point);
        const card = page.locator('[data-predict="asking"]');
        await expect(card).toBeVisible();
        const answers = card.getByRole('radio');
        expect(await answers.count()).toBe((findScenario(id).race as RaceQuestion).answers.length);
        // The choices as the room sees them (the label around each radio), and Reveal.
        expect(
          await clippedParts(
            page,
            '[data-predict="asking"] .predict-choice, [data-predict="asking"] .predict-reveal, .lab-diagram .dg-legend',
          ),
        ).toEqual([]);
        // The page itself does not scroll either.
        expect(
          await page.evaluate(
            () =>
              document.documentElement.scrollHeight <= window.innerHeight && document.documentElement.scrollTop === 0,
          ),
        ).toBe(true);
        // The diagram stays usable above the question: its pane keeps well over a third of the window's height (its legend in view, above), the card apart from it.
        const flow = await page.locator('.lab-flow').boundingBox();
        const box = await card.boundingBox();
        expect(flow).not.toBeNull();
        expect(box).not.toBeNull();
        if (flow === null || box === null) return;
        expect(flow.height, 'the diagram pane keeps its height').toBeGreaterThanOrEqual(viewport.height * 0.4);
        const apart = box.y >= flow.y + flow.height - 1 || box.x >= flow.x + flow.width - 1;
        expect(apart, 'the card does not cover the diagram').toBe(true);
        // Each answer is a click away: a click picks it.
        await answers.last().click();
        await expect(answers.last()).toBeChecked();
      });
    }

    test('C: while asking, the Timeline fills the side column (no blank band above it) and keeps the current row in view', async ({
      page,
    }) => {
      const { location } = race('C', 'stdio');
      const lab = new LabPage(page);
      await lab.open(`?scenario=C&transport=stdio&step=${location.point}&instructor=predict`);
      await lab.waitForRun('C', 'stdio');
      await lab.waitForStep(location.point);
      await expect(page.locator('[data-predict="asking"]')).toBeVisible();
      const diagram = await page.locator('section.lab-diagram').boundingBox();
      const list = await page.locator('.lab-dock .lab-timeline-scroll').boundingBox();
      expect(diagram).not.toBeNull();
      expect(list).not.toBeNull();
      if (diagram === null || list === null) return;
      // The column beside the diagram starts where the diagram does: the list under only the dock's handle and heading.
      expect(list.y - diagram.y, 'the list starts near the top of the column').toBeLessThan(60);
      // ... and runs down beside the whole diagram.
      expect(
        diagram.y + diagram.height - (list.y + list.height),
        'the list ends near the foot of the column',
      ).toBeLessThan(30);
      // The current row is whole in the list's view.
      await expect
        .poll(() =>
          page.locator('.lab-dock .lab-timeline-scroll').evaluate((scroll) => {
            const box = scroll.getBoundingClientRect();
            const row = scroll.querySelector('.lab-event.is-current')?.getBoundingClientRect();
            return row !== undefined && row.top >= box.top - 1 && row.bottom <= box.bottom + 1;
          }),
        )
        .toBe(true);
    });
  });
}

test.describe('before a guess, no way forward passes the race point', () => {
  // A on stdio: the race point is step 14 of 20, the deciding event the 17th.
  const a = () => race('A', 'stdio');

  /** Opens A at `step` with Predict on and returns where its race stops. */
  async function openA(page: Page, step: number): Promise<{ lab: LabPage; point: number; total: number }> {
    const { transcript, location } = a();
    const lab = new LabPage(page);
    await lab.open(`?scenario=A&transport=stdio&step=${step}&instructor=predict`);
    await lab.waitForRun('A', 'stdio');
    await lab.waitForStep(step);
    return { lab, point: location.point, total: transcript.events.length };
  }

  /** The replay stands at the race point asking, the answer not on screen, and stays there. */
  async function expectHeld(page: Page, lab: LabPage, point: number): Promise<void> {
    await expect(lab.main).toHaveAttribute('data-step', String(point));
    await expect(page.locator('[data-predict="asking"]')).toBeVisible();
    await expect(page.locator('[data-predict="revealed"]')).toHaveCount(0);
    await page.waitForTimeout(400);
    await expect(lab.main).toHaveAttribute('data-step', String(point));
  }

  test('Step forward and → at the race point stay there and ask for the guess', async ({ page }) => {
    const { lab, point } = await openA(page, 0);
    await page.locator('body').focus();
    for (let i = 0; i < point; i += 1) await page.keyboard.press('ArrowRight');
    await lab.waitForStep(point);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('predict-nudge')).toBeVisible();
    await expectHeld(page, lab, point);
    await lab.stepForward.click();
    await expectHeld(page, lab, point);
  });

  test('End, from before the race point and at it, stops at the race point', async ({ page }) => {
    const { lab, point } = await openA(page, 0);
    await page.locator('body').focus();
    await page.keyboard.press('End');
    await expectHeld(page, lab, point);
    await expect(page.getByTestId('predict-nudge')).toBeVisible();
    await page.keyboard.press('End');
    await expectHeld(page, lab, point);
  });

  test('Play at the fastest speed stops at the race point, and Play there does not go on', async ({ page }) => {
    const { lab, point } = await openA(page, 0);
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('32');
    await lab.play.click();
    await expect(page.locator('[data-predict="asking"]')).toBeVisible({ timeout: 10_000 });
    await expectHeld(page, lab, point);
    await expect(lab.play).toHaveText(/Play/);
    await lab.play.click();
    await expectHeld(page, lab, point);
  });

  test('the Virtual time slider, dragged past the race point, stops at it', async ({ page }) => {
    const { lab, point, total } = await openA(page, 0);
    const { transcript } = a();
    const slider = page.getByRole('slider', { name: 'Virtual time' });
    await slider.fill(String(transcript.events[total - 1]?.atMs ?? 0));
    await expectHeld(page, lab, point);
    await expect(page.getByTestId('predict-nudge')).toBeVisible();
    // At the race point, too.
    await slider.fill(String(transcript.events[total - 1]?.atMs ?? 0));
    await expectHeld(page, lab, point);
  });

  test('a click on a Timeline row or on the Run overview strip moves no step', async ({ page }) => {
    const { lab, point } = await openA(page, a().location.point);
    await lab.timeline.getByRole('listitem').first().getByRole('button').click();
    await expectHeld(page, lab, point);
    const strip = page
      .getByRole('slider', { name: 'Run overview' })
      .or(page.locator('[aria-label="Run overview"]'))
      .first();
    const box = await strip.boundingBox();
    expect(box).not.toBeNull();
    if (box === null) return;
    await page.mouse.click(box.x + box.width - 3, box.y + box.height / 2);
    await expectHeld(page, lab, point);
    // The keys still step from here: → asks for the guess, a guess and → reveal.
    await page.keyboard.press('ArrowRight');
    await expectHeld(page, lab, point);
    await page.keyboard.press('1');
    await page.keyboard.press('ArrowRight');
    await lab.waitForStep(a().location.decidingIndex + 1);
    await expect(page.locator('[data-predict="revealed"]')).toBeVisible();
  });

  test('after a guess, End and the slider go where they are sent', async ({ page }) => {
    const { lab, total } = await openA(page, a().location.point);
    await expect(page.locator('[data-predict="asking"]')).toBeVisible();
    await page.locator('body').focus();
    await page.keyboard.press('1');
    await expect(page.locator('[data-predict="asking"]').getByRole('radio').first()).toBeChecked();
    await page.keyboard.press('Home');
    await lab.waitForStep(0);
    await page.keyboard.press('End');
    await lab.waitForStep(total);
    await page.keyboard.press('Home');
    await lab.waitForStep(0);
    // The slider, moved to the last time after the guess, is no longer held at the race point.
    await page.getByRole('slider', { name: 'Virtual time' }).fill(String(a().transcript.events[total - 1]?.atMs ?? 0));
    await lab.waitForStep(total);
  });
});
