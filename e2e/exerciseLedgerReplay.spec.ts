// Proves the ledger exercise's failing ordering is drawn with the student's code: its replay opens the
// two server replicas from the student's module as the Check did (it used to end with LAB050 "this check
// cannot open another copy of the component" and no diagram), and the run is named in words where its
// ordering is the first one, not by the bare schedule "-".
import { expect, test } from '@playwright/test';
import { ExercisesPage } from './pages/ExercisesPage';
import { LabPage } from './pages/LabPage';

test('the ledger starter’s broken statement opens its failing ordering as a diagram, named as the first ordering', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await new LabPage(page).open();
  const exercises = new ExercisesPage(page);
  await exercises.open('ledger');
  await exercises.runCheck();
  await expect(exercises.verdict).toHaveAttribute('data-passed', 'false');
  const section = page.locator('.exercise-failing[data-statement="one-execution-per-key"]');
  await expect(section).toBeVisible();
  await expect(exercises.failingFlow('one-execution-per-key')).toBeVisible();
  await expect(section).not.toContainText('LAB050');
  await expect(section.locator('.exercise-run-info')).toContainText('the first ordering');
  await expect(section.locator('.exercise-run-info')).not.toContainText(/ordering -(\s|$)/);
});
