import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { BoundSql } from '../../filter-language/index.ts';
import type { PageRows } from './page-rows.ts';
import type { PageWriter } from './page-writer.ts';
import type { PageEncoding, Page } from './page.ts';
import type { ResultColumn } from './row-bytes.ts';

// The plain page path, the one to read first: a page of a stored result is one SELECT over its
// table (filter, sample, sort, LIMIT and OFFSET), whose rows DuckDB writes as JSON, CSV or Parquet
// (PageWriter). Every other way a page is read (result-store.ts lists them) only makes some pages
// faster, and gives the same bytes.

/** Clauses compiled by the filter language; every value in them is a bound parameter. */
export interface PageQuery {
  /** Every column of the stored result; `columns` are those the page shows. */
  tableColumns: ResultColumn[];
  columns: ResultColumn[];
  limit: number;
  offset: number;
  where?: BoundSql | null;
  orderBy?: string | null;
  /** Keeps each row with this probability (0 to 100, in percent) before paging. */
  samplePercent?: number | null;
  /** The stored result's rows. */
  storedRows: number;
}

/** Refuses a window that is not made of row counts: they go into the SQL as literals. */
export function assertWindow({ limit, offset }: PageQuery): void {
  for (const value of [limit, offset]) if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a row count: ${value}`);
}

/** A name starting with `base` that no column of the result has, quoted. */
export function unusedName(columns: ResultColumn[], base: string): string {
  const taken = new Set(columns.map((c) => c.name.toLowerCase()));
  let name = base;
  for (let i = 1; taken.has(name); i++) name = `${base}_${i}`;
  return quoteIdentifier(name);
}

/** A name for each row's position that no column of the result has, quoted. */
export function rowPositionName(columns: ResultColumn[]): string {
  return unusedName(columns, '__row');
}

/**
 * The page's rows as one SELECT over `table`, `row` naming each row's position; null when the page
 * is a window of the rows as stored, which is read as a range of rowids (see PageWriter.range).
 */
export function pageRowsSql(table: string, query: PageQuery, row: string): PageRows | null {
  const sample = query.samplePercent != null ? ` USING SAMPLE ${query.samplePercent.toFixed(12)}% (bernoulli)` : '';
  const where = query.where ? ` WHERE ${query.where.sql}` : '';
  if (!query.orderBy && !where && !sample) return null;
  // rowid breaks ties of the sort; without one the rows come in stored order, and LIMIT stops early.
  // LIMIT and OFFSET are literals, not bound: DuckDB plans a top-N sort and skips rows cheaply only for constants.
  const sort = query.orderBy ? ` ORDER BY ${query.orderBy}, rowid` : '';
  return {
    sql: `SELECT *, rowid AS ${row} FROM ${table}${where}${sample}${sort} LIMIT ${query.limit} OFFSET ${query.offset}`,
    params: query.where?.params ?? [],
    orderBy: query.orderBy ? `${query.orderBy}, ${row}` : row,
    inOrder: false,
    limit: query.limit,
  };
}

/** The page of the stored result in `table`, from its SQL. */
export function plainPage(
  connection: DuckDBConnection,
  pages: PageWriter,
  table: string,
  query: PageQuery,
  encoding: PageEncoding,
): Promise<Page> {
  assertWindow(query);
  const row = rowPositionName(query.tableColumns);
  const rows = pageRowsSql(table, query, row);
  if (rows) return pages.write(connection, encoding, query.columns, rows);
  return pages.range(connection, encoding, query.columns, table, row, query.offset, query.limit);
}
