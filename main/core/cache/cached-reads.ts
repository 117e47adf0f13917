import type { DuckDBConnection } from '@duckdb/node-api';
import { isValueError } from '../../common/duckdb-errors.ts';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import { fail, ok, type Result, type ResultPage, type ResultSample } from '../../contract/index.ts';
import { compileResultRequest, FilterLanguageError, type Column, type CompiledRequest } from '../../filter-language/index.ts';
import { languageFailure } from '../results/view.ts';
import type { ResultView } from '../service-client/index.ts';
import type { CacheDb } from './cache-db.ts';
import type { CacheEntry } from './manifest.ts';
import { cellExpression, toCacheCell } from './storage-types.ts';

// Grid pages and samples answered from a cached result with the shared language, so they equal
// what the service answers: the same compiled WHERE and ORDER BY, ties broken by the result's
// own row order, cells in the service's JSON shapes.

/** The row's place in the result, carried through a page's subquery; a name no result column is expected to have. */
const PAGE_ROW = '"__querydesk_row"';

/** The view compiled against the entry's columns; with `source`, its sort names them as that table's. */
export function compileView(entry: CacheEntry, view: ResultView, source?: string): CompiledRequest | FilterLanguageError {
  try {
    return compileResultRequest(view, entry.columns, source);
  } catch (error) {
    if (error instanceof FilterLanguageError) return error;
    throw error;
  }
}

export function selectList(columns: Column[]): string {
  return columns.map(cellExpression).join(', ');
}

export function columnsOut(entry: CacheEntry, columns: Column[]): ResultPage['columns'] {
  return columns.map((c) => ({ name: c.name, type: entry.wireTypes[entry.columns.indexOf(c)] ?? c.type }));
}

/** The compiled view's filter as a WHERE clause (with a leading space), or nothing. */
export function whereClause(compiled: CompiledRequest): string {
  return compiled.where ? ` WHERE ${compiled.where.sql}` : '';
}

/**
 * A page of rows `startRow` to `endRow` of the cached `table` (quoted) in the compiled view. The
 * cells are shaped after the page is cut: shaped before, every row that passes the filter would be
 * (timestamps formatted for a million rows to keep a hundred). The cut page is put in order
 * again, by the same keys and the row's place.
 */
export function cachedPageSql(
  table: string,
  compiled: CompiledRequest,
  startRow: number,
  endRow: number,
): { sql: string; params: (string | number)[] } {
  const where = whereClause(compiled);
  const orderBy = compiled.orderBy ? ` ORDER BY ${compiled.orderBy}, rowid` : '';
  const reorder = compiled.orderBy ? `${compiled.orderBy}, ${PAGE_ROW}` : PAGE_ROW;
  return {
    sql: `SELECT ${selectList(compiled.columns)} FROM (SELECT *, rowid AS ${PAGE_ROW} FROM ${table}${where}${orderBy} LIMIT ? OFFSET ?) ORDER BY ${reorder}`,
    params: [...(compiled.where?.params ?? []), endRow - startRow, startRow],
  };
}

export async function readCachedPage(
  db: CacheDb,
  entry: CacheEntry,
  view: ResultView,
  startRow: number,
  endRow: number,
): Promise<Result<ResultPage>> {
  const compiled = compileView(entry, view);
  if (compiled instanceof FilterLanguageError) return languageFailure(compiled);
  const table = quoteIdentifier(entry.tableName);
  const page = cachedPageSql(table, compiled, startRow, endRow);
  return db.withConnection((connection) =>
    valueErrors(async () => {
      const reader = await connection.runAndReadAll(page.sql, page.params);
      const total = compiled.where ? await countRows(connection, table, whereClause(compiled), compiled.where.params) : entry.rowCount;
      return ok({
        columns: columnsOut(entry, compiled.columns),
        rows: reader.getRows().map((row) => row.map(toCacheCell)),
        startRow,
        totalRowCount: total,
        isPartial: entry.isPartial,
        fromCache: { fetchedAt: entry.fetchedAt },
      });
    }),
  );
}

/** Rows drawn at random from the whole result, or from the rows that pass the view's filters. */
export async function readCachedSample(
  db: CacheDb,
  entry: CacheEntry,
  sampleCount: number,
  view: Pick<ResultView, 'columns' | 'filters'>,
): Promise<Result<ResultSample>> {
  const compiled = compileView(entry, view);
  if (compiled instanceof FilterLanguageError) return languageFailure(compiled);
  const table = quoteIdentifier(entry.tableName);
  const where = whereClause(compiled);
  const params = compiled.where?.params ?? [];
  return db.withConnection((connection) =>
    valueErrors(async () => {
      const total = compiled.where ? await countRows(connection, table, where, params) : entry.rowCount;
      const sample = sampleCount < total ? ` USING SAMPLE reservoir(${Math.floor(sampleCount)} ROWS)` : '';
      const reader = await connection.runAndReadAll(
        `SELECT ${selectList(compiled.columns)} FROM (SELECT * FROM ${table}${where})${sample}`,
        params,
      );
      return ok({
        columns: columnsOut(entry, compiled.columns),
        rows: reader.getRows().map((row) => row.map(toCacheCell)),
        totalRowCount: total,
        fromCache: { fetchedAt: entry.fetchedAt },
      });
    }),
  );
}

// The grid reads many pages of one filter; each needs the filter's total. A cached table never
// changes (a new download gets a new table name), so a count once made stays true.
const counts = new Map<string, number>();
const MAX_COUNTS = 200;

export async function countRows(connection: DuckDBConnection, table: string, where: string, params: string[]): Promise<number> {
  const key = JSON.stringify([table, where, params]);
  const known = counts.get(key);
  if (known !== undefined) return known;
  const reader = await connection.runAndReadAll(`SELECT count(*) FROM ${table}${where}`, params);
  const total = Number(reader.getRows()[0]?.[0] ?? 0);
  if (counts.size >= MAX_COUNTS) counts.delete(counts.keys().next().value!);
  counts.set(key, total);
  return total;
}

/** Runs a query built from a request; a value its column cannot hold answers bad_request, as the service does. */
export async function valueErrors<T>(work: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error && isValueError(error.message)) return fail('bad_request', `filters: ${error.message.split('\n')[0]}`);
    throw error;
  }
}
