import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { DEV_SECURITY_HEADERS, SECURITY_HEADERS } from './scripts/securityPolicy.ts';
import {
  fakeTimersWithoutUtil,
  pinUplotLocale,
  requirementsPage,
  securityMeta,
  serviceWorker,
} from './scripts/vite-plugins.ts';

/** The built page's second entry: it starts the engine worker (src/worker/labWorker.ts). */
const LAB_WORKER_ENTRY = 'labWorker';

/**
 * Loads the engine worker's start as a script of its own beside the page's entry: the browser fetches
 * both at once and runs this one as soon as it arrives, so the worker loads while the page's modules
 * are still being fetched. The page's entry imports the same module (the same file, so the same module
 * instance), whose worker its lab client then takes. Only in the build: the dev server starts the
 * worker with the first request, as before.
 */
function earlyLabWorker(): Plugin {
  let base = '/';
  return {
    name: 'lab:early-lab-worker',
    apply: 'build',
    configResolved(resolved) {
      base = resolved.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const chunk = Object.values(bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.name === LAB_WORKER_ENTRY,
        );
        if (chunk === undefined) throw new Error(`lab:early-lab-worker: no ${LAB_WORKER_ENTRY} entry in the build`);
        return [
          {
            tag: 'script',
            // async: run as soon as it arrives, not after the page's entry (deferred scripts run in order);
            // after the Content-Security-Policy meta tag, which covers only what follows it.
            attrs: { type: 'module', async: true, crossorigin: true, src: `${base}${chunk.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

// The engine runs in a module Web Worker; `worker.format: 'es'` keeps its imports as ES modules.
// sql.js's WASM file is imported with `?url` in the worker and emitted as a build asset.
// The build gets the Content-Security-Policy as a meta tag and a service worker that precaches it;
// `vite preview` sends the policy as headers. No source maps unless asked for (`npm run build -- --sourcemap`).
export default defineConfig({
  plugins: [react(), pinUplotLocale(), requirementsPage(), securityMeta(), serviceWorker(), earlyLabWorker()],
  worker: { format: 'es', plugins: () => [fakeTimersWithoutUtil()] },
  // Only the Web Workers import these, and Vite's dependency scan does not follow a worker: listed so the
  // dev server pre-bundles them up front instead of discovering them on first use (a ledger run, an
  // evidence zip, an SDK lane, an exercise check) and reloading the page under the user.
  // uPlot is left out of pre-bundling so lab:pin-uplot-locale transforms it in dev as in the build.
  optimizeDeps: {
    include: [
      'sql.js',
      'idb-keyval',
      'fflate',
      '@sinonjs/fake-timers',
      'zod/v4/core',
      '@modelcontextprotocol/sdk/client/index.js',
      '@modelcontextprotocol/sdk/client/streamableHttp.js',
      '@modelcontextprotocol/sdk/inMemory.js',
      '@modelcontextprotocol/sdk/server/index.js',
      '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js',
      '@modelcontextprotocol/sdk/types.js',
      '@modelcontextprotocol/client',
      '@modelcontextprotocol/server',
      '@modelcontextprotocol/server/stdio',
      '@modelcontextprotocol/ext-tasks/client',
      '@modelcontextprotocol/ext-tasks/core',
      '@modelcontextprotocol/ext-tasks/core/v2',
      '@jitl/quickjs-wasmfile-release-sync',
      'quickjs-emscripten-core',
    ],
    exclude: ['uplot'],
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: false, headers: DEV_SECURITY_HEADERS },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: SECURITY_HEADERS },
  // No preload hints for lazy chunks: with them, Rolldown moves React and Vite's preload helper out of
  // the entry into shared chunks, about 4 kB gzip more on the first load (the budget is at most 150 kB). A
  // tab opened later fetches its chunk's imports one after another instead (from the cache, or the
  // service worker's precache).
  // No [PLUGIN_TIMINGS] note: it reports that plugin callbacks took most of the build, which here is the
  // two Web Workers' own builds running inside vite:worker-import-meta-url (about 86% of every build).
  build: {
    target: 'es2022',
    sourcemap: false,
    modulePreload: false,
    rolldownOptions: {
      checks: { bundlerTimings: false },
      // The engine worker's start is an entry of its own, loaded beside the page's (earlyLabWorker above).
      input: { index: 'index.html', [LAB_WORKER_ENTRY]: 'src/worker/labWorker.ts' },
    },
  },
});
