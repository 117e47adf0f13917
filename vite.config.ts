import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';

// One build for the three parts of the desktop app. The browser host serves the same
// renderer output (out/renderer), so what the end-to-end tests click is what ships.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // zod goes into the bundle: loaded from its package, it is a hundred modules in each thread
      // that uses it (the host's and the service's), every one resolved, read and kept as its own
      // source; bundled, only what the app uses, in one file both threads share
      externalizeDeps: { exclude: ['zod'] },
      // the embedded service's thread is a file of its own, beside index.js (see start-thread.ts),
      // and so is the browser host's entry, which shares its chunks (see build/web-host.ts);
      // so is the setting of libuv's pool, which index.js then imports first, before any other
      // code is run (inlined, it would run after the chunks and packages index.js imports)
      lib: {
        entry: {
          index: resolve('main/electron/main.ts'),
          'service-thread': resolve('main/service/thread/service-thread.ts'),
          'size-thread-pool': resolve('main/service/thread/size-thread-pool.ts'),
          'web-host': resolve('main/web/cli.ts'),
        },
        formats: ['es'],
      },
    },
  },
  preload: {
    // A sandboxed preload cannot load ES modules: emit one CommonJS file.
    build: {
      outDir: 'out/preload',
      lib: { entry: { index: resolve('preload/index.ts') }, formats: ['cjs'] },
      rollupOptions: { output: { entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve('renderer'),
    base: './',
    plugins: [svelte()],
    // the renderer's name for the contract it shares with main (renderer/tsconfig.json says it to TypeScript)
    resolve: { alias: { $contract: resolve('main/contract') } },
    build: {
      outDir: resolve('out/renderer'),
      minify: true,
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
