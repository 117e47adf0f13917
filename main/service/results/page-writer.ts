import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { DuckDBConnection, DuckDBMaterializedResult } from '@duckdb/node-api';
import { valuesOf } from '../../common/statement-values.ts';
import type { Database } from '../storage/duckdb.ts';
import { csvColumnSql, jsonNumbersFitSql, parquetColumnSql } from './cell-sql.ts';
import { COPY_JSON_LINES, CopyWriter } from './copy-writer.ts';
import { csvRowStarts } from './csv-rows.ts';
import { commasForLineBreaks, whichFactsHold, jsonLineSql, type JsonText, type RowsText } from './json-lines.ts';
import { rowidRange, type PageRows } from './page-rows.ts';
import type { Page, PageEncoding } from './page.ts';
import { neverNullSql, rowBytesSql, type ResultColumn } from './row-bytes.ts';
import { readBytes } from './spare-memory.ts';
import { columnless, oneStatementJson } from './statement-pages.ts';
import type { BlockText } from './text-blocks.ts';

// A JSON page of up to this many rows is written by one statement; a larger one by two and COPY,
// whose start (a file, a second statement) costs a little, paid back from a few thousand rows.
const ONE_STATEMENT_ROWS = 2_000;
// DuckDB writes a range of rows on one thread: a large page is written in parts at once, each of
// at least this many rows, on as many connections as there are cores (up to four).
const PART_ROWS = 5_000;
const PARTS = Math.min(4, availableParallelism());
const SEPARATOR = Buffer.from(',');

/**
 * Writes pages with DuckDB, which makes their whole text: no value passes through JavaScript. Large
 * pages go through COPY into a file, read back whole and removed: COPY writes CSV about twice as
 * fast as SQL expressions joined by string_agg, and JSON faster once cells are written as they are
 * (see copy-writer.ts).
 */
export class PageWriter {
  readonly #db: Database;
  readonly #copier: CopyWriter;
  #tables = 0;

  /** `db`: where the pages' tables are, for connections beside the caller's. */
  constructor(db: Database, dir: string) {
    this.#db = db;
    this.#copier = new CopyWriter(dir);
  }

  write(connection: DuckDBConnection, format: PageEncoding, columns: ResultColumn[], rows: PageRows): Promise<Page> {
    if (format === 'parquet') return this.parquet(connection, columns, rows);
    return format === 'csv' ? this.csv(connection, columns, rows) : this.json(connection, columns, rows);
  }

  /**
   * The rows `offset` to `offset + limit` of a table written in order (a stored result, a view),
   * read as a range of rowids: such a table's rowids run from 0 without a gap (a stored result's
   * tail is all that is ever cut), and DuckDB reads a range of them from its row groups without
   * counting up to it. `row` is a name no column of the table has.
   */
  async range(
    connection: DuckDBConnection,
    format: PageEncoding,
    columns: ResultColumn[],
    table: string,
    row: string,
    offset: number,
    limit: number,
  ): Promise<Page> {
    const part = (from: number, to: number) => rowidRange(table, row, from, to);
    // a Parquet file is one whole: it is not made of parts
    const parts = format === 'parquet' ? 1 : Math.max(1, Math.min(PARTS, Math.floor(limit / PART_ROWS)));
    if (parts === 1) return this.write(connection, format, columns, part(offset, offset + limit));
    const size = Math.ceil(limit / parts);
    const pages = await Promise.all(
      Array.from({ length: parts }, async (_, i) => {
        const rows = part(offset + i * size, offset + Math.min(limit, (i + 1) * size));
        if (i === 0) return this.write(connection, format, columns, rows);
        const other = await this.#db.connect();
        try {
          return await this.write(other, format, columns, rows);
        } finally {
          this.#db.release(other);
        }
      }),
    );
    const bodies = pages.filter((page) => page.rowCount > 0).map((page) => page.body);
    return {
      body: format === 'json' ? bodies.flatMap((body, i) => (i === 0 ? body : [SEPARATOR, ...body])) : bodies.flat(),
      rowCount: pages.reduce((sum, page) => sum + page.rowCount, 0),
      bytes: pages.reduce((sum, page) => sum + page.bytes, 0),
    };
  }

  async csv(connection: DuckDBConnection, columns: ResultColumn[], rows: PageRows): Promise<Page> {
    if (columns.length === 0) return columnless(connection, rows, 'csv');
    const { body, rowCount } = (await this.#copier.copy(connection, columns.map(csvColumnSql), rows, 'HEADER false'))!;
    return { body: [body], rowCount, bytes: 0 };
  }

  /**
   * The rows as one Parquet file, compressed in it; for a result with at least one column. Its second
   * version's encodings store runs of numbers and times by their differences: a third fewer bytes.
   * zstd's first level: for the demo result's pages, less CPU than its default and no more
   * bytes. No Bloom
   * filters, which DuckDB writes for columns of few values so that a reader can skip row groups: a
   * page is read whole, and they cost CPU and bytes.
   * No dictionaries either: zstd finds the repeats they would name, and looking for them took a
   * good share of the CPU, and the pages were larger with them. (The figures of each choice are
   * in bench/RESULTS.md.)
   */
  async parquet(connection: DuckDBConnection, columns: ResultColumn[], rows: PageRows): Promise<Page> {
    if (columns.length === 0) throw new Error('a Parquet page needs at least one column');
    const options =
      'FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1, PARQUET_VERSION v2, WRITE_BLOOM_FILTER false, DICTIONARY_SIZE_LIMIT 1';
    const { body, rowCount } = (await this.#copier.copy(connection, columns.map(parquetColumnSql), rows, options))!;
    return { body: [body], rowCount, bytes: 0 };
  }

  async json(connection: DuckDBConnection, columns: ResultColumn[], rows: PageRows): Promise<Page> {
    if (columns.length === 0) return columnless(connection, rows, 'json');
    if (rows.limit <= ONE_STATEMENT_ROWS) return oneStatementJson(connection, columns, rows);
    if (rows.inOrder) return this.#copiedJson(connection, columns, rows);
    // read twice below: a sample would not give the same rows again, and a sort would run again
    const name = `page_${++this.#tables}`;
    await connection.run(`CREATE TEMP TABLE ${name} AS SELECT * FROM (${rows.sql}) ORDER BY ${rows.orderBy}`, valuesOf(rows.params));
    try {
      return await this.#copiedJson(connection, columns, { ...rows, sql: `SELECT * FROM temp.main.${name}`, params: [], inOrder: true });
    } finally {
      await connection.run(`DROP TABLE temp.main.${name}`);
    }
  }

  /**
   * The page's size and, for columns that JSON may hold as numbers, whether its values all are
   * exact numbers are read first: COPY then writes those columns as they are.
   */
  async #copiedJson(connection: DuckDBConnection, columns: ResultColumn[], rows: PageRows): Promise<Page> {
    const lines = (await this.#copier.jsonLines(connection, columns, rows, Number.POSITIVE_INFINITY))!;
    if (lines.rowCount === 0) return { body: [], rowCount: 0, bytes: 0 };
    commasForLineBreaks(lines.body);
    return { body: [lines.body.subarray(0, lines.body.length - 1)], rowCount: lines.rowCount, bytes: lines.bytes };
  }

  /**
   * A table's rows (`rowid` from 0, in order) as JSON text whole, each row followed by a comma, with
   * where each starts and the bytes before it: a page of it is then a slice (see `textPage`). Null
   * when the text would be larger than `maxBytes`.
   */
  async text(
    connection: DuckDBConnection,
    columns: ResultColumn[],
    table: string,
    row: string,
    maxBytes: number,
  ): Promise<RowsText | null> {
    const rows: PageRows = {
      sql: `SELECT *, rowid AS ${row} FROM ${table}`,
      params: [],
      orderBy: row,
      inOrder: true,
      limit: Number.MAX_SAFE_INTEGER,
    };
    const lines = await this.#copier.jsonLines(connection, columns, rows, maxBytes, true);
    if (!lines) return null;
    const { body, rowCount, sizes } = lines;
    const starts = new Uint32Array(rowCount + 1);
    const bytesBefore = new Float64Array(rowCount + 1);
    const ends = commasForLineBreaks(body).subarray(1);
    if (ends.length !== rowCount || sizes.length !== rowCount)
      throw new Error(`a view's text has ${ends.length} lines and ${sizes.length} sizes for ${rowCount} rows`);
    ends.forEach((end, i) => {
      starts[i + 1] = end;
      bytesBefore[i + 1] = bytesBefore[i]! + sizes[i]!;
    });
    return { body, starts, bytesBefore };
  }

  /**
   * How all of a table's rows are written as JSON: each row's JSON for COPY (see `#jsonFacts`), and
   * each row's bytes with the widths of columns that hold no null as one constant (for the demo
   * result, a third less work than a test of each cell). A block of the rows (see `block`) takes
   * them from here, read once for the table and not once for each block.
   */
  async jsonText(connection: DuckDBConnection, columns: ResultColumn[], table: string): Promise<JsonText> {
    const facts = [...columns.map(jsonNumbersFitSql), ...columns.map(neverNullSql)];
    const asked = facts.filter((fact) => fact !== null);
    const [answers] = asked.length === 0 ? [[]] : (await connection.runAndReadAll(`SELECT ${asked.join(', ')} FROM ${table}`)).getRowsJS();
    const held = whichFactsHold(facts, answers!);
    return { line: jsonLineSql(columns, held.slice(0, columns.length)), rowBytes: rowBytesSql(columns, held.slice(columns.length)) };
  }

  /**
   * Rows `from` to `to` of a table written in order (see `range`) into a file of its own in the
   * pages' folder, kept for `TextBlocks`: CSV lines, or JSON lines as `json` says (given for
   * JSON), with where each row starts, and the text read back (JSON's line breaks made commas)
   * into memory from `allocate`.
   */
  async block(
    connection: DuckDBConnection,
    columns: ResultColumn[],
    table: string,
    row: string,
    { from, to, json, allocate }: { from: number; to: number; json: JsonText | null; allocate: (size: number) => Buffer },
  ): Promise<BlockText> {
    const rows = rowidRange(table, row, from, to);
    const file = this.#copier.file('block');
    try {
      if (json === null) {
        await this.#copier.copyTo(connection, columns.map(csvColumnSql), rows, 'HEADER false', file);
        const body = await readBytes(file, allocate);
        return { file, starts: csvRowStarts(body), sizes: null, body };
      }
      // each row's bytes as a column, in the order COPY writes the rows: as a list in one aggregate
      // with the rest of the facts, they cost twice as much
      const sizes = await uintegers(await connection.run(`SELECT (${json.rowBytes})::UINTEGER FROM (${rows.sql})`, valuesOf(rows.params)));
      await this.#copier.copyTo(connection, [json.line], rows, COPY_JSON_LINES, file);
      const body = await readBytes(file, allocate);
      const starts = commasForLineBreaks(body);
      if (sizes.length !== starts.length - 1) throw new Error(`a block of ${sizes.length} rows has ${starts.length - 1} lines`);
      return { file, starts, sizes, body };
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
  }
}

/** The values of a result's one UINTEGER column, none of them null, read from its vectors as they are. */
async function uintegers(result: DuckDBMaterializedResult): Promise<Uint32Array> {
  const values = new Uint32Array(Number(result.rowCount));
  let at = 0;
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const vector = chunk.getColumnVector(0);
    // rowCount asks DuckDB each time
    const count = chunk.rowCount;
    for (let i = 0; i < count; i++) values[at++] = vector.getItem(i) as number;
  }
  return values;
}
