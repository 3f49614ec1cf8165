import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { DEV_SECURITY_HEADERS, SECURITY_HEADERS } from './scripts/securityPolicy.ts';
import {
  fakeTimersWithoutUtil,
  pinUplotLocale,
  requirementsPage,
  securityMeta,
  serviceWorker,
} from './scripts/vite-plugins.ts';

// The engine runs in a module Web Worker; `worker.format: 'es'` keeps its imports as ES modules.
// sql.js's WASM file is imported with `?url` in the worker and emitted as a build asset.
// The build gets the Content-Security-Policy as a meta tag and a service worker that precaches it;
// `vite preview` sends the policy as headers. No source maps unless asked for (`npm run build -- --sourcemap`).
export default defineConfig({
  plugins: [react(), pinUplotLocale(), requirementsPage(), securityMeta(), serviceWorker()],
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
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
