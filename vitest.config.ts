import { defineConfig } from 'vitest/config';
import { preactAlias } from './packages/web/scripts/preact-alias.js';

export default defineConfig({
  // The web app's components run on Preact in the tests too, as they do in the build (docs/web.md).
  resolve: { conditions: ['@roundkeeper/source'], alias: preactAlias },
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
