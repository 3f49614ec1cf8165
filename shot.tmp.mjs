import { chromium } from 'playwright-core';
const info = JSON.parse(process.env.LAB_BROWSER_RESOLVED);
const browser = await chromium.launch({ executablePath: info.executablePath, env: { ...process.env, ...info.env } });
const shots = [
  ['/tmp/s-a-end-1280.png', 1280, 720, '?scenario=A'],
  ['/tmp/s-first-1280.png', 1280, 720, ''],
  ['/tmp/s-c-http-1440.png', 1440, 900, '?scenario=C&transport=http'],
  ['/tmp/s-compare-1280.png', 1280, 720, '?tab=compare'],
];
for (const [path, w, h, q] of shots) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto('http://127.0.0.1:4500/' + q);
  await page.waitForTimeout(5000);
  await page.screenshot({ path });
  await page.close();
}
await browser.close();
