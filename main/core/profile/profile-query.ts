import type { DuckDBValue } from '@duckdb/node-api';

/** Runs a statement after the `src` table expression (the column's values as `v`), with the filters' parameters. */
export type Query = (sql: string) => Promise<DuckDBValue[][]>;
