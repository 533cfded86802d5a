import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@roundkeeper/source'] },
  ssr: { resolve: { conditions: ['@roundkeeper/source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/web/e2e/**/*.test.ts',
      'bench/**/*.test.ts',
      'examples/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 60_000,
  },
});
