import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// The engine and rulesets are bundled from their TypeScript sources (the `@roundkeeper/source` condition),
// so the web build needs no prior build of the other packages.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { conditions: ['@roundkeeper/source', ...defaultClientConditions] },
  // The manifest tells which chunks each page loads (the server and the size test read it).
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1000, manifest: true },
});
