import type { DuckDBAppender, DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { BoundSql } from '../../filter-language/index.ts';
import { valuesOf } from '../storage/duckdb.ts';
import type { JsonText } from './json-lines.ts';
import { PageWriter } from './page-writer.ts';
import type { Page, PageFormat } from './page.ts';
import type { ResultFiles } from './result-files.ts';
import { ResultViews } from './result-views.ts';
import { rowBytesSql, type ResultColumn } from './row-bytes.ts';
import { TextBlocks, type MakeBlock } from './text-blocks.ts';
import { ViewTexts } from './view-texts.ts';

export type { Page, PageFormat } from './page.ts';

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
  /** The stored result's rows. */
  storedRows: number;
}

export interface ResultWriter {
  append(chunk: DuckDBDataChunk): void;
  /** Bytes written so far, by the same measure as the totals. */
  bytesSoFar(): Promise<number>;
  /** Closes the table; rows past `capBytes` are removed, and the result then says it was truncated. */
  finish(capBytes: number): Promise<StoredSize & { truncated: boolean }>;
  abort(): Promise<void>;
}

/** Stored results: one file per execution, written once, then read page by page with SQL. */
// Facts of a result kept, each kind up to this many: filtered totals, so that paging through one
// filter counts its rows once, and the columns of its JSON text.
const REMEMBERED = 256;
// Bytes of text of stored results kept in files: the JSON of three million rows of eight columns.
const TEXT_BLOCK_BYTES = 512 * 1024 * 1024;
// Of that text, the bytes also kept in memory, the blocks used last: a third of the JSON of the
// million-row demo result, ten pages of 30,000 rows, more than a reader paging on has written
// ahead for it (four pages) beside the page it reads.
const TEXT_BLOCK_MEMORY_BYTES = 48 * 1024 * 1024;
// A page of up to this many rows is written on its own (JSON by one statement) about as fast as it
// is read from blocks: it does not have blocks written for it, but reads them when they are kept.
const BLOCK_PAGE_ROWS = 2_000;

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
  #files: ResultFiles;
  #views: ResultViews;
  #texts = new ViewTexts();
  #blocks: TextBlocks;
  #counts = new Map<string, StoredSize>();
  /** How a stored result's JSON text is written, by the text's key (see #textPage). */
  #jsonTexts = new Map<string, Promise<JsonText>>();
  #pages: PageWriter;

  /** `pagesDir`: where DuckDB writes pages, each read back and removed at once, and the blocks of text kept. */
  constructor(files: ResultFiles, pagesDir: string) {
    this.#files = files;
    this.#blocks = new TextBlocks(TEXT_BLOCK_BYTES, TEXT_BLOCK_MEMORY_BYTES);
    this.#views = new ResultViews(files.db, (table) => this.#texts.forget(table));
    this.#pages = new PageWriter(files.db, pagesDir);
  }

  async createWriter(executionId: string, columns: ResultColumn[]): Promise<ResultWriter> {
    const files = this.#files;
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
    let measured = { rows: 0, bytes: 0 };
    return {
      append: (chunk) => {
        files.assertRoom();
        open.appendDataChunk(chunk);
      },
      bytesSoFar: async () => {
        open.flushSync();
        const added = await measure(writing, table, columns, { sql: 'rowid >= CAST(? AS BIGINT)', params: [String(measured.rows)] });
        measured = { rows: measured.rows + added.rowCount, bytes: measured.bytes + added.bytes };
        return measured.bytes;
      },
      finish: async (capBytes) => {
        try {
          open.closeSync();
          let size = { ...(await measure(writing, table, columns)), truncated: false };
          if (size.bytes > capBytes) {
            await truncate(writing, table, columns, capBytes);
            size = { ...(await measure(writing, table, columns)), truncated: true };
          }
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

  async page(executionId: string, query: PageQuery, format: PageFormat): Promise<Page> {
    const params = query.where?.params ?? [];
    // literal, not bound: DuckDB plans a top-N sort and skips rows cheaply only for constants
    const limit = wholeNumber(query.limit);
    const offset = wholeNumber(query.offset);
    // each row's position, in a name no column of the result has
    const row = unusedName(query.tableColumns, '__row');
    const range = (connection: DuckDBConnection, table: string) => this.#pages.range(connection, format, query.columns, table, row, offset, limit);
    const key = [executionId, query.where?.sql ?? '', query.orderBy ?? '', ...params].join('\u0000');
    if ((query.where || query.orderBy) && query.samplePercent == null && this.#views.worthMaking(key)) {
      const fill = (target: string) =>
        this.#withTable(executionId, async (connection, table) => {
          const where = query.where ? ` WHERE ${query.where.sql}` : '';
          // rowid breaks ties of the sort: a view's order is the same each time it is made
          await connection.run(`CREATE TABLE ${target} AS SELECT * FROM ${table}${where} ORDER BY ${query.orderBy ?? 'rowid'}, rowid`, valuesOf(params));
          const [[rows]] = (await connection.runAndReadAll(`SELECT count(*) FROM ${target}`)).getRows() as [[bigint]];
          return Number(rows) * query.tableColumns.length;
        });
      return this.#views.use(executionId, key, fill, async (view, cells) => {
        const columns = query.columns.map((c) => c.name).join('\u0000');
        const text = (maxBytes: number) => this.#withConnection((connection) => this.#pages.text(connection, query.columns, view, row, maxBytes));
        const page = format === 'json' ? await this.#texts.page(view, columns, cells, offset, limit, text) : null;
        return page ?? this.#withConnection((connection) => range(connection, view));
      });
    }
    const text = format !== 'parquet' && !query.where && !query.orderBy && query.samplePercent == null ? this.#textPage(executionId, query, format, row) : null;
    if (text) return text;
    return this.#withTable(executionId, (connection, table) => {
      const sample = query.samplePercent != null ? ` USING SAMPLE ${query.samplePercent.toFixed(12)}% (bernoulli)` : '';
      const where = query.where ? ` WHERE ${query.where.sql}` : '';
      if (!query.orderBy && !where && !sample) return range(connection, table);
      // rowid breaks ties of the sort; without one the rows come in stored order, and LIMIT stops early
      const sort = query.orderBy ? ` ORDER BY ${query.orderBy}, rowid` : '';
      const sql = `SELECT *, rowid AS ${row} FROM ${table}${where}${sample}${sort} LIMIT ${limit} OFFSET ${offset}`;
      return this.#pages.write(connection, format, query.columns, { sql, params, orderBy: query.orderBy ? `${query.orderBy}, ${row}` : row, inOrder: false, limit });
    });
  }

  /**
   * A page of the stored rows from their text in blocks: a large one always, a short one when its
   * blocks are kept (a reader of large pages had them written). Null for a short page otherwise.
   */
  #textPage(executionId: string, query: PageQuery, format: PageFormat, row: string): Promise<Page> | null {
    const key = [executionId, format, ...query.columns.map((c) => c.name)].join('\u0000');
    const kept = this.#blocks.keptPage(key, format, query.storedRows, query.offset, query.limit);
    if (kept || Math.min(query.limit, query.storedRows - query.offset) <= BLOCK_PAGE_ROWS) return kept;
    // each block holds the result's table while it is written: one read ahead may outlive its page
    const block: MakeBlock = (from, to, allocate) =>
      this.#withTable(executionId, async (connection, table) => {
        const json = format === 'json' ? await this.#jsonTextOf(key, () => this.#pages.jsonText(connection, query.columns, table)) : null;
        return this.#pages.block(connection, query.columns, table, row, { from, to, json, allocate });
      });
    return this.#blocks.page(executionId, key, format, query.storedRows, query.offset, query.limit, block);
  }

  /** How a JSON text is written, read by `read` once for all its blocks; a failure is not remembered. */
  #jsonTextOf(key: string, read: () => Promise<JsonText>): Promise<JsonText> {
    const known = this.#jsonTexts.get(key);
    if (known) return known;
    const text = read();
    if (this.#jsonTexts.size >= REMEMBERED) this.#jsonTexts.delete(this.#jsonTexts.keys().next().value!);
    this.#jsonTexts.set(key, text);
    text.catch(() => {
      if (this.#jsonTexts.get(key) === text) this.#jsonTexts.delete(key);
    });
    return text;
  }

  /** Rows and bytes of the stored rows that pass `where`; remembered, as a stored result never changes. */
  async count(executionId: string, columns: ResultColumn[], where: BoundSql): Promise<StoredSize> {
    const key = [executionId, where.sql, ...where.params].join('\u0000');
    const known = this.#counts.get(key);
    if (known) return known;
    const size = await this.#withTable(executionId, (connection, table) => measure(connection, table, columns, where));
    if (this.#counts.size >= REMEMBERED) this.#counts.delete(this.#counts.keys().next().value!);
    this.#counts.set(key, size);
    return size;
  }

  /** The executions whose result tables are stored, complete or not. */
  storedExecutionIds(): Promise<string[]> {
    return Promise.resolve(this.#files.ids());
  }

  async drop(executionId: string): Promise<void> {
    this.#forget(executionId);
    await this.#views.dropAll(executionId);
    await this.#files.drop(executionId);
    // a page read as it was dropped may have made a block, or read its columns, since
    this.#forget(executionId);
  }

  /** Forgets what is remembered of a result: its counts, its text's columns and blocks. */
  #forget(executionId: string): void {
    for (const remembered of [this.#counts, this.#jsonTexts]) {
      for (const key of remembered.keys()) if (key.startsWith(`${executionId}\u0000`)) remembered.delete(key);
    }
    this.#blocks.forget(executionId);
  }

  /** Removes the text kept in files, as the service stops. */
  close(): Promise<void> {
    return this.#blocks.close();
  }

  #withTable<T>(executionId: string, work: (connection: DuckDBConnection, table: string) => Promise<T>): Promise<T> {
    return this.#files.use(executionId, (table) => this.#withConnection((connection) => work(connection, table.sql)));
  }

  async #withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.#files.db.connect();
    try {
      return await work(connection);
    } finally {
      this.#files.db.release(connection);
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
    valuesOf(where?.params ?? []),
  );
  const [count, bytes] = reader.getRows()[0] ?? [0n, 0n];
  return { rowCount: Number(count), bytes: Number(bytes) };
}
