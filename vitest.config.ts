import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Five projects, run by `npm test` in this order: unit (+ component), host, stub, contracts,
// e2e.
// Contract tests run one file at a time: they share the pact file they write.
// Timeouts only bound a wait that is failing anyway; they are generous because CI machines are
// shared and a loaded one (both cores busy) can be several times slower than a quiet one.
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'happy-dom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The shop server's own parts that need no build or browser (Node, real HTTP).
          name: 'host',
          environment: 'node',
          include: ['tests/host/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'stub',
          environment: 'node',
          include: ['tests/stub/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'contracts',
          environment: 'node',
          include: ['contracts/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          // A browser under load can take far more than Vitest's 1 s default to show a change;
          // the poll ends as soon as the condition holds.
          expect: { poll: { timeout: 20_000 } },
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
