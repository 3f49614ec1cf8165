// Proves the built lab installable: the page links a web app manifest (name, short name, start URL,
// standalone display, theme and background colours, 192 and 512 px icons, one maskable) and a favicon;
// fetched through the page, each icon decodes at the size the manifest says; Chromium reports no
// installability error; and the service worker precaches them all, so offline a reload still has them.
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './pages/LabPage';

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
}

/** The manifest the page links, fetched by the page (through its service worker, once one controls it). */
async function linkedManifest(page: Page): Promise<{ href: string; manifest: Manifest }> {
  return page.evaluate(async () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    if (link === null) throw new Error('no <link rel="manifest">');
    const response = await fetch(link.href);
    return { href: new URL(link.href).pathname, manifest: (await response.json()) as Manifest };
  });
}

/** An image's natural size as the page decodes it ('failed' when it does not load). */
function decodedSize(page: Page, src: string): Promise<string> {
  return page.evaluate(
    (url) =>
      new Promise<string>((resolve) => {
        const image = new Image();
        image.onload = () => resolve(`${image.naturalWidth}x${image.naturalHeight}`);
        image.onerror = () => resolve('failed');
        image.src = url;
      }),
    src,
  );
}

async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null)).toBe('activated');
}

test('the page links a manifest with the fields an install needs, its icons load at their sizes, and Chromium finds it installable', async ({
  page,
}) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) refused.push(message.text());
  });
  const lab = new LabPage(page);
  await lab.open();
  await lab.waitForRun('A', 'stdio');

  const { href, manifest } = await linkedManifest(page);
  expect(href).toBe('/manifest.webmanifest');
  expect(manifest).toMatchObject({
    name: 'MCP Reliability Lab',
    short_name: 'MCP Lab',
    start_url: '/',
    display: 'standalone',
    theme_color: '#111827',
    background_color: '#ffffff',
  });
  const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
  expect(pngs.map((icon) => icon.sizes).sort()).toEqual(['192x192', '512x512', '512x512']);
  expect(manifest.icons.filter((icon) => icon.purpose === 'maskable').map((icon) => icon.sizes)).toEqual(['512x512']);
  for (const icon of pngs) expect(await decodedSize(page, icon.src), icon.src).toBe(icon.sizes);
  // The SVG icon (the tab's favicon too) decodes; the ICO is 32 px.
  const favicons = await page
    .locator('link[rel="icon"]')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
  expect(favicons).toEqual(['/favicon.svg', '/favicon.ico']);
  expect(await decodedSize(page, '/favicon.svg')).not.toBe('failed');
  expect(await decodedSize(page, '/favicon.ico')).toBe('32x32');
  expect(await decodedSize(page, (await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')) ?? '')).toBe(
    '180x180',
  );

  // Chromium's own verdict (what makes it offer "Install"): no errors.
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: Array<{ errorId: string }>;
  };
  expect(installabilityErrors.map((error) => error.errorId)).toEqual([]);
  const { url, errors } = (await cdp.send('Page.getAppManifest')) as {
    url: string;
    errors: Array<{ message: string }>;
  };
  expect(new URL(url).pathname).toBe('/manifest.webmanifest');
  expect(errors).toEqual([]);
  expect(refused).toEqual([]);
});

test('the service worker precaches the manifest, the icons and the favicon: offline, a reload still has them', async ({
  page,
  context,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.waitForRun('A', 'stdio');
  await waitForServiceWorker(page);
  const { manifest } = await linkedManifest(page);
  const files = [
    '/manifest.webmanifest',
    '/favicon.svg',
    '/favicon.ico',
    '/apple-touch-icon.png',
    ...manifest.icons.map((icon) => icon.src),
  ];
  const cached = await page.evaluate(
    async (paths) =>
      Promise.all(paths.map(async (path) => ((await caches.match(path)) === undefined ? `${path} not cached` : path))),
    files,
  );
  expect(cached).toEqual(files);

  await context.setOffline(true);
  const fromWorker: string[] = [];
  page.on('response', (response) => {
    if (response.fromServiceWorker()) fromWorker.push(new URL(response.url()).pathname);
  });
  await page.reload();
  await expect(lab.heading).toBeVisible();
  const offline = await linkedManifest(page);
  expect(offline.manifest).toEqual(manifest);
  for (const icon of manifest.icons.filter((one) => one.type === 'image/png'))
    expect(await decodedSize(page, icon.src), `${icon.src} offline`).toBe(icon.sizes);
  expect(await decodedSize(page, '/favicon.svg')).not.toBe('failed');
  expect(fromWorker).toContain('/manifest.webmanifest');
  await context.setOffline(false);
});
