import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier, quoteLiteral } from '../../common/sql-quote.ts';
import type { Column } from '../../filter-language/index.ts';
import type { CacheDb } from './cache-db.ts';
import { storageCast } from './page-casts.ts';
import type { PageFile } from './page-inserts.ts';

// A download of Parquet pages ends as soon as its last page is on disk: the pages stay where they
// lie, in a folder of the cache's, and a view reads them in place as the result's rows, each
// column cast to its storage type as a load would cast it. Loading a million rows into a table
// takes several times the CPU of reading them from their pages, and that work stood between the
// last byte and the result being there. The view is then folded into the download's own table in
// the background (see page-folds.ts), which takes its place in the manifest.
// Every reader of the cache reads the view as it reads a table: the view has the table's columns
// and types, and a column `rowid` that is each row's place in the result, as a table's own rowid
// is; only a `SELECT *` that a user sees must leave that column out (selectAll).

const VIEW_SUFFIX = '_pages';

/** The view over the pages of the download into `table`. */
export function pagesViewOf(table: string): string {
  return `${table}${VIEW_SUFFIX}`;
}

/** Whether an entry's rows are its pages read in place. */
export function isPagesView(name: string): boolean {
  return name.endsWith(VIEW_SUFFIX);
}

/** The table a name's rows are folded into: the view's download's table, or the table itself. */
export function tableOf(name: string): string {
  return isPagesView(name) ? name.slice(0, -VIEW_SUFFIX.length) : name;
}

/** The folder that keeps the pages of the download into `table`. */
export function pagesFolder(db: CacheDb, table: string): string {
  return join(db.dir, 'pages', tableOf(table));
}

/** The select list of every result column of a table or view, without a view's `rowid`. */
export function selectAll(name: string): string {
  return isPagesView(name) ? '* EXCLUDE (rowid)' : '*';
}

/** Whether a view can give these columns: none of them may take the name of the row's place. */
export function viewCanHold(columns: Column[]): boolean {
  return columns.every((column) => column.name.toLowerCase() !== 'rowid');
}

/** The statement that makes the view of `pages` (in order, each with its Parquet columns' types). */
export function pagesViewSql(view: string, columns: Column[], pages: PageFile[], sourceTypes: string[]): string {
  const casts = columns.map((c, i) => `${storageCast(`c${i}`, c.type, i, sourceTypes[i])} AS ${quoteIdentifier(c.name)}`);
  // a row's place: its page's first row, and its place in the page
  const offsets = `CAST([${pages.map((p) => p.offset).join(', ')}] AS BIGINT[])`;
  const place = `${offsets}[CAST(file_index AS BIGINT) + 1] + file_row_number AS rowid`;
  const files = pages.map((p) => quoteLiteral(p.file)).join(', ');
  return `CREATE VIEW ${quoteIdentifier(view)} AS SELECT ${[...casts, place].join(', ')} FROM read_parquet([${files}])`;
}

/**
 * Reads every value a cast may refuse, so that a value that does not fit its column is met now, as
 * a load would meet it (see page-casts.ts), and never by a reader of the view.
 */
export async function checkCasts(connection: DuckDBConnection, columns: Column[], pages: PageFile[], sourceTypes: string[]): Promise<void> {
  const cast = columns.flatMap((c, i) => (sourceTypes[i] === c.type ? [] : [`count(${storageCast(`c${i}`, c.type, i, sourceTypes[i])})`]));
  if (cast.length === 0) return;
  await connection.run(`SELECT ${cast.join(', ')} FROM read_parquet([${pages.map((p) => quoteLiteral(p.file)).join(', ')}])`);
}

/** The view that reads a folded table as the view of its pages did, for readers given the view's name before. */
export function tableViewSql(view: string, table: string): string {
  return `CREATE OR REPLACE VIEW ${quoteIdentifier(view)} AS SELECT *, rowid FROM ${quoteIdentifier(table)}`;
}

/**
 * Drops a result's view, or its table with the view of its pages if any; a view's pages are for the
 * caller to remove once that is committed (removePagesAfterReads).
 */
export async function dropResult(connection: DuckDBConnection, name: string): Promise<void> {
  await connection.run(`DROP VIEW IF EXISTS ${quoteIdentifier(pagesViewOf(tableOf(name)))}`);
  if (!isPagesView(name)) await connection.run(`DROP TABLE IF EXISTS ${quoteIdentifier(name)}`);
}

/** Removes the pages kept for the download into `name` (or its view) once no connection reads the cache. */
export function removePagesAfterReads(db: CacheDb, name: string): void {
  db.afterReads(() => removePages(db, name));
}

/** Removes the pages kept for a download no view reads (one broken off, or dropped). */
export function removePages(db: CacheDb, name: string): void {
  rmSync(pagesFolder(db, name), { recursive: true, force: true });
}
