import { defineConfig } from 'vitest/config';

// Unit and property tests run the engine under Node; the browser is covered by Playwright (e2e/).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
