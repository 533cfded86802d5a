import { fileURLToPath } from 'node:url';
import type { Alias } from 'vite';

/**
 * The app's runtime is Preact through its compat layer (docs/web.md, "Runtime"): the sources import React's
 * names and are typed by React's types, and the build resolves every React module to Preact's. Each is
 * matched whole (`react`, never `react-dom` nor `react-foo` by its prefix). `react` itself is compat with
 * React's `useDeferredValue` (src/runtime/react.ts). `qrcode.react` imports `react` too and gets the same.
 */
export const preactAlias: Alias[] = [
  { find: /^react$/, replacement: fileURLToPath(new URL('../src/runtime/react.ts', import.meta.url)) },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  // What React Compiler's output imports, should the build ever compile components (src/compiler.test.ts).
  { find: /^react\/compiler-runtime$/, replacement: 'preact/compat/compiler-runtime' },
];
