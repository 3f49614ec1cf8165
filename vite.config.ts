import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { DEV_SECURITY_HEADERS, SECURITY_HEADERS } from './scripts/securityPolicy.ts';
import { pinUplotLocale, requirementsPage, securityMeta, serviceWorker } from './scripts/vite-plugins.ts';

// The engine runs in a module Web Worker; `worker.format: 'es'` keeps its imports as ES modules.
// sql.js's WASM file is imported with `?url` in the worker and emitted as a build asset.
// The build gets the Content-Security-Policy as a meta tag and a service worker that precaches it;
// `vite preview` sends the policy as headers. No source maps unless asked for (`npm run build -- --sourcemap`).
export default defineConfig({
  plugins: [react(), pinUplotLocale(), requirementsPage(), securityMeta(), serviceWorker()],
  worker: { format: 'es' },
  // Only the worker imports these; listed so the dev server pre-bundles them up front instead of
  // discovering them on the first ledger run and reloading the page.
  // uPlot is left out of pre-bundling so lab:pin-uplot-locale transforms it in dev as in the build.
  optimizeDeps: { include: ['sql.js', 'idb-keyval'], exclude: ['uplot'] },
  server: { host: '127.0.0.1', port: 5173, strictPort: false, headers: DEV_SECURITY_HEADERS },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: SECURITY_HEADERS },
  // No preload hints for lazy chunks: with them, Rolldown moves React and Vite's preload helper out of
  // the entry into shared chunks, about 4 kB gzip more on the first load (the budget is at most 150 kB). A
  // tab opened later fetches its chunk's imports one after another instead (from the cache, or the
  // service worker's precache).
  build: { target: 'es2022', sourcemap: false, modulePreload: false },
});
