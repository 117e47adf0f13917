import type { DuckDBConnection } from '@duckdb/node-api';
import { valuesOf } from '../../common/statement-values.ts';
import type { BoundSql } from '../../filter-language/index.ts';
import { unusedName } from './page-sql.ts';
import { rowBytesSql, type ResultColumn, type StoredSize } from './row-bytes.ts';

// A speed-up over counting the bytes of the rows a filter lets through from the rows themselves
// (measureRows): the bytes of a row of text are its text's length, and reading every string of
// every row that passed took most of a first filter's count. A result's file keeps each row's size,
// by the service's measure (row-bytes.ts), in a table of its own beside the rows (`row_sizes`), a
// row of it for each row of the result, in their order. A count then reads the columns its filter
// names and the sizes, each row's size taken by its position. Results stored before it have none,
// and are counted from their rows.

/** A result's table and the table of its rows' sizes, as SQL names them. */
export interface SizedTable {
  sql: string;
  sizes: string;
}

/**
 * Writes the table of each row's size of a result just written, and answers its rows and bytes.
 * DuckDB keeps the rows' order from the scan to the new table (`preserve_insertion_order`, on by
 * default): sorting by rowid as well made the finish of a million rows a fifth longer.
 */
export async function writeRowSizes(connection: DuckDBConnection, table: SizedTable, columns: ResultColumn[]): Promise<StoredSize> {
  await connection.run(`CREATE TABLE ${table.sizes} AS SELECT (${rowBytesSql(columns)})::UINTEGER AS bytes FROM ${table.sql}`);
  return allSizes(connection, table);
}

/**
 * Keeps the longest run of first rows, and of their sizes, whose bytes stay within `capBytes`,
 * and answers what is kept.
 */
export async function cutRowSizes(connection: DuckDBConnection, table: SizedTable, capBytes: number): Promise<StoredSize> {
  const running = `SELECT rowid, sum(bytes) OVER (ORDER BY rowid) AS running FROM ${table.sizes}`;
  const [[first]] = (
    await connection.runAndReadAll(`SELECT min(rowid)::BIGINT FROM (${running}) WHERE running > ?`, [capBytes])
  ).getRows() as [[bigint | null]];
  if (first !== null) for (const name of [table.sql, table.sizes]) await connection.run(`DELETE FROM ${name} WHERE rowid >= ?`, [first]);
  return allSizes(connection, table);
}

/** The rows of a stored result with sizes that pass `where`, and their bytes. */
export function countBySizes(
  connection: DuckDBConnection,
  table: SizedTable,
  columns: ResultColumn[],
  where: BoundSql,
): Promise<StoredSize> {
  // the sizes' column named as no column of the result is, so that the filter's names stay its own
  const size = unusedName(columns, '__size');
  return sumOf(
    connection,
    `SELECT count(*)::BIGINT, coalesce(sum(${size}), 0)::BIGINT FROM ${table.sql} ` +
      `POSITIONAL JOIN (SELECT bytes AS ${size} FROM ${table.sizes}) WHERE ${where.sql}`,
    where.params,
  );
}

function allSizes(connection: DuckDBConnection, table: SizedTable): Promise<StoredSize> {
  return sumOf(connection, `SELECT count(*)::BIGINT, coalesce(sum(bytes), 0)::BIGINT FROM ${table.sizes}`);
}

async function sumOf(connection: DuckDBConnection, sql: string, params: string[] = []): Promise<StoredSize> {
  const [[rows, bytes]] = (await connection.runAndReadAll(sql, valuesOf(params))).getRows() as [[bigint, bigint]];
  return { rowCount: Number(rows), bytes: Number(bytes) };
}
