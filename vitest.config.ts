import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

// Unit and integration tests run in Node against real parts (HTTP servers on loopback,
// DuckDB files in temporary folders). Browser flows live in test/e2e and run under Playwright.
export default defineConfig({
  // Compiles the renderer's state classes (.svelte.ts), so their logic is tested without a browser.
  plugins: [svelte({ configFile: false, compilerOptions: { runes: true } })],
  // renderer modules name the contract `$contract/…`, as in vite.config.ts
  resolve: { alias: { $contract: resolve(import.meta.dirname, 'main/contract') } },
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single one on the 2-core build
    // machines, where most tests wait on servers, DuckDB and the disk, and two overlap well
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Processed by vitest rather than loaded as is, so a test's vi.mock('electron') reaches its import.
    server: { deps: { inline: ['electron-store'] } },
  },
});
