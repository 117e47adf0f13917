import { valuesOf } from '../../common/statement-values.ts';
import { rowPositionName, type PageQuery } from './page-sql.ts';
import type { Page, PageEncoding } from './page.ts';
import type { ResultReader } from './result-reader.ts';
import { ResultViews } from './result-views.ts';
import { ViewTexts } from './view-texts.ts';

/**
 * A speed-up over the plain page path (page-sql.ts) for a filter or a sort read page after page:
 * its rows are made once into a view, in order (ResultViews), whose pages are ranges of rowids;
 * JSON pages are slices of the view's text, made once too (ViewTexts). A first page, or a
 * one-off, is left to the plain path.
 */
export class ViewPages {
  readonly #reader: ResultReader;
  readonly #views: ResultViews;
  readonly #texts = new ViewTexts();

  constructor(reader: ResultReader) {
    this.#reader = reader;
    this.#views = new ResultViews(reader.files.db, (table) => this.#texts.forget(table));
  }

  /** The page, from a view; null when the page is not one to read through a view. */
  page(executionId: string, query: PageQuery, encoding: PageEncoding): Promise<Page> | null {
    if ((!query.where && !query.orderBy) || query.samplePercent != null) return null;
    const params = query.where?.params ?? [];
    const key = [executionId, query.where?.sql ?? '', query.orderBy ?? '', ...params].join('\u0000');
    if (!this.#views.worthMaking(key)) return null;
    const reader = this.#reader;
    const fill = (target: string) =>
      reader.withTable(executionId, async (connection, table) => {
        const where = query.where ? ` WHERE ${query.where.sql}` : '';
        // rowid breaks ties of the sort: a view's order is the same each time it is made
        await connection.run(
          `CREATE TABLE ${target} AS SELECT * FROM ${table}${where} ORDER BY ${query.orderBy ?? 'rowid'}, rowid`,
          valuesOf(params),
        );
        const [[rows]] = (await connection.runAndReadAll(`SELECT count(*) FROM ${target}`)).getRows() as [[bigint]];
        return Number(rows) * query.tableColumns.length;
      });
    const row = rowPositionName(query.tableColumns);
    return this.#views.use(executionId, key, fill, async (view, cells) => {
      const columns = query.columns.map((c) => c.name).join('\u0000');
      const text = (maxBytes: number) =>
        reader.withConnection((connection) => reader.pages.text(connection, query.columns, view, row, maxBytes));
      const page = encoding === 'json' ? await this.#texts.page(view, columns, cells, query.offset, query.limit, text) : null;
      return (
        page ??
        reader.withConnection((connection) => reader.pages.range(connection, encoding, query.columns, view, row, query.offset, query.limit))
      );
    });
  }

  /** Drops the views no one has read for `idleMillis`, and their texts. */
  dropIdle(idleMillis: number): Promise<void> {
    return this.#views.dropIdle(idleMillis);
  }

  /** Drops the views of a result that is deleted. */
  dropAll(executionId: string): Promise<void> {
    return this.#views.dropAll(executionId);
  }
}
