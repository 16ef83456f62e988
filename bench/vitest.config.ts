import { defineConfig } from 'vitest/config';

// Benchmarks print figures; they are not timed tests and never run in `npm test`.
export default defineConfig({
  test: {
    include: ['bench/**/*.bench.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
    reporters: ['verbose'],
  },
});
