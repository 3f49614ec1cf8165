import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The engine runs in a module Web Worker; `worker.format: 'es'` keeps its imports as ES modules.
// sql.js's WASM file is imported with `?url` in the worker and emitted as a build asset.
export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  // Only the worker imports these; listed so the dev server pre-bundles them up front instead of
  // discovering them on the first ledger run and reloading the page.
  optimizeDeps: { include: ['sql.js', 'idb-keyval'] },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  build: { target: 'es2022', sourcemap: true },
});
