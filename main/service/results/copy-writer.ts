import { randomBytes } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteLiteral } from '../../common/sql-quote.ts';
import { valuesOf } from '../../common/statement-values.ts';
import { jsonNumbersFitSql } from './cell-sql.ts';
import { jsonLineSql, whichFactsHold } from './json-lines.ts';
import type { PageRows } from './page-rows.ts';
import { rowBytesSql, type ResultColumn } from './row-bytes.ts';

/** JSON lines of rows, as COPY wrote them, with the rows' count and bytes, and with each row's bytes when asked. */
export interface JsonLines {
  body: Buffer;
  rowCount: number;
  bytes: number;
  sizes: Uint32Array;
}

// JSON lines, each a row's JSON text from to_json, written by COPY's CSV writer as they are: COPY's
// own JSON format writes the same bytes with the same writer, but looks at each byte of every row
// for one that would need quotes first (none can: quoting is off), and that cost time (the
// figures are in bench/RESULTS.md).
export const COPY_JSON_LINES = `FORMAT csv, HEADER false, QUOTE '', ESCAPE '', FORCE_QUOTE *`;

/**
 * DuckDB's COPY of a page's rows into a file of its own in `dir` (the service's temporary folder,
 * emptied at start), read back and removed: how both pages and the text kept for them are written.
 */
export class CopyWriter {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /**
   * JSON lines of the rows (with `eachRow`, each row's bytes too), with columns written as they
   * are where all their values allow; null
   * when they would be, or are, larger than `maxBytes` (told before they are written from the rows'
   * size and their keys, then from the file).
   */
  async jsonLines(
    connection: DuckDBConnection,
    columns: ResultColumn[],
    rows: PageRows,
    maxBytes: number,
    eachRow = false,
  ): Promise<JsonLines | null> {
    const { count, bytes, line, sizes } = await this.#jsonFacts(connection, columns, rows, eachRow);
    if (count === 0) return { body: Buffer.alloc(0), rowCount: 0, bytes: 0, sizes };
    // each row repeats its keys: quoted, a colon, a comma, braces
    const keys = columns.reduce((sum, column) => sum + Buffer.byteLength(JSON.stringify(column.name)) + 2, 2);
    if (bytes + count * keys > maxBytes) return null;
    const copied = await this.copy(connection, [line], rows, COPY_JSON_LINES, maxBytes);
    return copied && { body: copied.body, rowCount: copied.rowCount, bytes, sizes };
  }

  /**
   * The rows' count and bytes, and each row's JSON for COPY: its cells as they are where all their
   * column's values allow; with `eachRow`, each row's bytes too.
   */
  async #jsonFacts(
    connection: DuckDBConnection,
    columns: ResultColumn[],
    rows: PageRows,
    eachRow = false,
  ): Promise<{ count: number; bytes: number; line: string; sizes: Uint32Array }> {
    const facts = columns.map(jsonNumbersFitSql);
    const asked = facts.filter((fact) => fact !== null);
    const sizes = eachRow ? `, list((${rowBytesSql(columns)})::UINTEGER ORDER BY ${rows.orderBy})` : '';
    const reader = await connection.runAndReadAll(
      `SELECT count(*)::BIGINT, coalesce(sum(${rowBytesSql(columns)}), 0)::BIGINT${sizes}${asked.map((f) => `, ${f}`).join('')} FROM (${rows.sql})`,
      valuesOf(rows.params),
    );
    const [count, bytes, ...rest] = reader.getRowsJS()[0] as [bigint, bigint, ...unknown[]];
    const each = eachRow ? Uint32Array.from((rest.shift() as number[] | null) ?? []) : new Uint32Array(0);
    return { count: Number(count), bytes: Number(bytes), line: jsonLineSql(columns, whichFactsHold(facts, rest)), sizes: each };
  }

  async copy(
    connection: DuckDBConnection,
    cells: string[],
    rows: PageRows,
    options: string,
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<{ body: Buffer; rowCount: number } | null> {
    const file = this.file('page');
    try {
      const rowCount = await this.copyTo(connection, cells, rows, options, file);
      if ((await stat(file)).size > maxBytes) return null;
      return { body: await readFile(file), rowCount };
    } finally {
      await rm(file, { force: true });
    }
  }

  /** COPYs the rows' cells into `file`, and answers how many rows it wrote. */
  async copyTo(connection: DuckDBConnection, cells: string[], rows: PageRows, options: string, file: string): Promise<number> {
    const order = rows.inOrder ? '' : ` ORDER BY ${rows.orderBy}`;
    const copied = await connection.run(
      `COPY (SELECT ${cells.join(', ')} FROM (${rows.sql})${order}) TO ${quoteLiteral(file)} (${options})`,
      valuesOf(rows.params),
    );
    return copied.rowsChanged;
  }

  file(kind: 'page' | 'block'): string {
    return join(this.#dir, `${kind}-${randomBytes(8).toString('hex')}`);
  }
}
