import type { DuckDBAppender, DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import type { BoundSql } from '../../filter-language/index.ts';
import { quoteIdentifier, type Database } from '../storage/duckdb.ts';
import { rowCsvSql, rowJsonSql } from './cell-sql.ts';
import { rowBytesSql, type ResultColumn } from './row-bytes.ts';

export interface StoredSize {
  rowCount: number;
  bytes: number;
}

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
}

export type PageFormat = 'json' | 'csv';

/** A page as text: one JSON object or one CSV line per row. */
export interface Page {
  rows: string[];
  bytes: number;
}

export interface ResultWriter {
  append(chunk: DuckDBDataChunk): void;
  /** Bytes written so far, by the same measure as the totals. */
  bytesSoFar(): Promise<number>;
  /** Closes the table; rows past `capBytes` are removed, and the result then says it was truncated. */
  finish(capBytes: number): Promise<StoredSize & { truncated: boolean }>;
  abort(): Promise<void>;
}

function tableOf(executionId: string): string {
  return quoteIdentifier(`r_${executionId}`);
}

/** Stored results: one table per execution, written once, then read page by page with SQL. */
// Filtered totals kept, so that paging through one filter counts its rows once.
const REMEMBERED_COUNTS = 256;

function wholeNumber(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a row count: ${value}`);
  return value;
}

function unusedName(columns: ResultColumn[], base: string): string {
  const taken = new Set(columns.map((c) => c.name.toLowerCase()));
  let name = base;
  for (let i = 1; taken.has(name); i++) name = `${base}_${i}`;
  return quoteIdentifier(name);
}

export class ResultStore {
  #db: Database;
  #counts = new Map<string, StoredSize>();

  constructor(db: Database) {
    this.#db = db;
  }

  async createWriter(executionId: string, columns: ResultColumn[]): Promise<ResultWriter> {
    const connection = await this.#db.connect();
    const table = tableOf(executionId);
    let appender: DuckDBAppender | null = null;
    try {
      const definitions = columns.map((c) => `${quoteIdentifier(c.name)} ${c.type}`).join(', ');
      await connection.run(`CREATE OR REPLACE TABLE ${table} (${definitions})`);
      appender = await connection.createAppender(`r_${executionId}`);
    } catch (error) {
      this.#db.release(connection);
      throw error;
    }
    const open = appender;
    let measured = { rows: 0, bytes: 0 };
    return {
      append: (chunk) => open.appendDataChunk(chunk),
      bytesSoFar: async () => {
        open.flushSync();
        const added = await measure(connection, table, columns, { sql: 'rowid >= CAST(? AS BIGINT)', params: [String(measured.rows)] });
        measured = { rows: measured.rows + added.rowCount, bytes: measured.bytes + added.bytes };
        return measured.bytes;
      },
      finish: async (capBytes) => {
        try {
          open.closeSync();
          const size = await measure(connection, table, columns);
          if (size.bytes <= capBytes) return { ...size, truncated: false };
          await truncate(connection, table, columns, capBytes);
          return { ...(await measure(connection, table, columns)), truncated: true };
        } finally {
          this.#db.release(connection);
        }
      },
      abort: async () => {
        try {
          open.closeSync();
        } catch {
          // the table goes anyway
        }
        try {
          await connection.run(`DROP TABLE IF EXISTS ${table}`);
        } finally {
          this.#db.release(connection);
        }
      },
    };
  }

  async page(executionId: string, query: PageQuery, format: PageFormat): Promise<Page> {
    return this.#withConnection(async (connection) => {
      const row = format === 'json' ? rowJsonSql(query.columns) : rowCsvSql(query.columns);
      const sample = query.samplePercent != null ? ` USING SAMPLE ${query.samplePercent.toFixed(12)}% (bernoulli)` : '';
      const where = query.where ? ` WHERE ${query.where.sql}` : '';
      // The page is cut first and written as JSON or CSV after, so that only its own rows are
      // written; rowid breaks ties of the sort, and orders the page again once cut.
      const rowKey = unusedName(query.tableColumns, '__row');
      const inner = query.orderBy
        ? `SELECT *, rowid AS ${rowKey} FROM ${tableOf(executionId)}${where}${sample} ORDER BY ${query.orderBy}, rowid`
        : `SELECT * FROM ${tableOf(executionId)}${where}${sample}`;
      const reorder = query.orderBy ? ` ORDER BY ${query.orderBy}, ${rowKey}` : '';
      // literal, not bound: DuckDB plans a top-N sort and skips rows cheaply only for constants
      const window = `LIMIT ${wholeNumber(query.limit)} OFFSET ${wholeNumber(query.offset)}`;
      const reader = await connection.runAndReadAll(
        `SELECT ${row}, (${rowBytesSql(query.columns)})::BIGINT FROM (${inner} ${window})${reorder}`,
        query.where?.params ?? [],
      );
      const [texts = [], sizes = []] = reader.getColumns() as [string[], bigint[]];
      let bytes = 0;
      for (const size of sizes) bytes += Number(size);
      return { rows: texts, bytes };
    });
  }

  /** Rows and bytes of the stored rows that pass `where`; remembered, as a stored result never changes. */
  async count(executionId: string, columns: ResultColumn[], where: BoundSql): Promise<StoredSize> {
    const key = [executionId, where.sql, ...where.params].join('\u0000');
    const known = this.#counts.get(key);
    if (known) return known;
    const size = await this.#withConnection((connection) => measure(connection, tableOf(executionId), columns, where));
    if (this.#counts.size >= REMEMBERED_COUNTS) this.#counts.delete(this.#counts.keys().next().value!);
    this.#counts.set(key, size);
    return size;
  }

  /** The executions whose result tables are stored, complete or not. */
  async storedExecutionIds(): Promise<string[]> {
    const rows = await this.#db.rows<{ table_name: string }>(
      `SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND starts_with(table_name, 'r_')`,
    );
    return rows.map((row) => row.table_name.slice(2));
  }

  async drop(executionId: string): Promise<void> {
    for (const key of this.#counts.keys()) if (key.startsWith(`${executionId}\u0000`)) this.#counts.delete(key);
    await this.#db.run(`DROP TABLE IF EXISTS ${tableOf(executionId)}`);
  }

  async #withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.#db.connect();
    try {
      return await work(connection);
    } finally {
      this.#db.release(connection);
    }
  }
}

/** Keeps the longest run of first rows whose bytes stay within the cap. */
async function truncate(connection: DuckDBConnection, table: string, columns: ResultColumn[], capBytes: number): Promise<void> {
  await connection.run(
    `DELETE FROM ${table} WHERE rowid >= (
       SELECT coalesce(min(rowid), 0) FROM (
         SELECT rowid, sum(${rowBytesSql(columns)}) OVER (ORDER BY rowid) AS running FROM ${table}
       ) WHERE running > ?)`,
    [capBytes],
  );
}

async function measure(
  connection: DuckDBConnection,
  table: string,
  columns: ResultColumn[],
  where: BoundSql | null = null,
): Promise<StoredSize> {
  const reader = await connection.runAndReadAll(
    `SELECT count(*)::BIGINT, coalesce(sum(${rowBytesSql(columns)}), 0)::BIGINT FROM ${table}${where ? ` WHERE ${where.sql}` : ''}`,
    where?.params ?? [],
  );
  const [count, bytes] = reader.getRows()[0] ?? [0n, 0n];
  return { rowCount: Number(count), bytes: Number(bytes) };
}
