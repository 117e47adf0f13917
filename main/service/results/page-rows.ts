import type { SqlParams } from '../storage/duckdb.ts';

/** The rows of a page, as a SELECT of (at least) the columns shown and the names its order uses. */
export interface PageRows {
  sql: string;
  params: SqlParams;
  /** The page's order. */
  orderBy: string;
  /** Whether the rows come in that order as they are read: a range of rowids of a table written in order. */
  inOrder: boolean;
  /** The most rows the page may hold. */
  limit: number;
}

/** Rows `from` to `to` of a table written in order, by rowid (see `PageWriter.range`). */
export function rowidRange(table: string, row: string, from: number, to: number): PageRows {
  return {
    sql: `SELECT *, rowid AS ${row} FROM ${table} WHERE rowid >= ${from} AND rowid < ${to}`,
    params: [],
    orderBy: row,
    inOrder: true,
    limit: to - from,
  };
}
