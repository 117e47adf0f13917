import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteName, type Column } from '../../filter-language/index.ts';
import type { PageFormat } from '../service-client/index.ts';
import { sqlString } from './cache-db.ts';
import type { RowRange } from './page-ranges.ts';
import { storageCast } from './storage-types.ts';

// The statements that put consecutive page files of one format into the staging table, each
// column cast to its storage type. A CSV page is read as text. A Parquet page's columns, c0, c1, …
// in the result's order, hold values or text the service chose so that the same cast gives what
// the CSV page gives; they are checked first, so that a page sent wrong is named rather than met
// as a binder error, and pages whose columns differ in type go to statements of their own (one
// statement would read them all as the first page's types).

/** Pages the service sent wrong: other rows than their offsets say, or a Parquet file without the result's columns. */
export class FaultyPages extends Error {}

export interface InsertTarget {
  connection: DuckDBConnection;
  tableName: string;
  columns: Column[];
}

/** A page file and the rows it holds. */
export interface PageFile extends RowRange {
  file: string;
}

/** Inserts the pages, in order; when it throws, some of them may be in, and the transaction is to be rolled back. */
export function insertPages(target: InsertTarget, format: PageFormat, pages: PageFile[]): Promise<void> {
  return format === 'csv' ? insertCsv(target, pages) : insertParquet(target, pages);
}

/** CSV pages: every column read as text. */
async function insertCsv(target: InsertTarget, pages: PageFile[]): Promise<void> {
  const raw = target.columns.map((_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  // allow_quoted_nulls off: "" is an empty text, as a service writing CSV with DuckDB's COPY sends it
  const source = `read_csv([${pages.map((p) => sqlString(p.file)).join(', ')}], header = true, auto_detect = false,
      delim = ',', quote = '"', escape = '"', allow_quoted_nulls = false, columns = {${raw}})`;
  await insertRows(target, pages, source);
}

/** Parquet pages, a statement to each run of pages whose columns have the same types. */
async function insertParquet(target: InsertTarget, pages: PageFile[]): Promise<void> {
  const runs: { types: string; pages: PageFile[] }[] = [];
  for (const page of pages) {
    const types = await parquetColumnTypes(target, page);
    const last = runs.at(-1);
    if (last?.types === types) last.pages.push(page);
    else runs.push({ types, pages: [page] });
  }
  for (const run of runs) await insertRows(target, run.pages, `read_parquet([${run.pages.map((p) => sqlString(p.file)).join(', ')}])`);
}

/** The types of a Parquet page's columns, as one text; throws FaultyPages unless they are c0 to c(n-1). */
async function parquetColumnTypes({ connection, columns }: InsertTarget, page: PageFile): Promise<string> {
  const named = `The page of rows ${page.offset} to ${page.end}`;
  let described: [string, string][];
  try {
    const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(page.file)})`);
    described = reader.getRows().map(([name, type]) => [String(name), String(type)]);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new FaultyPages(`${named} is not a Parquet file the cache can read (${reason}).`);
  }
  const names = described.map(([name]) => name);
  if (names.length !== columns.length || names.some((name, i) => name !== `c${i}`)) {
    throw new FaultyPages(`${named} held the columns ${names.join(', ') || 'none'}, not c0 to c${columns.length - 1}.`);
  }
  return described.map(([, type]) => type).join(', ');
}

/** Inserts the rows `source` reads, each column cast to its storage type, and checks they are the pages' rows. */
async function insertRows({ connection, tableName, columns }: InsertTarget, pages: PageFile[], source: string): Promise<void> {
  const casts = columns.map((c, i) => storageCast(`c${i}`, c.type)).join(', ');
  const result = await connection.run(`INSERT INTO ${quoteName(tableName)} SELECT ${casts} FROM ${source}`);
  const from = pages[0]!.offset;
  const end = pages.at(-1)!.end;
  if (result.rowsChanged !== end - from) throw new FaultyPages(`The pages of rows ${from} to ${end} held ${result.rowsChanged} rows.`);
}
