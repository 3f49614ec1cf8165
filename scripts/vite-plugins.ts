// The two build steps of the lab's own: the security policy as a meta tag in the built index.html,
// and the service worker with the list of every built file to precache.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { META_CONTENT_SECURITY_POLICY } from './securityPolicy.ts';
import { renderDocsPage } from './docsPage.ts';

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
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
      { tag: 'meta', attrs: { name: 'referrer', content: 'no-referrer' }, injectTo: 'head-prepend' },
    ],
  };
}

export const SERVICE_WORKER_FILE = 'sw.js';
const TEMPLATE = new URL('../src/sw/sw.template.js', import.meta.url);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
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
        for (const file of files)
          hash
            .update(file)
            .update('\0')
            .update(readFileSync(join(outDir, file)))
            .update('\0');
        const version = hash.digest('hex').slice(0, 16);
        const source = readFileSync(TEMPLATE, 'utf8')
          .replace("'__LAB_VERSION__'", JSON.stringify(version))
          .replace('[/* __LAB_PRECACHE__ */]', JSON.stringify(files, null, 2));
        if (source.includes('__LAB_'))
          throw new Error('lab:service-worker: a placeholder in sw.template.js was not filled');
        writeFileSync(join(outDir, SERVICE_WORKER_FILE), source);
        config.logger.info(
          `lab:service-worker: ${SERVICE_WORKER_FILE} precaches ${files.length} files, version ${version}`,
        );
      },
    },
  };
}

/** What uPlot 1.6 evaluates when its module loads: a number format in the browser's own locale. */
const UPLOT_LOCALE_PROBE = "new Intl.NumberFormat(domEnv ? nav.language : 'en-US')";

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
      if (!code.includes(UPLOT_LOCALE_PROBE))
        this.error(
          `uPlot (${id}) no longer builds its number format as "${UPLOT_LOCALE_PROBE}": check what locale it reads now and update lab:pin-uplot-locale`,
        );
      return { code: code.replace(UPLOT_LOCALE_PROBE, "new Intl.NumberFormat('en-US')"), map: null };
    },
  };
}

/** The requirement catalogue, served beside the lab so the Verification tab can link each id offline. */
export const REQUIREMENTS_PAGE = 'requirements.html';
const REQUIREMENTS_SOURCE = new URL('../docs/requirements.md', import.meta.url);
const DOCS_STYLESHEET = 'docs-page.css';
const DOCS_CSS = `body{font:16px/1.5 system-ui,sans-serif;color:#1b1f24;background:#fff;margin:0}
main{max-width:52rem;margin:0 auto;padding:1rem 1.5rem 4rem}
h2{margin-top:2.5rem;border-bottom:1px solid #d0d7de}h3{margin:1.75rem 0 .25rem}
h3:target{background:#fff3c4}code{font:.9em ui-monospace,monospace;background:#f3f4f6;padding:0 .2em}
pre{background:#f3f4f6;padding:.75rem;overflow:auto}table{border-collapse:collapse;font-size:.9em}
td,th{border:1px solid #d0d7de;padding:.3rem .5rem;vertical-align:top;text-align:left}
`;

function requirementsHtml(): string {
  const page = renderDocsPage(readFileSync(REQUIREMENTS_SOURCE, 'utf8'), 'requirements.md', DOCS_STYLESHEET);
  const policy = `<meta http-equiv="Content-Security-Policy" content="${META_CONTENT_SECURITY_POLICY}">\n<meta name="referrer" content="no-referrer">`;
  return page.replace('<head>\n', `<head>\n${policy}\n`);
}

/**
 * Renders docs/requirements.md as requirements.html (and its stylesheet) beside the built page, and
 * serves the same from the dev server, so an id on the Verification tab opens its definition.
 */
export function requirementsPage(): Plugin {
  return {
    name: 'lab:requirements-page',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = (request.url ?? '').split(/[?#]/)[0];
        if (path !== `/${REQUIREMENTS_PAGE}` && path !== `/${DOCS_STYLESHEET}`) return next();
        const html = path === `/${REQUIREMENTS_PAGE}`;
        response.setHeader('Content-Type', html ? 'text/html; charset=utf-8' : 'text/css; charset=utf-8');
        response.end(html ? requirementsHtml() : DOCS_CSS);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: REQUIREMENTS_PAGE, source: requirementsHtml() });
      this.emitFile({ type: 'asset', fileName: DOCS_STYLESHEET, source: DOCS_CSS });
    },
  };
}

/**
 * `@sinonjs/fake-timers`, the SDK lanes' virtual clock in the Web Workers, calls `require("util")` only
 * when `globalThis.process` exists, that is under Node: in the browser it never reads it. Vite replaces
 * a Node built-in with an empty module in a browser build anyway, saying so for each worker that bundles
 * it ("Module "util" has been externalized for browser compatibility"). This resolves that one import to
 * an empty module itself, so the build prints nothing a reader must be told to ignore; `util` imported
 * from anywhere else still gets Vite's warning.
 */
export function fakeTimersWithoutUtil(): Plugin {
  const EMPTY = '\0lab:fake-timers-util';
  return {
    name: 'lab:fake-timers-util',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === 'util' && importer !== undefined && /[\\/]@sinonjs[\\/]fake-timers[\\/]/.test(importer)
        ? EMPTY
        : null;
    },
    load(id) {
      return id === EMPTY ? 'export default {};' : null;
    },
  };
}
