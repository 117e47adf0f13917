import type { DuckDBConnection } from '@duckdb/node-api';
import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { valuesOf } from '../../common/statement-values.ts';
import type { BoundSql } from '../../filter-language/index.ts';
import { assertWindow, rowPositionName, unusedName, type PageQuery } from './page-sql.ts';
import type { Page, PageEncoding } from './page.ts';
import type { ResultReader } from './result-reader.ts';
import { ResultViews } from './result-views.ts';
import { rowBytesSql, type ResultColumn, type StoredSize } from './row-bytes.ts';

// A speed-up over first-sorted-page.ts for a user trying filter after filter under one sort. Once
// a sort has come with a second filter, the result's rows are made, in the background, into a view
// in that sort, each row with its bytes (ResultViews, a budget of its own). A new filter under the
// sort is then a count of the view's rows that pass and of their bytes, beside a page of the first
// rows that pass, read from the top of the view: neither sorts, and the count reads only the
// columns the filter names and the bytes.

const KEPT = { cells: SERVICE_CACHES.sortViewCells, views: SERVICE_CACHES.sortViews };

export type SortedFilterQuery = PageQuery & { where: BoundSql; orderBy: string };

export class SortViews {
  readonly #reader: ResultReader;
  readonly #views: ResultViews;
  /** One view is made at a time: each takes a core for a while, which the requests need more. */
  #making: Promise<void> | null = null;

  constructor(reader: ResultReader) {
    this.#reader = reader;
    this.#views = new ResultViews(reader.files.db, undefined, KEPT);
  }

  /**
   * The page `query` asks for and the rows and bytes its filter lets through, as the plain path
   * and the count give them, from the view of its sort; null while that view is not made, whose
   * making this starts when the sort was asked before and the view fits in its budget. `query`
   * must be one `readsFirstSorted` takes.
   */
  page(executionId: string, query: SortedFilterQuery, encoding: PageEncoding): Promise<[StoredSize, Page]> | null {
    assertWindow(query);
    const key = `${executionId}\u0000${query.orderBy}`;
    const fill = (target: string) => this.#fill(executionId, query, target);
    if (!this.#views.isMade(key)) {
      // a result larger than the whole budget is not made into a view: it would be given back at once
      const fits = query.storedRows * (query.tableColumns.length + 1) <= KEPT.cells;
      if (fits && this.#making === null && this.#views.worthMaking(key)) {
        // a view that could not be made is not kept (ResultViews): the next filters read as before
        this.#making = this.#views
          .use(executionId, key, fill, () => Promise.resolve())
          .catch(() => undefined)
          .finally(() => (this.#making = null));
      }
      return null;
    }
    return this.#views.use(executionId, key, fill, (view) => this.#read(view, query, encoding));
  }

  /**
   * The rows and bytes that pass `where`, from a view of the result in any sort (a count does not
   * depend on the order); null when none is made.
   */
  count(executionId: string, columns: ResultColumn[], where: BoundSql): Promise<StoredSize> | null {
    const key = this.#views.madeKeyOf(executionId);
    if (key === undefined) return null;
    // a view kept is read as it is: it is never made here
    const kept = () => Promise.reject(new Error(`the view ${key} was to be kept`));
    return this.#views.use(executionId, key, kept, (view) => this.#count(view, columns, where));
  }

  /** Waits for the view being made, if one is. */
  async made(): Promise<void> {
    await this.#making;
  }

  /** Drops the views no one has read for `idleMillis`. */
  dropIdle(idleMillis: number): Promise<void> {
    return this.#views.dropIdle(idleMillis);
  }

  /** Drops the views of a result that is deleted. */
  dropAll(executionId: string): Promise<void> {
    return this.#views.dropAll(executionId);
  }

  /** Every stored row in the sort, rowid breaking ties as on the plain path, with its bytes. */
  #fill(executionId: string, { tableColumns, orderBy }: SortedFilterQuery, target: string): Promise<number> {
    return this.#reader.withTable(executionId, async (connection, table) => {
      await connection.run(
        `CREATE TABLE ${target} AS SELECT *, (${rowBytesSql(tableColumns)})::UINTEGER AS ${bytesName(tableColumns)} ` +
          `FROM ${table} ORDER BY ${orderBy}, rowid`,
      );
      const [[rows]] = (await connection.runAndReadAll(`SELECT count(*) FROM ${target}`)).getRows() as [[bigint]];
      return Number(rows) * (tableColumns.length + 1);
    });
  }

  #read(view: string, query: SortedFilterQuery, encoding: PageEncoding): Promise<[StoredSize, Page]> {
    return Promise.all([
      this.#count(view, query.tableColumns, query.where),
      this.#reader.withConnection((connection) => this.#firstRows(connection, view, query, encoding)),
    ]);
  }

  #count(view: string, columns: ResultColumn[], where: BoundSql): Promise<StoredSize> {
    return this.#reader.withConnection(async (connection) => {
      const sql = `SELECT count(*)::BIGINT, coalesce(sum(${bytesName(columns)}), 0)::BIGINT FROM ${view} WHERE ${where.sql}`;
      const [[rows, bytes]] = (await connection.runAndReadAll(sql, valuesOf(where.params))).getRows() as [[bigint, bigint]];
      return { rowCount: Number(rows), bytes: Number(bytes) };
    });
  }

  /** The page, from the view's first rows that pass, read in its order: DuckDB stops once it has them. */
  #firstRows(
    connection: DuckDBConnection,
    view: string,
    { where, tableColumns, columns, offset, limit }: SortedFilterQuery,
    encoding: PageEncoding,
  ) {
    const row = rowPositionName(tableColumns);
    return this.#reader.pages.write(connection, encoding, columns, {
      sql: `SELECT *, rowid AS ${row} FROM ${view} WHERE ${where.sql} LIMIT ${limit} OFFSET ${offset}`,
      params: where.params,
      orderBy: row,
      inOrder: true,
      limit,
    });
  }
}

/** The name of the view's column of each row's bytes, which no column of the result has. */
function bytesName(columns: ResultColumn[]): string {
  return unusedName(columns, '__bytes');
}
