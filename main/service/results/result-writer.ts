import type { DuckDBAppender, DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import { valuesOf } from '../../common/statement-values.ts';
import type { BoundSql } from '../../filter-language/index.ts';
import type { ResultFiles } from './result-files.ts';
import { totalBytesSql, type ResultColumn, type StoredSize } from './row-bytes.ts';
import { cutRowSizes, writeRowSizes } from './row-sizes.ts';

export interface ResultWriter {
  append(chunk: DuckDBDataChunk): void;
  /**
   * Bytes of the rows the table holds so far, by the same measure as the totals: those the
   * appender has written to it by itself, a batch of rows at a time, so the last rows appended may
   * not be counted yet.
   */
  bytesSoFar(): Promise<number>;
  /** Closes the table; rows past `capBytes` are removed, and the result then says it was truncated. */
  finish(capBytes: number): Promise<StoredSize & { truncated: boolean }>;
  abort(): Promise<void>;
}

/** Starts the stored result of an execution: a new file with one table of `columns`, appended to. */
export async function createResultWriter(files: ResultFiles, executionId: string, columns: ResultColumn[]): Promise<ResultWriter> {
  const created = await files.create(executionId);
  const table = created.sql;
  let connection: DuckDBConnection | null = null;
  let appender: DuckDBAppender | null = null;
  try {
    connection = await files.writer.connect();
    const definitions = columns.map((c) => `${quoteIdentifier(c.name)} ${c.type}`).join(', ');
    await connection.run(`CREATE TABLE ${table} (${definitions})`);
    appender = await connection.createAppender('r', 'main', created.catalog);
  } catch (error) {
    if (connection) files.writer.release(connection);
    await files.discard(executionId);
    throw error;
  }
  const open = appender;
  const writing = connection;
  // Rows are counted as the appender writes them to the table by itself, never made to write
  // them sooner: a batch written at another count left parts of row groups to go through the
  // write-ahead log, which made the file larger and its checkpoint long and hungry for memory.
  let measured: StoredSize = { rowCount: 0, bytes: 0 };
  const measureAdded = async () => {
    const added = await measureRows(writing, table, columns, { sql: 'rowid >= CAST(? AS BIGINT)', params: [String(measured.rowCount)] });
    measured = { rowCount: measured.rowCount + added.rowCount, bytes: measured.bytes + added.bytes };
    return measured;
  };
  return {
    append: (chunk) => {
      files.assertRoom();
      open.appendDataChunk(chunk);
    },
    bytesSoFar: async () => (await measureAdded()).bytes,
    finish: async (capBytes) => {
      try {
        open.closeSync();
        let size = { ...(await writeRowSizes(writing, created, columns)), truncated: false };
        if (size.bytes > capBytes) size = { ...(await cutRowSizes(writing, created, capBytes)), truncated: true };
        await files.checkpoint(executionId);
        files.writer.release(writing);
        await files.written(executionId);
        return size;
      } catch (error) {
        files.writer.release(writing);
        await files.discard(executionId);
        throw error;
      }
    },
    abort: async () => {
      try {
        open.closeSync();
      } catch {
        // the table goes anyway
      }
      files.writer.release(writing);
      await files.discard(executionId);
    },
  };
}

/** The rows, and their bytes by the service's measure, of `table` (those that pass `where`). */
export async function measureRows(
  connection: DuckDBConnection,
  table: string,
  columns: ResultColumn[],
  where: BoundSql | null = null,
): Promise<StoredSize> {
  const reader = await connection.runAndReadAll(
    `SELECT count(*)::BIGINT, (${totalBytesSql(columns)})::BIGINT FROM ${table}${where ? ` WHERE ${where.sql}` : ''}`,
    valuesOf(where?.params ?? []),
  );
  const [count, bytes] = reader.getRows()[0] ?? [0n, 0n];
  return { rowCount: Number(count), bytes: Number(bytes) };
}
