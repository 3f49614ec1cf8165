// The two build steps of the lab's own: the security policy as a meta tag in the built index.html,
// and the service worker with the list of every built file to precache.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { META_CONTENT_SECURITY_POLICY } from './securityPolicy.ts';

/**
 * Puts the Content-Security-Policy (and the referrer policy) first in the built page's <head>, before
 * any script or stylesheet it must govern. Build only: the dev server runs Vite's inline preamble and
 * injected styles, and gets a relaxed policy as a header instead (see securityPolicy.ts).
 */
export function securityMeta(): Plugin {
  return {
    name: 'lab:security-meta',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
      { tag: 'meta', attrs: { name: 'referrer', content: 'no-referrer' }, injectTo: 'head-prepend' },
    ],
  };
}

export const SERVICE_WORKER_FILE = 'sw.js';
const TEMPLATE = new URL('../src/sw/sw.template.js', import.meta.url);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/**
 * After the build is written, lists every file in the output folder (source maps aside, if asked for)
 * and writes sw.js from src/sw/sw.template.js with that list and a version: the hash of all their
 * bytes, so any change to any file is a new service worker and a new cache.
 */
export function serviceWorker(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'lab:service-worker',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      handler() {
        const outDir = config.build.outDir;
        const files = filesUnder(outDir)
          .map((path) => relative(outDir, path).split(sep).join('/'))
          .filter((path) => path !== SERVICE_WORKER_FILE && !path.endsWith('.map'))
          .sort();
        if (!files.includes('index.html')) throw new Error(`lab:service-worker: no index.html in ${outDir}`);
        const hash = createHash('sha256');
        for (const file of files) hash.update(file).update('\0').update(readFileSync(join(outDir, file))).update('\0');
        const version = hash.digest('hex').slice(0, 16);
        const source = readFileSync(TEMPLATE, 'utf8')
          .replace("'__LAB_VERSION__'", JSON.stringify(version))
          .replace('[/* __LAB_PRECACHE__ */]', JSON.stringify(files, null, 2));
        if (source.includes('__LAB_')) throw new Error('lab:service-worker: a placeholder in sw.template.js was not filled');
        writeFileSync(join(outDir, SERVICE_WORKER_FILE), source);
        config.logger.info(`lab:service-worker: ${SERVICE_WORKER_FILE} precaches ${files.length} files, version ${version}`);
      },
    },
  };
}

/** What uPlot 1.6 evaluates when its module loads: a number format in the browser's own locale. */
const UPLOT_LOCALE_PROBE = 'new Intl.NumberFormat(domEnv ? nav.language : \'en-US\')';

/**
 * Pins uPlot's module-level number format to the locale every other number on the page uses
 * (en-US, as src/ui/format.ts). uPlot builds `new Intl.NumberFormat(navigator.language)` as its module
 * loads, and a browser whose language is not a valid tag (Chromium under LANG=C reports
 * `en-US@posix`) makes that throw, so every chart tab failed to load. The lab's charts format their
 * own axes; the page does not follow the browser's locale anywhere. A uPlot that no longer holds the
 * expression fails the build here, so an upgrade is looked at rather than silently unpinned.
 */
export function pinUplotLocale(): Plugin {
  return {
    name: 'lab:pin-uplot-locale',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]uplot[\\/]dist[\\/]uPlot\.esm\.js$/.test(id.split('?')[0] ?? '')) return null;
      if (!code.includes(UPLOT_LOCALE_PROBE)) this.error(`uPlot (${id}) no longer builds its number format as "${UPLOT_LOCALE_PROBE}": check what locale it reads now and update lab:pin-uplot-locale`);
      return { code: code.replace(UPLOT_LOCALE_PROBE, "new Intl.NumberFormat('en-US')"), map: null };
    },
  };
}
