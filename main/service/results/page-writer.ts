import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier, quoteLiteral, valuesOf, type SqlParams } from '../storage/duckdb.ts';
import { csvColumnSql, jsonCellSql, jsonNumbersFitSql } from './cell-sql.ts';
import { rowBytesSql, type ResultColumn } from './row-bytes.ts';

export type PageFormat = 'json' | 'csv';

/** A page as bytes: its rows' JSON objects joined by commas, or its CSV lines, each ending in a line break. */
export interface Page {
  body: Buffer;
  rowCount: number;
  bytes: number;
}

/** The rows of a page, as a SELECT of (at least) the columns shown and the names its order uses. */
export interface PageRows {
  sql: string;
  params: SqlParams;
  /** The page's order. */
  orderBy: string;
  /** Whether the rows come in that order as they are read: a range of rowids of a table written in order. */
  inOrder: boolean;
  /** The most rows the page may hold. */
  limit: number;
}

// A JSON page of up to this many rows is written by one statement; a larger one by two and COPY,
// whose start (a file, a second statement) costs about 3 ms, paid back from a few thousand rows.
const ONE_STATEMENT_ROWS = 2_000;
const LINE_BREAK = 0x0a;
const COMMA = 0x2c;

/**
 * Writes pages with DuckDB, which makes their whole text: no value passes through JavaScript. Large
 * pages go through COPY into a file, read back whole and removed: COPY writes CSV about twice as
 * fast as SQL expressions joined by string_agg, and JSON faster once cells are written as they are.
 * Each page's file has a name of its own in `dir`, the service's temporary folder, emptied at start.
 */
export class PageWriter {
  readonly #dir: string;
  #tables = 0;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async csv(connection: DuckDBConnection, columns: ResultColumn[], rows: PageRows): Promise<Page> {
    if (columns.length === 0) return columnless(connection, rows, 'csv');
    const { body, rowCount } = await this.#copy(connection, columns.map(csvColumnSql), rows, 'HEADER false');
    return { body, rowCount, bytes: 0 };
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
    const facts = columns.map(jsonNumbersFitSql);
    const asked = facts.filter((fact) => fact !== null);
    const reader = await connection.runAndReadAll(
      `SELECT count(*)::BIGINT, coalesce(sum(${rowBytesSql(columns)}), 0)::BIGINT${asked.map((f) => `, ${f}`).join('')} FROM (${rows.sql})`,
      valuesOf(rows.params),
    );
    const [count, bytes, ...fit] = reader.getRows()[0] as [bigint, bigint, ...boolean[]];
    if (count === 0n) return { body: Buffer.alloc(0), rowCount: 0, bytes: 0 };
    let next = 0;
    const cells = columns.map((column, i) => `${jsonCellSql(column, facts[i] !== null && fit[next++] === true)} AS ${quoteIdentifier(column.name)}`);
    const { body, rowCount } = await this.#copy(connection, cells, rows, 'FORMAT json');
    // one object a line: JSON text holds a line break only between them, never inside a value
    for (let at = body.indexOf(LINE_BREAK); at !== -1; at = body.indexOf(LINE_BREAK, at + 1)) body[at] = COMMA;
    return { body: body.subarray(0, body.length - 1), rowCount, bytes: Number(bytes) };
  }

  async #copy(connection: DuckDBConnection, cells: string[], rows: PageRows, options: string): Promise<{ body: Buffer; rowCount: number }> {
    const order = rows.inOrder ? '' : ` ORDER BY ${rows.orderBy}`;
    const file = join(this.#dir, `page-${randomBytes(8).toString('hex')}`);
    try {
      const copied = await connection.run(`COPY (SELECT ${cells.join(', ')} FROM (${rows.sql})${order}) TO ${quoteLiteral(file)} (${options})`, valuesOf(rows.params));
      return { body: await readFile(file), rowCount: copied.rowsChanged };
    } finally {
      await rm(file, { force: true });
    }
  }
}

/** A short JSON page, its text, size and bytes from one statement. */
async function oneStatementJson(connection: DuckDBConnection, columns: ResultColumn[], rows: PageRows): Promise<Page> {
  const row = `to_json(struct_pack(${columns.map((c) => `${quoteIdentifier(c.name)} := ${jsonCellSql(c, false)}`).join(', ')}))::VARCHAR`;
  const reader = await connection.runAndReadAll(
    `SELECT string_agg(${row}, ',' ORDER BY ${rows.orderBy}), count(*)::BIGINT, coalesce(sum(${rowBytesSql(columns)}), 0)::BIGINT FROM (${rows.sql})`,
    valuesOf(rows.params),
  );
  const [[text, rowCount, bytes]] = reader.getRows() as [[string | null, bigint, bigint]];
  return { body: Buffer.from(text ?? ''), rowCount: Number(rowCount), bytes: Number(bytes) };
}

/** A page without columns: as many empty objects, or empty lines, as it has rows. */
async function columnless(connection: DuckDBConnection, rows: PageRows, format: PageFormat): Promise<Page> {
  const [[count]] = (await connection.runAndReadAll(`SELECT count(*)::BIGINT FROM (${rows.sql})`, valuesOf(rows.params))).getRows() as [[bigint]];
  const rowCount = Number(count);
  const text = format === 'json' ? Array(rowCount).fill('{}').join(',') : '\n'.repeat(rowCount);
  return { body: Buffer.from(text), rowCount, bytes: 0 };
}
