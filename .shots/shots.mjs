import { chromium } from 'playwright-core';
const info = JSON.parse(process.env.LAB_BROWSER_RESOLVED);
const base = process.argv[2];
const browser = await chromium.launch({ executablePath: info.executablePath, args: ['--no-sandbox', '--disable-gpu'], env: { ...process.env, ...info.env } });
for (const [w, h] of [[1280, 720], [1440, 900]]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(base + '/');
  await page.waitForSelector('main[data-status="done"]');
  await page.waitForTimeout(500);
  await page.screenshot({ path: `.shots/first-${w}.png` });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForSelector('[data-testid="run-said"]');
  await page.screenshot({ path: `.shots/run-${w}.png` });
  await page.getByRole('tab', { name: 'Buffer', exact: true }).click();
  await page.waitForSelector('main[data-scenario="buffer-overload"][data-status="done"]');
  await page.getByRole('spinbutton', { name: 'Seed' }).focus();
  await page.waitForTimeout(800);
  await page.screenshot({ path: `.shots/buffer-${w}.png` });
  await page.close();
}
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
await page.goto(base + '/?scenario=A&transport=stdio&step=13&instructor=predict');
await page.waitForSelector('main[data-status="done"]');
await page.waitForTimeout(800);
await page.locator('body').focus();
await page.keyboard.press('ArrowRight');
await page.waitForTimeout(300);
await page.screenshot({ path: `.shots/nudge-1280.png` });
await browser.close();
