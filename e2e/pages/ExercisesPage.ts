import { expect, type Locator, type Page } from '@playwright/test';
import { Panels } from './Panels';

// Page object for the Exercises tab, by accessible names: the picker, the editor ("Your code"), the
// buttons, the statements table and the failing ordering's diagram.

/** How long a Check may take on a loaded two-core machine (it explores every ordering of every run). */
export const CHECK_MS = 150_000;

export class ExercisesPage {
  readonly picker: Locator;
  readonly editor: Locator;
  readonly check: Locator;
  readonly download: Locator;
  readonly upload: Locator;
  readonly uploadInput: Locator;
  readonly reset: Locator;
  readonly undoReset: Locator;
  readonly statements: Locator;
  readonly verdict: Locator;
  readonly codeError: Locator;
  readonly progress: Locator;
  readonly calls: Locator;

  constructor(readonly page: Page) {
    this.picker = page.getByRole('combobox', { name: 'Exercise' });
    this.editor = page.getByRole('textbox', { name: 'Your code' });
    this.check = page.getByRole('button', { name: 'Check', exact: true });
    this.download = page.getByRole('button', { name: 'Download', exact: true });
    this.upload = page.getByRole('button', { name: 'Upload', exact: true });
    this.uploadInput = page.getByTestId('exercise-upload');
    this.reset = page.getByRole('button', { name: 'Reset to starter' });
    this.undoReset = page.getByRole('button', { name: 'Undo reset' });
    this.statements = page.getByRole('table', { name: 'Statements the lab checks' });
    this.verdict = page.locator('.exercise-verdict');
    this.codeError = page.locator('.exercise-code-error');
    this.progress = page.getByRole('progressbar', { name: 'Check progress' });
    this.calls = page.getByRole('table', { name: /^Calls into your code/ });
  }

  /** Opens the tab on one exercise (the buffer unless named), picking it when the tab opened on another. */
  async open(exercise = 'buffer'): Promise<void> {
    await new Panels(this.page).openTab('Exercises');
    await expect(this.editor).toBeVisible({ timeout: 30_000 });
    if ((await this.picker.inputValue()) !== exercise) await this.picker.selectOption(exercise);
    await expect(this.picker).toHaveValue(exercise);
  }

  statement(id: string): Locator {
    return this.statements.locator(`tr[data-statement="${id}"]`);
  }

  showFailing(id: string): Locator {
    return this.page.getByRole('button', { name: `Show the failing ordering of ${id}` });
  }

  /** The diagram of an opened failing ordering (its pane carries the step it shows). */
  failingFlow(id: string): Locator {
    return this.page.getByRole('region', { name: `With your code: ${id} broken` }).locator('.lab-flow');
  }

  /**
   * The student's code as the page keeps it in IndexedDB (the editor reports every change there; its
   * DOM holds only the lines in view, so it cannot be read whole from the page).
   */
  async code(exercise = 'buffer'): Promise<string | null> {
    return this.page.evaluate(
      (key) =>
        new Promise<string | null>((resolve, reject) => {
          const open = indexedDB.open('mcp-reliability-lab-exercises');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('code')) return resolve(null);
            const read = db.transaction('code', 'readonly').objectStore('code').get(key);
            read.onerror = () => reject(read.error);
            read.onsuccess = () => {
              db.close();
              resolve(typeof read.result === 'string' ? read.result : null);
            };
          };
        }),
      `code:${exercise}`,
    );
  }

  /** Replaces the editor's text from the keyboard: select all, then the text as typed input. */
  async replaceCode(text: string): Promise<void> {
    await this.editor.click();
    await this.page.keyboard.press('ControlOrMeta+a');
    await this.page.keyboard.press('Delete');
    await this.page.keyboard.insertText(text);
    // The exercise on screen, not the buffer's: the code is kept per exercise.
    const exercise = await this.picker.inputValue();
    await expect.poll(() => this.code(exercise)).toBe(text);
  }

  /** Checks and waits for the report (the verdict line, or a code error). */
  async runCheck(): Promise<void> {
    const panel = this.page.locator('.exercise-panel');
    const before = Number(await panel.getAttribute('data-checks'));
    await this.check.click();
    await expect(panel).toHaveAttribute('data-checks', String(before + 1), { timeout: CHECK_MS });
  }
}
