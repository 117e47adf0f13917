import { createRequire } from 'node:module';

/**
 * DuckDB's Node API, loaded at the first call: the hosts answer their first screen before core
 * needs DuckDB. Required, not imported (eslint.config.ts says why); its types are imported as types.
 */
export function duckdbModule(): typeof import('@duckdb/node-api') {
  return createRequire(import.meta.url)('@duckdb/node-api') as typeof import('@duckdb/node-api');
}
