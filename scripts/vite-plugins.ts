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
