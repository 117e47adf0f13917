import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier, quoteLiteral } from '../../common/sql-quote.ts';
import type { Column } from '../../filter-language/index.ts';
import type { PageFormat } from '../service-client/index.ts';
import { storageCast } from './page-casts.ts';
import type { RowRange } from './page-ranges.ts';

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
  const source = `read_csv([${pages.map((p) => quoteLiteral(p.file)).join(', ')}], header = true, auto_detect = false,
      delim = ',', quote = '"', escape = '"', allow_quoted_nulls = false, columns = {${raw}})`;
  await insertRows(target, pages, source, null);
}

/** Parquet pages, a statement to each run of pages whose columns have the same types. */
async function insertParquet(target: InsertTarget, pages: PageFile[]): Promise<void> {
  const types = await parquetColumnTypes(target, pages);
  const runs: { types: string[]; pages: PageFile[] }[] = [];
  pages.forEach((page, i) => {
    const last = runs.at(-1);
    if (last !== undefined && last.types.join('\n') === types[i]!.join('\n')) last.pages.push(page);
    else runs.push({ types: types[i]!, pages: [page] });
  });
  for (const run of runs)
    await insertRows(target, run.pages, `read_parquet([${run.pages.map((p) => quoteLiteral(p.file)).join(', ')}])`, run.types);
}

/**
 * The types of each Parquet page's columns, as DuckDB reads them, from one read of their schemas (a
 * DESCRIBE of each page made the load slower); throws FaultyPages unless each page holds the
 * columns c0 to c(n-1), none nested.
 */
export async function parquetColumnTypes(target: InsertTarget, pages: PageFile[]): Promise<string[][]> {
  // a failed read would end the download's transaction: a file that is plainly not Parquet is named first
  const notParquet = pages.find((page) => !framedAsParquet(page.file));
  if (notParquet)
    throw new FaultyPages(`${pageName(notParquet)} is not a Parquet file the cache can read (it does not begin and end with PAR1).`);
  let rows: unknown[][];
  try {
    const files = pages.map((p) => quoteLiteral(p.file)).join(', ');
    rows = (
      await target.connection.runAndReadAll(`SELECT file_name, column_id, name, duckdb_type, num_children FROM parquet_schema([${files}])`)
    ).getRows();
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    const named =
      pages.length === 1
        ? `${pageName(pages[0]!)} is not a Parquet file`
        : `The pages of rows ${pages[0]!.offset} to ${pages.at(-1)!.end} are not Parquet files`;
    throw new FaultyPages(`${named} the cache can read (${reason}).`);
  }
  const schemas = new Map<string, { id: number; name: string; type: string; children: number }[]>();
  for (const [file, id, name, type, children] of rows) {
    const schema = schemas.get(String(file)) ?? [];
    schemas.set(String(file), schema);
    schema.push({ id: Number(id), name: String(name), type: String(type), children: Number(children ?? 0) });
  }
  return pages.map((page) => {
    // the first element of a schema is its root, the rest its columns and theirs, in order
    const described = (schemas.get(page.file) ?? []).sort((a, b) => a.id - b.id).slice(1);
    const nested = described.find((column) => column.children > 0);
    if (nested)
      throw new FaultyPages(
        `${pageName(page)} held a nested column, ${nested.name}, where the cache takes only c0 to c${target.columns.length - 1} as text or values.`,
      );
    const names = described.map(({ name }) => name);
    if (names.length !== target.columns.length || names.some((name, i) => name !== `c${i}`)) {
      throw new FaultyPages(`${pageName(page)} held the columns ${names.join(', ') || 'none'}, not c0 to c${target.columns.length - 1}.`);
    }
    return described.map(({ type }) => type);
  });
}

const PARQUET_MAGIC = Buffer.from('PAR1');

/** Whether the file begins and ends with Parquet's four bytes (a Parquet file is at least twelve). */
function framedAsParquet(file: string): boolean {
  const handle = openSync(file, 'r');
  try {
    const size = fstatSync(handle).size;
    const start = Buffer.alloc(4);
    const end = Buffer.alloc(4);
    return (
      size >= 12 &&
      readSync(handle, start, 0, 4, 0) === 4 &&
      readSync(handle, end, 0, 4, size - 4) === 4 &&
      start.equals(PARQUET_MAGIC) &&
      end.equals(PARQUET_MAGIC)
    );
  } finally {
    closeSync(handle);
  }
}

function pageName(page: PageFile): string {
  return `The page of rows ${page.offset} to ${page.end}`;
}

/**
 * Inserts the rows `source` reads, each column cast to its storage type (from text, or from the
 * Parquet pages' `sourceTypes`), and checks they are the pages' rows.
 */
async function insertRows(
  { connection, tableName, columns }: InsertTarget,
  pages: PageFile[],
  source: string,
  sourceTypes: string[] | null,
): Promise<void> {
  const casts = columns.map((c, i) => storageCast(`c${i}`, c.type, i, sourceTypes?.[i])).join(', ');
  const result = await connection.run(`INSERT INTO ${quoteIdentifier(tableName)} SELECT ${casts} FROM ${source}`);
  const from = pages[0]!.offset;
  const end = pages.at(-1)!.end;
  if (result.rowsChanged !== end - from) throw new FaultyPages(`The pages of rows ${from} to ${end} held ${result.rowsChanged} rows.`);
}
