import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn PTYs, servers and CLI processes; two cores do not like a crowd.
    maxWorkers: 2,
  },
});
