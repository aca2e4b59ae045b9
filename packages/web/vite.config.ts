import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The page is built into dist/web: hashed file names under assets/, no inline script or style
 * (the server's Content-Security-Policy forbids both), nothing loaded from another origin.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src', import.meta.url)),
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
  },
});
