import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The engine runs in a module Web Worker; `worker.format: 'es'` keeps its imports as ES modules.
export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  build: { target: 'es2022', sourcemap: true },
});
