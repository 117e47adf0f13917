import { createRequire } from 'node:module';

/** DuckDB's Node API, required, not imported (eslint.config.ts says why); its types are imported as types. */
export const duckdb = createRequire(import.meta.url)('@duckdb/node-api') as typeof import('@duckdb/node-api');
